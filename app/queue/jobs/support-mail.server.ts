// Support and contact requests e-mailed to SUPPORT_EMAIL: one job per support_requests row, which is the record.
import { z } from "zod";
import { getQueue, queueForRequest } from "#app/queue/queues.server.ts";
import { originRequest } from "#app/utils/log.server.ts";

export const SUPPORT_MAIL_QUEUE = "support-mail";

/** E-mail one saved support request to SUPPORT_EMAIL; the row, not the job, is the record. */
export const SupportMailPayload = z.object({ v: z.literal(1), requestId: z.number().int().positive() });
export type SupportMailPayload = z.infer<typeof SupportMailPayload>;

/** The periodic sweep that re-enqueues support requests whose e-mail has not gone out. */
export const SupportMailReconcilePayload = z.object({ v: z.literal(1) });

// With the defaults: 10 s, 20 s, 40 s ... up to one hour between tries, about two days in all;
// after that the reconciler starts the series again, so a request is retried until it goes out.
const SUPPORT_MAIL_ATTEMPTS = 50;

export const supportMailJobId = (requestId: number) => `support-mail-${requestId}`;

function supportMailJob(requestId: number) {
  const data: SupportMailPayload = { v: 1, requestId };
  return {
    name: "deliver",
    data,
    opts: {
      // One live job per request: adding it again while it waits or retries changes nothing.
      jobId: supportMailJobId(requestId),
      attempts: SUPPORT_MAIL_ATTEMPTS,
      // A custom type: the support-mail worker's backoffStrategy computes the capped delay.
      backoff: { type: "capped-exponential" },
      removeOnComplete: true,
      // A job that ran out of attempts is dropped so the reconciler can add it afresh.
      removeOnFail: true,
    },
  };
}

/** The job of a request just saved, carrying the request's id for the logs; throws at once while Redis is down. */
export async function addSupportMailJob(requestId: number): Promise<void> {
  const job = supportMailJob(requestId);
  await queueForRequest(SUPPORT_MAIL_QUEUE).add(job.name, { ...job.data, ...originRequest() }, job.opts);
}

export async function addSupportMailJobs(requestIds: number[]): Promise<void> {
  await getQueue(SUPPORT_MAIL_QUEUE).addBulk(requestIds.map(supportMailJob));
}
