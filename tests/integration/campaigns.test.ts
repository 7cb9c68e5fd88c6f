import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "#app/db/client.server.ts";
import { contacts } from "#app/db/schema/contacts.ts";
import { runGroupSend, startGroupSend } from "#app/modules/group-sends/group-send.server.ts";
import { applyReceipts, claimMessage, recordAccepted } from "#app/modules/sms/dispatch.server.ts";
import { loader as campaignExport } from "#app/routes/sms/campaign-export.ts";
import { loader as campaignLoader } from "#app/routes/sms/campaign.tsx";
import { loader as campaignsLoader } from "#app/routes/sms/campaigns.tsx";
import { messagesOfGroupSend, seedGroup } from "#tests/support/contacts.ts";
import { call, createTestUser, dataOf, makeRequest, statusOf, type TestUser } from "#tests/support/requests.ts";
import { grantCredits } from "#tests/support/sms.ts";

type Campaign = {
  campaign: { id: number; body: string; finished: boolean };
  counts: { delivered: number; failed: number; sent: number; queued: number };
  messages: number;
  skipped: number;
  skipReasons: { reason: string; n: number }[];
  recipients: { id: number; phone: string; status: string }[];
  page: number;
  totalPages: number;
};

async function campaignPage(user: TestUser, id: number, search = "") {
  const result = await call(campaignLoader, makeRequest(`/sms/campaigns/${id}${search}`, { user }), { id: String(id) });
  return dataOf<Campaign>(result);
}

/** A finished group send to `members` contacts, the first `optedOut` of them opted out. */
async function campaignOf(members: number, optedOut = 0) {
  const user = await createTestUser();
  await grantCredits(user.id, members);
  const { groupId, contactIds } = await seedGroup(user.id, members);
  for (const id of contactIds.slice(0, optedOut))
    await getDb().update(contacts).set({ status: false }).where(eq(contacts.id, id)).run();
  const send = await startGroupSend(user.id, groupId, "Campaign text");
  await runGroupSend(send.id);
  return { user, id: send.id };
}

describe("campaign page", () => {
  it("counts each outcome live while the SMSC accepts and receipts arrive", async () => {
    const { user, id } = await campaignOf(25, 2);
    const start = await campaignPage(user, id);
    expect(start).toMatchObject({
      campaign: { body: "Campaign text", finished: true },
      counts: { queued: 23, sent: 0, delivered: 0, failed: 0 },
      messages: 23,
      skipped: 2,
      skipReasons: [{ reason: "opted out", n: 2 }],
      totalPages: 2,
    });
    expect(start.recipients).toHaveLength(20);

    const ids = (await messagesOfGroupSend(id)).map((m) => m.id);
    for (const messageId of ids) {
      expect(await claimMessage(messageId)).toBe(true);
      await recordAccepted(messageId, [{ part: 1, providerId: `camp-${messageId}` }]);
    }
    expect((await campaignPage(user, id)).counts).toEqual({ queued: 0, sent: 23, delivered: 0, failed: 0 });

    await applyReceipts(ids.slice(0, 10).map((m) => ({ providerId: `camp-${m}`, status: "delivered", error: null })));
    await applyReceipts([{ providerId: `camp-${ids[10]}`, status: "undelivered", error: "001" }]);
    expect((await campaignPage(user, id)).counts).toEqual({ queued: 0, sent: 12, delivered: 10, failed: 1 });

    await applyReceipts(ids.slice(11).map((m) => ({ providerId: `camp-${m}`, status: "delivered", error: null })));
    const done = await campaignPage(user, id);
    expect(done.counts).toEqual({ queued: 0, sent: 0, delivered: 22, failed: 1 });
    const page2 = await campaignPage(user, id, "?page=2");
    expect(page2.recipients.map((r) => r.id)).toEqual(ids.slice(20));
  });

  it("lists the account's campaigns newest first with their counts, and another account's id is a 404", async () => {
    const { user, id } = await campaignOf(3);
    const list = dataOf<{ campaigns: { id: number; counts: { queued: number } }[] }>(
      await call(campaignsLoader, makeRequest("/sms/campaigns", { user })),
    );
    expect(list.campaigns).toMatchObject([{ id, counts: { queued: 3 } }]);
    const other = await createTestUser();
    expect(
      statusOf(await call(campaignLoader, makeRequest(`/sms/campaigns/${id}`, { user: other }), { id: String(id) })),
    ).toBe(404);
    expect(statusOf(await call(campaignLoader, makeRequest("/sms/campaigns/x", { user }), { id: "x" }))).toBe(404);
  });

  it("exports every recipient with its outcome, skipped members last with the reason", async () => {
    const { user, id } = await campaignOf(3, 1);
    const response = (await call(campaignExport, makeRequest(`/sms/campaigns/${id}/export`, { user }), {
      id: String(id),
    })) as Response;
    expect(response.headers.get("Content-Disposition")).toBe(`attachment; filename="campaign-${id}.csv"`);
    const lines = (await response.text()).trim().split("\n");
    expect(lines[0]).toBe(
      `Message ID,Contact,Phone,Delivery Status,Status Detail,Queued At (${user.timeZone}),Final At (${user.timeZone})`,
    );
    expect(lines).toHaveLength(4);
    expect(lines[1]).toMatch(/^\d+,Member 1001,'\+12025551001,Queued,,\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,$/);
    expect(lines[3]).toBe(",Member 1000,'+12025551000,Skipped,opted out,,");
  });
});
