// Campaigns: every group send, including each occurrence of a scheduled group SMS (which runs as a
// group send), with the live outcome of its messages.
import { and, asc, count, desc, eq, gt, inArray } from "drizzle-orm";
import { getDb } from "#app/db/client.server.ts";
import { contacts, groupSends, groupSendSkips } from "#app/db/schema/contacts.ts";
import { smsMessages } from "#app/db/schema/sms.ts";
import { pageWindow } from "#app/utils/misc.ts";
import { emptyCounts, OUTCOME_OF, type OutcomeCounts } from "#app/modules/campaigns/campaign-counts.ts";

const CAMPAIGNS_PAGE_SIZE = 10;
const RECIPIENTS_PAGE_SIZE = 20;

const campaignColumns = {
  id: groupSends.id,
  groupId: groupSends.groupId,
  groupName: groupSends.groupName,
  body: groupSends.body,
  status: groupSends.status,
  total: groupSends.total,
  skipped: groupSends.skipped,
  stopReason: groupSends.stopReason,
  scheduleId: groupSends.scheduleId,
  occurrenceAt: groupSends.occurrenceAt,
  createdAt: groupSends.createdAt,
  finishedAt: groupSends.finishedAt,
};

/** The outcome counts of each campaign's messages, counted now (receipts move them on). */
async function outcomeCounts(userId: number, campaignIds: number[]): Promise<Map<number, OutcomeCounts>> {
  const byCampaign = new Map(campaignIds.map((id) => [id, emptyCounts()]));
  if (campaignIds.length === 0) return byCampaign;
  const rows = await getDb()
    .select({ campaignId: smsMessages.groupSendId, status: smsMessages.status, n: count() })
    .from(smsMessages)
    .where(and(eq(smsMessages.userId, userId), inArray(smsMessages.groupSendId, campaignIds)))
    .groupBy(smsMessages.groupSendId, smsMessages.status)
    .all();
  for (const row of rows) byCampaign.get(row.campaignId!)![OUTCOME_OF[row.status]] += row.n;
  return byCampaign;
}

/** The user's campaigns, newest first, one page, each with its outcome counts. */
export async function listCampaigns(userId: number, requestedPage: number) {
  const total =
    (await getDb().select({ n: count() }).from(groupSends).where(eq(groupSends.userId, userId)).get())?.n ?? 0;
  const { page, totalPages, offset } = pageWindow(total, requestedPage, CAMPAIGNS_PAGE_SIZE);
  const rows = await getDb()
    .select(campaignColumns)
    .from(groupSends)
    .where(eq(groupSends.userId, userId))
    .orderBy(desc(groupSends.id))
    .limit(CAMPAIGNS_PAGE_SIZE)
    .offset(offset)
    .all();
  const counts = await outcomeCounts(
    userId,
    rows.map((r) => r.id),
  );
  const live = await liveSkips(rows.filter((r) => !isFinished(r.status)).map((r) => r.id));
  return {
    campaigns: rows.map((r) => ({ ...r, skipped: live.get(r.id) ?? r.skipped, counts: counts.get(r.id)! })),
    page,
    totalPages,
    total,
  };
}

const isFinished = (status: string) => status === "done" || status === "failed";

/** Skips of sends still fanning out (their stored count is written at the end). */
async function liveSkips(campaignIds: number[]): Promise<Map<number, number>> {
  if (campaignIds.length === 0) return new Map();
  const rows = await getDb()
    .select({ id: groupSendSkips.groupSendId, n: count() })
    .from(groupSendSkips)
    .where(inArray(groupSendSkips.groupSendId, campaignIds))
    .groupBy(groupSendSkips.groupSendId)
    .all();
  return new Map(rows.map((r) => [r.id, r.n]));
}

/**
 * One of the user's campaigns with its live counts, skip reasons and one page of recipients;
 * null when it is not the user's.
 */
export async function getCampaign(userId: number, campaignId: number, requestedPage: number) {
  const campaign = await getDb()
    .select(campaignColumns)
    .from(groupSends)
    .where(and(eq(groupSends.id, campaignId), eq(groupSends.userId, userId)))
    .get();
  if (!campaign) return null;
  const counts = (await outcomeCounts(userId, [campaignId])).get(campaignId)!;
  const skipReasons = await getDb()
    .select({ reason: groupSendSkips.reason, n: count() })
    .from(groupSendSkips)
    .where(eq(groupSendSkips.groupSendId, campaignId))
    .groupBy(groupSendSkips.reason)
    .orderBy(desc(count()))
    .all();
  const skipped = skipReasons.reduce((sum, r) => sum + r.n, 0);
  const messages = counts.delivered + counts.failed + counts.sent + counts.queued;
  const { page, totalPages, offset } = pageWindow(messages, requestedPage, RECIPIENTS_PAGE_SIZE);
  const recipients = await getDb()
    .select(recipientColumns)
    .from(smsMessages)
    .leftJoin(contacts, eq(contacts.id, smsMessages.contactId))
    .where(and(eq(smsMessages.userId, userId), eq(smsMessages.groupSendId, campaignId)))
    .orderBy(asc(smsMessages.id))
    .limit(RECIPIENTS_PAGE_SIZE)
    .offset(offset)
    .all();
  return {
    campaign: { ...campaign, finished: isFinished(campaign.status) },
    counts,
    messages,
    skipped,
    skipReasons,
    recipients,
    page,
    totalPages,
  };
}

const recipientColumns = {
  id: smsMessages.id,
  name: contacts.name,
  phone: smsMessages.toPhone,
  status: smsMessages.status,
  error: smsMessages.error,
  createdAt: smsMessages.createdAt,
  doneAt: smsMessages.doneAt,
};

export type CampaignRecipient = {
  id: number | null;
  name: string | null;
  phone: string;
  status: (typeof smsMessages.$inferSelect)["status"] | "skipped";
  error: string | null;
  createdAt: Date | null;
  doneAt: Date | null;
};

const EXPORT_CHUNK = 1_000;

/**
 * Every recipient of the user's campaign for its export, EXPORT_CHUNK per call: its messages by id,
 * then the skipped members with the reason. Null when the campaign is not the user's.
 */
export async function campaignRecipientChunks(
  userId: number,
  campaignId: number,
): Promise<(() => Promise<CampaignRecipient[]>) | null> {
  const owned = await getDb()
    .select({ id: groupSends.id })
    .from(groupSends)
    .where(and(eq(groupSends.id, campaignId), eq(groupSends.userId, userId)))
    .get();
  if (!owned) return null;
  let lastMessage = 0;
  let lastSkip = -1;
  return async () => {
    if (lastSkip < 0) {
      const rows = await getDb()
        .select(recipientColumns)
        .from(smsMessages)
        .leftJoin(contacts, eq(contacts.id, smsMessages.contactId))
        .where(
          and(eq(smsMessages.userId, userId), eq(smsMessages.groupSendId, campaignId), gt(smsMessages.id, lastMessage)),
        )
        .orderBy(asc(smsMessages.id))
        .limit(EXPORT_CHUNK)
        .all();
      if (rows.length > 0) {
        lastMessage = rows.at(-1)!.id;
        return rows;
      }
      lastSkip = 0;
    }
    const skips = await getDb()
      .select({
        contactId: groupSendSkips.contactId,
        name: groupSendSkips.name,
        phone: groupSendSkips.phone,
        reason: groupSendSkips.reason,
      })
      .from(groupSendSkips)
      .where(and(eq(groupSendSkips.groupSendId, campaignId), gt(groupSendSkips.contactId, lastSkip)))
      .orderBy(asc(groupSendSkips.contactId))
      .limit(EXPORT_CHUNK)
      .all();
    if (skips.length > 0) lastSkip = skips.at(-1)!.contactId;
    return skips.map((s) => ({
      id: null,
      name: s.name,
      phone: s.phone,
      status: "skipped" as const,
      error: s.reason,
      createdAt: null,
      doneAt: null,
    }));
  };
}
