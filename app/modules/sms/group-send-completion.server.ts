// group_send.completed: a group send is complete once its fan-out has finished and every message it
// queued has a final status. Checked inside the transaction that could complete it (the fan-out's end,
// a group message's final status); the conditional UPDATE of completed_at makes the event once only
// (docs/decisions/096-group-send-completed.md).
import { inSharedTurn } from "#app/db/client.server.ts";
import { sqlText, statements } from "#app/db/statements.server.ts";
import { type GroupSendCompletion, noteGroupSendCompleted } from "#app/modules/webhooks/account-events.server.ts";

// The key space of a group send's completion lock (the two-integer form): "smgs" in ASCII.
const GROUP_SEND_LOCKS = 0x736d6773;

const queries = statements({
  // The sends' completion locks, in id order, for a transaction that took the message-state turn shared
  // (decision 143, PostgreSQL): it checks a send only after any other one finishing its messages has
  // committed, so of two finishing a send's last two messages at once the second sees the first's.
  // SQLite never runs it (one writer).
  lockSends: sqlText<[string]>({
    sqlite: `select ? where 0`,
    postgres: `select pg_advisory_xact_lock(${GROUP_SEND_LOCKS}, (id % 2147483648)::int)
   from (select distinct value::bigint as id from jsonb_array_elements_text($1::jsonb) order by id) keys`,
  }),
  // Open, fan-out finished and no message unfinished, in one statement for the batch's sends; only the
  // UPDATE that changes a row completes it. The probe is spelled like sms_messages_group_send_unfinished_idx's
  // condition, so it is one index probe per send. PostgreSQL: id = any($2::bigint[]) in place of jsonb_each.
  markCompleted: sqlText<[number, string], { id: number; userId: number }>({
    sqlite: `update group_sends set completed_at = ?
   where id in (select value from jsonb_each(?)) and completed_at is null and status in ('done', 'failed')
     and not exists (select 1 from sms_messages m where m.group_send_id = group_sends.id and m.group_send_id is not null
       and m.status not in ('delivered', 'undelivered', 'expired', 'rejected', 'failed'))
   returning id, user_id as userId`,
    postgres: `update group_sends set completed_at = $1
   where id = any(array(select value::bigint from jsonb_array_elements_text($2::jsonb))) and completed_at is null and status in ('done', 'failed')
     and not exists (select 1 from sms_messages m where m.group_send_id = group_sends.id and m.group_send_id is not null
       and m.status not in ('delivered', 'undelivered', 'expired', 'rejected', 'failed'))
   returning id, user_id as "userId"`,
  }),
  counts: sqlText<[number], Omit<GroupSendCompletion, "id">>(
    `select g.group_id as groupId, g.total, g.queued, g.skipped,
     (select count(*) from sms_messages m where m.user_id = g.user_id and m.group_send_id = g.id and m.submitted_at is not null) as sent,
     (select count(*) from sms_messages m where m.user_id = g.user_id and m.group_send_id = g.id and m.status = 'delivered') as delivered,
     (select count(*) from sms_messages m where m.user_id = g.user_id and m.group_send_id = g.id and m.status <> 'delivered') as failed
   from group_sends g where g.id = ?`,
  ),
});

/** Marks each group send complete (and records its event) that now is; call inside the transaction of the change. */
export async function completeGroupSendsIfDone(groupSendIds: number[], now: number): Promise<void> {
  if (groupSendIds.length === 0) return;
  const ids = JSON.stringify([...new Set(groupSendIds)]);
  if (inSharedTurn()) await queries.lockSends.run(ids);
  for (const { id, userId } of await queries.markCompleted.all(now, ids))
    await noteGroupSendCompleted(userId, async () => ({ id, ...(await queries.counts.get(id))! }), now);
}

/** completeGroupSendsIfDone for one group send. */
export async function completeGroupSendIfDone(groupSendId: number, now: number): Promise<void> {
  await completeGroupSendsIfDone([groupSendId], now);
}
