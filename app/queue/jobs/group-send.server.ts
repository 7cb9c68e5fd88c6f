// A group send's fan-out: one job per group_sends row, which holds the message and how far it got.
import { z } from "zod";
import { getQueue, queueForRequest } from "#app/queue/queues.server.ts";
import { originRequest } from "#app/utils/log.server.ts";

export const GROUP_SEND_QUEUE = "group-send";

/** Fan out one group send: its row holds the message, the group and how far it got. */
export const GroupSendPayload = z.object({ v: z.literal(1), groupSendId: z.number().int().positive() });
export type GroupSendPayload = z.infer<typeof GroupSendPayload>;

export const GroupSendReconcilePayload = z.object({ v: z.literal(1) });

function groupSendJobId(groupSendId: number): string {
  return `group-send-${groupSendId}`;
}

/** The group send's fan-out job while Redis keeps it (waiting, running, finished or failed). */
export function findGroupSendJob(groupSendId: number) {
  return getQueue(GROUP_SEND_QUEUE).getJob(groupSendJobId(groupSendId));
}

/** The fan-out job of a group send, carrying the request's id for the logs; throws at once while Redis is down. */
export async function addGroupSendJob(groupSendId: number): Promise<void> {
  const data: GroupSendPayload = { v: 1, groupSendId };
  await queueForRequest(GROUP_SEND_QUEUE).add(
    "fan-out",
    { ...data, ...originRequest() },
    {
      jobId: groupSendJobId(groupSendId),
      attempts: 5,
      backoff: { type: "exponential", delay: 1_000 },
      removeOnComplete: true,
      removeOnFail: { age: 7 * 24 * 3600 },
    },
  );
}
