// An account's pending webhook deliveries are capped: the reconciler drops the oldest retries past
// WEBHOOK_MAX_PENDING_PER_ACCOUNT, marks their endpoints failing and e-mails the owner once a day.
// No worker runs here, so the deliveries stay exactly as the test leaves them.
import type { Job } from "bullmq";
import { and, eq, inArray } from "drizzle-orm";
import { expect, it } from "vitest";
import { getDb, withTx } from "#app/db/client.server.ts";
import { mailOutbox } from "#app/db/schema/mail.ts";
import { webhookDeliveries } from "#app/db/schema/webhooks.ts";
import { listDeliveries } from "#app/modules/webhooks/deliveries.server.ts";
import { createEndpoint, getEndpoint } from "#app/modules/webhooks/endpoints.server.ts";
import { recordTestEvent } from "#app/modules/webhooks/outbox.server.ts";
import { DROPPED_ANSWER } from "#app/modules/webhooks/pending-cap.server.ts";
import { webhooks } from "#worker/jobs/webhooks.ts";
import { createTestUser } from "#tests/support/requests.ts";

// Read at the first getEnv(), after the imports (nothing reads the environment at import).
process.env.WEBHOOK_MAX_PENDING_PER_ACCOUNT = "3";

/** A delivery to the endpoint; `retry`: one attempt failed, the next one waits. */
async function delivery(userId: number, endpointId: number, retry: boolean): Promise<number> {
  await withTx(async () => await recordTestEvent(userId, endpointId));
  const [latest] = await listDeliveries(userId, endpointId, { limit: 1 });
  if (retry)
    await getDb()
      .update(webhookDeliveries)
      .set({ attempts: 1, nextAttemptAt: new Date(Date.now() + 3600_000) })
      .where(eq(webhookDeliveries.id, latest.id))
      .run();
  return latest.id;
}

async function endpointOf(userId: number, path: string) {
  const { endpoint } = await createEndpoint(userId, {
    url: `http://203.0.113.10/${path}`,
    events: ["message.delivered"],
    enabled: true,
  });
  return endpoint.id;
}

const statuses = async (ids: number[]) =>
  new Map(
    (
      await getDb()
        .select({ id: webhookDeliveries.id, status: webhookDeliveries.status, answer: webhookDeliveries.lastAnswer })
        .from(webhookDeliveries)
        .where(inArray(webhookDeliveries.id, ids))
        .all()
    ).map((row) => [row.id, row.status === "failed" ? row.answer : row.status]),
  );

const reconcile = () => webhooks.process({ name: "webhooks-reconcile", data: { v: 1 } } as Job);
const droppedMails = async (userId: number) =>
  await getDb()
    .select()
    .from(mailOutbox)
    .where(and(eq(mailOutbox.userId, userId), eq(mailOutbox.kind, "webhook_deliveries_dropped")))
    .all();

it("drops the oldest retries past the cap, marks their endpoints failing, e-mails the owner once a day; first attempts and other accounts are kept", async () => {
  const owner = await createTestUser();
  const [quiet, loud] = [await endpointOf(owner.id, "quiet"), await endpointOf(owner.id, "loud")];
  const oldest = [
    await delivery(owner.id, quiet, true),
    await delivery(owner.id, loud, true),
    await delivery(owner.id, loud, true),
  ];
  const kept = [
    await delivery(owner.id, loud, true),
    await delivery(owner.id, loud, false),
    await delivery(owner.id, quiet, false),
  ];
  // Another account at its cap loses nothing.
  const other = await createTestUser();
  const theirs = await endpointOf(other.id, "theirs");
  const atCap = [
    await delivery(other.id, theirs, true),
    await delivery(other.id, theirs, true),
    await delivery(other.id, theirs, true),
  ];

  expect(await reconcile()).toMatchObject({ dropped: 3, accounts: 1 });
  expect(await statuses([...oldest, ...kept, ...atCap])).toEqual(
    new Map([
      ...oldest.map((id) => [id, DROPPED_ANSWER] as const),
      ...[...kept, ...atCap].map((id) => [id, "pending"] as const),
    ]),
  );
  for (const id of [quiet, loud]) expect((await getEndpoint(owner.id, id)).failingSince).not.toBeNull();
  expect((await getEndpoint(other.id, theirs)).failingSince).toBeNull();
  const [mail] = await droppedMails(owner.id);
  expect(mail.to).toBe(owner.email);
  expect(mail.text).toContain("More than 3 webhook deliveries of your account were waiting to be retried");
  expect(mail.text).toContain("we dropped the oldest 3 of them");
  expect(mail.text).toContain("http://203.0.113.10/quiet");
  expect(mail.text).toContain("http://203.0.113.10/loud");

  // At the cap nothing more goes; past it again the oldest retry goes, and no second e-mail that day.
  expect(await reconcile()).toMatchObject({ dropped: 0 });
  const newer = await delivery(owner.id, quiet, true);
  expect(await reconcile()).toMatchObject({ dropped: 1, accounts: 1 });
  expect(await statuses([kept[0], newer])).toEqual(
    new Map([
      [kept[0], DROPPED_ANSWER],
      [newer, "pending"],
    ]),
  );
  expect(await droppedMails(owner.id)).toHaveLength(1);
  expect(await droppedMails(other.id)).toHaveLength(0);
});
