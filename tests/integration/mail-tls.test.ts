// SMTP_REQUIRE_TLS=1 against a real SMTP server that offers no STARTTLS: nothing goes out in the
// clear, the refusal is logged, and the mail stays pending in the outbox for the next attempt.
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { getDb, withTx } from "#app/db/client.server.ts";
import { mailOutbox } from "#app/db/schema/mail.ts";
import { queueMail, reconcileMail } from "#app/modules/mail/outbox.server.ts";
import { captureLogs } from "#app/utils/log.server.ts";
import { mail } from "#worker/jobs/mail.ts";
import { type RunningWorkers, startWorkers } from "#worker/workers.ts";
import { startSmtpSink } from "#tests/support/smtp.ts";
import { waitFor } from "#tests/support/wait.ts";

const sink = await startSmtpSink();
// Read at the first getEnv(), after the imports.
process.env.SMTP_URL = `smtp://127.0.0.1:${sink.port}`;
process.env.SMTP_REQUIRE_TLS = "1";
process.env.LOG_LEVEL = "info";

let workers: RunningWorkers;
const captured = { lines: [] as string[], stop: () => {} };
beforeAll(async () => {
  Object.assign(captured, captureLogs());
  workers = await startWorkers([mail]);
});
afterAll(async () => {
  await workers?.close();
  captured.stop();
  await sink.stop();
});

it("sends nothing without STARTTLS, logs why, and keeps the mail pending to retry", async () => {
  const id = await withTx(
    async (tx) =>
      await queueMail(tx, {
        userId: null,
        kind: "password_reset",
        to: "ada@example.com",
        subject: "Reset",
        text: "A link",
      }),
  );
  const row = await waitFor(async () => {
    const found = await getDb().select().from(mailOutbox).where(eq(mailOutbox.id, id)).get();
    return found?.lastError || found?.status === "sent" ? found : undefined;
  });
  expect(row).toMatchObject({ status: "pending", sentAt: null });
  expect(row.attempts).toBeGreaterThanOrEqual(1);
  expect(row.lastError).toMatch(/STARTTLS/);
  expect(sink.mails).toEqual([]);
  expect(captured.lines.join("\n")).toMatch(/"level":"warn".*SMTP_REQUIRE_TLS/);
  // Still the reconciler's to hand out again: nothing is lost.
  expect((await reconcileMail()).enqueued).toBeGreaterThanOrEqual(1);
});
