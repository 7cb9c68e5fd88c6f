// group_send.completed: a group send is complete once its fan-out has finished and every message it
// queued has a final status. Checked inside the transaction that could complete it (the fan-out's end,
// a group message's final status); the conditional UPDATE of completed_at makes the event once only
// (docs/decisions/096-group-send-completed.md).
import { statement } from "#app/db/statements.server.ts";
import { type GroupSendCompletion, noteGroupSendCompleted } from "#app/modules/webhooks/account-events.server.ts";

const selectFinishedOpen = statement<[number], { userId: number }>(
  "select user_id as userId from group_sends where id = ? and status in ('done', 'failed') and completed_at is null",
);
// Spelled like sms_messages_group_send_unfinished_idx's condition, so the look-up is one index probe.
const anyUnfinished = statement<[number], { one: number }>(
  `select 1 as one from sms_messages where group_send_id = ? and group_send_id is not null
   and status not in ('delivered', 'undelivered', 'expired', 'rejected', 'failed') limit 1`,
);
const markCompleted = statement(
  "update group_sends set completed_at = ? where id = ? and completed_at is null and status in ('done', 'failed')",
);
const selectCounts = statement<[number], Omit<GroupSendCompletion, "id">>(
  `select g.group_id as groupId, g.total, g.queued, g.skipped,
     (select count(*) from sms_messages m where m.user_id = g.user_id and m.group_send_id = g.id and m.submitted_at is not null) as sent,
     (select count(*) from sms_messages m where m.user_id = g.user_id and m.group_send_id = g.id and m.status = 'delivered') as delivered,
     (select count(*) from sms_messages m where m.user_id = g.user_id and m.group_send_id = g.id and m.status <> 'delivered') as failed
   from group_sends g where g.id = ?`,
);

/** Marks the group send complete (and records its event) when it now is; call inside the transaction of the change. */
export function completeGroupSendIfDone(groupSendId: number, now: number): void {
  const open = selectFinishedOpen().get(groupSendId);
  if (!open || anyUnfinished().get(groupSendId)) return;
  if (markCompleted().run(now, groupSendId).changes === 0) return;
  noteGroupSendCompleted(open.userId, () => ({ id: groupSendId, ...selectCounts().get(groupSendId)! }), now);
}
