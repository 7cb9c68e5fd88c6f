// Sending one message to a whole group: one form post starts it, one BullMQ job fans it out.
import { and, eq, sql } from "drizzle-orm";
import { getDb, MESSAGE_STATE_TURN, withTx, type Tx } from "#app/db/client.server.ts";
import { groupSends } from "#app/db/schema/contacts.ts";
import { sqlText, statements } from "#app/db/statements.server.ts";
import { enqueueAfterCommit } from "#app/queue/enqueue-after-commit.server.ts";
import { addGroupSendJob, findGroupSendJob } from "#app/queue/jobs/group-send.server.ts";
import { clock } from "#app/utils/clock.server.ts";
import { getEnv } from "#app/utils/env.server.ts";
import { pluralize } from "#app/utils/misc.ts";
import { InsufficientCreditsError } from "#app/modules/credits/ledger.server.ts";
import { countSegments } from "#app/modules/messaging/segments.ts";
import { type NewMessage, queueMessages } from "#app/modules/sms/send.server.ts";
import { NotFoundError } from "#app/modules/contacts/errors.ts";
import { heldByQuietHours } from "#app/modules/quiet-hours/quiet-hours.server.ts";
import { UnknownSenderError } from "#app/modules/senders/errors.ts";
import { assertOwnSender } from "#app/modules/senders/senders.server.ts";
import { completeGroupSendIfDone } from "#app/modules/sms/group-send-completion.server.ts";
import { type GroupSendReport, type GroupSendSkip } from "#app/modules/group-sends/group-send.ts";
import { type Member, memberBatch, recipientsOf } from "#app/modules/group-sends/group-recipient.server.ts";
import { hasMergeFields, messageForMember } from "#app/modules/messaging/merge-fields.ts";
import { memberByMemberCost, uniformMessageCredits } from "#app/modules/group-sends/group-quote.server.ts";
import { currentPriceList } from "#app/modules/pricing/prices.server.ts";
import { assertGroupSendable, type GroupRecipients, groupRecipients } from "#app/modules/contacts/groups.server.ts";

/** Members per transaction: short write locks, one addBulk each. */
const GROUP_SEND_BATCH = 1_000;
/** Skipped members listed in the report (all are counted). */
const SKIPS_SHOWN = 10;
/** An unfinished send untouched this long has lost its job (never added, or gone from Redis). */
export const GROUP_SEND_STALE_MS = 60_000;

/** A scheduled group SMS's occurrence (UTC ms): at most one group send each. */
export type ScheduledOccurrence = { scheduleId: number; at: number };

function checkedSegments(body: string): number {
  const { segments } = countSegments(body);
  if (segments < 1 || segments > getEnv().SMS_MAX_SEGMENTS) {
    throw new Error(`A message must have 1 to ${getEnv().SMS_MAX_SEGMENTS} segments, this one has ${segments}`);
  }
  return segments;
}

type SendKey = { requestKey?: string; occurrence?: ScheduledOccurrence; from?: string };

/**
 * In one transaction: the user's group (else NotFoundError), then the earlier send with the same
 * request key or schedule occurrence, or a new row completed by `decide` (which may throw, writing
 * nothing).
 */
async function openSend(
  userId: number,
  groupId: number,
  body: string,
  key: SendKey,
  decide: (
    tx: Tx,
    group: GroupRecipients,
  ) => Partial<typeof groupSends.$inferInsert> | Promise<Partial<typeof groupSends.$inferInsert>>,
): Promise<{ id: number; fresh: boolean }> {
  const segments = checkedSegments(body);
  const now = clock.date();
  return await withTx(async (tx) => {
    const group = await groupRecipients(tx, userId, groupId);
    const { requestKey, occurrence } = key;
    const earlier = requestKey
      ? and(eq(groupSends.userId, userId), eq(groupSends.requestKey, requestKey))
      : occurrence &&
        and(eq(groupSends.scheduleId, occurrence.scheduleId), eq(groupSends.occurrenceAt, new Date(occurrence.at)));
    const found = earlier && (await tx.select({ id: groupSends.id }).from(groupSends).where(earlier).get());
    if (found) return { id: found.id, fresh: false };
    const row = await tx
      .insert(groupSends)
      .values({
        userId,
        groupId,
        groupName: group.name,
        body,
        fromAddress: key.from ?? null,
        segments,
        requestKey: requestKey ?? null,
        scheduleId: occurrence?.scheduleId ?? null,
        occurrenceAt: occurrence ? new Date(occurrence.at) : null,
        total: group.total,
        createdAt: now,
        updatedAt: now,
        ...(await decide(tx, group)),
      })
      .returning({ id: groupSends.id })
      .get();
    return { id: row.id, fresh: true };
  });
}

/**
 * Starts sending `body` (already validated, e.g. by messageBodyField) to every member of a group.
 * Checks the whole cost up front (active members x segments) and records the send; the fan-out
 * job then queues the messages. Throws NotFoundError (not the user's group), EmptyGroupError,
 * InactiveContactError (nobody to send to), UnknownSenderError (`from` is not the account's) or
 * InsufficientCreditsError (needed, balance), having written nothing. Members who opted out are
 * skipped by the fan-out and listed in its report. The same `requestKey`, or the same schedule `occurrence`, twice returns the
 * first send (`duplicate: true`).
 */
export async function startGroupSend(
  userId: number,
  groupId: number,
  body: string,
  key: SendKey = {},
): Promise<GroupSendReport & { duplicate: boolean }> {
  checkedSegments(body);
  await assertOwnSender(userId, key.from);
  const prices = await currentPriceList();
  const started = await openSend(userId, groupId, body, key, async (tx, group) => {
    // A templated body, or prices by destination: what each member's message costs, counted as the fan-out will.
    const needed = await memberByMemberCost(userId, groupId, body, key.from, prices);
    await assertGroupSendable(tx, userId, group, uniformMessageCredits(body, prices), needed);
    return {};
  });
  if (started.fresh) await enqueueAfterCommit(`group send ${started.id}`, () => addGroupSendJob(started.id));
  return { ...(await reportOf(started.id))!, duplicate: !started.fresh };
}

/**
 * Records a scheduled occurrence that sends nothing (not enough credits, nobody to send to, too
 * late) as a failed group send with the reason, so its report says why. The occurrence's earlier
 * send, if any, is returned instead (`duplicate: true`). Null when the group is not the user's.
 */
export async function recordFailedGroupSend(
  userId: number,
  groupId: number,
  body: string,
  occurrence: ScheduledOccurrence,
  reason: string,
): Promise<(GroupSendReport & { duplicate: boolean }) | null> {
  try {
    const now = clock.date();
    const recorded = await openSend(userId, groupId, body, { occurrence }, () => ({
      status: "failed",
      stopReason: reason,
      finishedAt: now,
    }));
    // Nothing was queued: it is complete as recorded.
    if (recorded.fresh)
      await withTx(() => completeGroupSendIfDone(recorded.id, now.getTime()), { turn: MESSAGE_STATE_TURN });
    return { ...(await reportOf(recorded.id))!, duplicate: !recorded.fresh };
  } catch (error) {
    if (error instanceof NotFoundError) return null;
    throw error;
  }
}

type SendRow = typeof groupSends.$inferSelect;
const queries = statements({
  // A batch's skipped members in one statement, each an array [contact id, name, phone, reason].
  insertSkips: sqlText<[number, string]>({
    sqlite: `insert into group_send_skips (group_send_id, contact_id, name, phone, reason)
   select ?, value ->> 0, value ->> 1, value ->> 2, value ->> 3 from jsonb_each(?) where true on conflict do nothing`,
    postgres: `insert into group_send_skips (group_send_id, contact_id, name, phone, reason)
   select $1::bigint, (value ->> 0)::bigint, value ->> 1, value ->> 2, value ->> 3 from jsonb_array_elements($2::jsonb)
   on conflict do nothing`,
  }),
  saveCursor: sqlText<[number, number, number]>(
    "update group_sends set status = 'running', cursor = ?, updated_at = ? where id = ?",
  ),
  countQueued: sqlText<[number], { queued: number; credits: number }>(
    "select count(*) as queued, coalesce(sum(credits), 0) as credits from sms_messages where group_send_id = ?",
  ),
  countSkipped: sqlText<[number], { skipped: number }>(
    "select count(*) as skipped from group_send_skips where group_send_id = ?",
  ),
  firstSkips: sqlText<[number, number], GroupSendSkip>(
    "select name, phone, reason from group_send_skips where group_send_id = ? order by contact_id limit ?",
  ),
  finishSend: sqlText<[string, string | null, number, number, number, number, number, number]>(
    `update group_sends set status = ?, stop_reason = ?, queued = ?, credits = ?, skipped = ?, finished_at = ?, updated_at = ?
   where id = ? and status in ('queued', 'running')`,
  ),
  latestOfSchedule: sqlText<[number, number], { id: number }>(
    "select id from group_sends where schedule_id = ? and user_id = ? order by occurrence_at desc limit 1",
  ),
  latestGroupSend: sqlText<[number], { id: number | null }>("select max(id) as id from group_sends where user_id = ?"),
  groupSendsBefore: sqlText<[number, number, number], { id: number }>(
    "select id from group_sends where user_id = ? and id < ? order by id desc limit ?",
  ),
});

async function recordSkips(groupSendId: number, skips: { member: Member; reason: string }[]): Promise<void> {
  const rows = skips.map(({ member, reason }) => [member.id, member.name, member.phone, reason]);
  await withTx(() => queries.insertSkips.run(groupSendId, JSON.stringify(rows)));
}

/** Ends the send with the counts taken from the messages and skips themselves (right however often it ran). */
async function finish(groupSendId: number, status: "done" | "failed", stopReason: string | null): Promise<void> {
  const now = clock.now();
  await withTx(
    async () => {
      const { queued, credits } = (await queries.countQueued.get(groupSendId))!;
      const { skipped } = (await queries.countSkipped.get(groupSendId))!;
      await queries.finishSend.run(status, stopReason, queued, credits, skipped, now, now, groupSendId);
      await completeGroupSendIfDone(groupSendId, now);
    },
    { turn: MESSAGE_STATE_TURN },
  );
}

function shortOfCredits(error: InsufficientCreditsError, batch: number): string {
  return (
    `Stopped early: not enough credits for the next ${pluralize(batch, "message")} ` +
    `(${pluralize(error.needed, "credit")} needed, balance ${pluralize(error.balance, "credit")}).`
  );
}

/**
 * The fan-out job: creates one message per active member with a valid number through
 * queueMessages, GROUP_SEND_BATCH members at a time, and records the others as skipped. Safe to
 * run again (a retried job, two workers at once): (group send, contact) is unique on the messages
 * and the skips, so nothing is created or debited twice. If the balance runs out on the way (it was
 * checked at the start) the send stops there and says so. On the job's last attempt an unexpected
 * error marks the send failed.
 */
export async function runGroupSend(
  groupSendId: number,
  options: { finalAttempt?: boolean } = {},
): Promise<GroupSendReport | null> {
  const row: SendRow | undefined = await getDb().select().from(groupSends).where(eq(groupSends.id, groupSendId)).get();
  if (!row) return null;
  if (row.status === "done" || row.status === "failed") return await reportOf(groupSendId);
  try {
    let cursor = row.cursor;
    let stopReason: string | null = row.groupId === null ? "Stopped early: the group was deleted." : null;
    const source = row.scheduleId === null ? "group" : "schedule";
    const from = row.fromAddress ?? undefined;
    const templated = hasMergeFields(row.body);
    const maxSegments = getEnv().SMS_MAX_SEGMENTS;
    while (row.groupId !== null && !stopReason) {
      const members = await memberBatch(row.groupId, row.userId, cursor, GROUP_SEND_BATCH);
      if (members.length === 0) break;
      const messages: NewMessage[] = [];
      const skips: { member: Member; reason: string }[] = [];
      const recipients = await recipientsOf(row.userId, row.fromAddress, members);
      for (const [i, member] of members.entries()) {
        const recipient = recipients[i];
        // A body with merge fields is rendered (and priced, by queueMessages) for each member.
        const text = "skip" in recipient || !templated ? null : messageForMember(row.body, member, maxSegments);
        if ("skip" in recipient) skips.push({ member, reason: recipient.skip });
        else if (text && "skip" in text) skips.push({ member, reason: text.skip });
        else
          messages.push({
            to: recipient.to,
            body: text?.text ?? row.body,
            source,
            from,
            groupSendId,
            contactId: member.id,
            respectQuietHours: true,
          });
      }
      if (skips.length > 0) await recordSkips(groupSendId, skips);
      if (messages.length > 0) {
        try {
          await queueMessages(row.userId, messages);
        } catch (error) {
          if (error instanceof UnknownSenderError) {
            stopReason = `Stopped early: ${error.message} any more.`;
            break;
          }
          if (!(error instanceof InsufficientCreditsError)) throw error;
          stopReason = shortOfCredits(error, messages.length);
          break;
        }
      }
      cursor = members[members.length - 1].id;
      await withTx(() => queries.saveCursor.run(cursor, clock.now(), groupSendId));
    }
    await finish(groupSendId, "done", stopReason);
  } catch (error) {
    if (options.finalAttempt)
      await finish(groupSendId, "failed", error instanceof Error ? error.message : String(error));
    throw error;
  }
  return await reportOf(groupSendId);
}

async function reportOf(groupSendId: number, userId?: number): Promise<GroupSendReport | null> {
  const row = await getDb()
    .select()
    .from(groupSends)
    .where(and(eq(groupSends.id, groupSendId), userId === undefined ? undefined : eq(groupSends.userId, userId)))
    .get();
  if (!row) return null;
  const finished = row.status === "done" || row.status === "failed";
  // While it runs the counts come from the rows it has written so far.
  const live = finished
    ? null
    : { ...(await queries.countQueued.get(groupSendId))!, ...(await queries.countSkipped.get(groupSendId))! };
  return {
    id: row.id,
    groupId: row.groupId,
    groupName: row.groupName,
    body: row.body,
    status: row.status,
    finished,
    total: row.total,
    queued: live?.queued ?? row.queued,
    credits: live?.credits ?? row.credits,
    skipped: live?.skipped ?? row.skipped,
    skips: await queries.firstSkips.all(groupSendId, SKIPS_SHOWN),
    stopReason: row.stopReason,
    occurrenceAt: row.occurrenceAt?.getTime() ?? null,
    deferred: await heldByQuietHours(groupSendId),
  };
}

/** One of the user's group sends, with its progress; null when it is not the user's. */
export async function getGroupSendReport(userId: number, groupSendId: number): Promise<GroupSendReport | null> {
  return await reportOf(groupSendId, userId);
}

/** The group send of a scheduled group SMS's latest occurrence so far (the user's only), or null. */
export async function latestScheduledGroupSend(userId: number, scheduleId: number): Promise<GroupSendReport | null> {
  const latest = await queries.latestOfSchedule.get(scheduleId, userId);
  return latest ? await reportOf(latest.id) : null;
}

/**
 * Repairs unfinished sends left behind (run at worker start and every minute): a send whose job is
 * missing from Redis gets it again (the fan-out is safe to repeat); one whose job failed for good is
 * marked failed.
 */
export async function reconcileGroupSends(): Promise<{ enqueued: number; failed: number }> {
  const stale = await getDb()
    .select({ id: groupSends.id })
    .from(groupSends)
    // Spelled like the partial index's condition, so the look-up uses it.
    .where(
      sql`${groupSends.status} in ('queued', 'running') and ${groupSends.updatedAt} < ${clock.now() - GROUP_SEND_STALE_MS}`,
    )
    .limit(1_000)
    .all();
  const report = { enqueued: 0, failed: 0 };
  for (const { id } of stale) {
    const job = await findGroupSendJob(id);
    const state = job ? await job.getState() : "missing";
    if (state === "failed") {
      await finish(id, "failed", job?.failedReason ?? "the fan-out job failed");
      report.failed += 1;
    } else if (state === "missing" || state === "unknown" || state === "completed") {
      await job?.remove();
      await addGroupSendJob(id);
      report.enqueued += 1;
    }
  }
  return report;
}

/** The id of the user's newest group send. */
export async function latestGroupSendId(userId: number): Promise<number | null> {
  return (await queries.latestGroupSend.get(userId))?.id ?? null;
}

/** The user's group sends, newest first, ids below `before`, at most `limit` (keyset pages). */
export async function listGroupSendReportsBefore(
  userId: number,
  options: { before: number; limit: number },
): Promise<GroupSendReport[]> {
  const reports: GroupSendReport[] = [];
  for (const { id } of await queries.groupSendsBefore.all(userId, options.before, options.limit))
    reports.push((await reportOf(id, userId))!);
  return reports;
}
