// The API's answer to an accepted POST /api/v1/messages, for the benchmarks that answer like it.
import { type MessageResource, toMessageResource } from "#app/modules/sms/message-resource.ts";

/** A one-segment GSM-7 message just queued, as the API shows it. */
export function queuedResource(id: number, to: string, body: string, now: number): MessageResource {
  return toMessageResource({
    id,
    to,
    from: null,
    body,
    encoding: "GSM-7",
    segments: 1,
    credits: 1,
    status: "queued",
    statusDetail: null,
    groupSendId: null,
    createdAt: now,
    submittedAt: null,
    doneAt: null,
    updatedAt: now,
  });
}
