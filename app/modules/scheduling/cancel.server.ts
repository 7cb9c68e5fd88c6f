// Stopping schedules, and deleting a group with its schedules: here, not in contacts, because
// scheduling builds on contacts (group schedules) and never the other way.
import { and, eq } from "drizzle-orm";
import { withTx, type Tx } from "#app/db/client.server.ts";
import { schedules } from "#app/db/schema/scheduling.ts";
import { clock } from "#app/utils/clock.server.ts";
import { log } from "#app/utils/log.server.ts";
import { deleteGroupRow, ownsGroup } from "#app/modules/contacts/groups.server.ts";
import { disarmSchedule } from "#app/modules/scheduling/job-schedulers.server.ts";

/** The columns of a cancelled schedule: no next run, finished now. */
export function cancelledValues(now: Date) {
  return { status: "cancelled" as const, nextRunAt: null, finishedAt: now, updatedAt: now };
}

/**
 * Cancels the user's active schedules to a group, inside the caller's transaction (before the group
 * row goes, while group_id still finds them). Returns their ids for disarmSchedules.
 */
async function cancelGroupSchedules(tx: Tx, userId: number, groupId: number, now: Date): Promise<number[]> {
  return (
    await tx
      .update(schedules)
      .set(cancelledValues(now))
      .where(and(eq(schedules.userId, userId), eq(schedules.groupId, groupId), eq(schedules.status, "active")))
      .returning({ id: schedules.id })
      .all()
  ).map((row) => row.id);
}

/** Removes the job schedulers of schedules that are no longer active; Redis trouble is left to the reconciler. */
export async function disarmSchedules(ids: number[]): Promise<void> {
  try {
    await Promise.all(ids.map((id) => disarmSchedule(id)));
  } catch (error) {
    // Their occurrences check the status first, and the reconciler removes the orphans.
    log("error", "scheduling", `could not remove the job schedulers of schedules ${ids.join(", ")}`, error);
  }
}

/**
 * Deletes the group and its memberships; its contacts stay, and its scheduled SMS are cancelled
 * (they stay in the Scheduled SMS list, to "a deleted group"). False when not the user's.
 */
export async function deleteGroup(userId: number, groupId: number): Promise<boolean> {
  const cancelled = await withTx(async (tx) => {
    if (!(await ownsGroup(tx, userId, groupId))) return null;
    const ids = await cancelGroupSchedules(tx, userId, groupId, clock.date());
    await deleteGroupRow(tx, userId, groupId);
    return ids;
  });
  if (cancelled === null) return false;
  await disarmSchedules(cancelled);
  return true;
}
