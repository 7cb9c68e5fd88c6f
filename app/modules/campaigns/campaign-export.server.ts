import { csvStream } from "#app/utils/csv.server.ts";
import { campaignRecipientChunks } from "#app/modules/campaigns/campaigns.server.ts";
import { csvDateTime } from "#app/modules/sms/history-export.server.ts";
import { MESSAGE_STATUS_LABELS } from "#app/modules/messaging/message-status.ts";

/** The campaign's recipients as a CSV stream (messages, then skipped members); null when not the user's. */
export async function campaignCsv(
  userId: number,
  campaignId: number,
  timeZone: string,
): Promise<ReadableStream<Uint8Array> | null> {
  const next = await campaignRecipientChunks(userId, campaignId);
  if (!next) return null;
  const header = [
    "Message ID",
    "Contact",
    "Phone",
    "Delivery Status",
    "Status Detail",
    `Queued At (${timeZone})`,
    `Final At (${timeZone})`,
  ];
  return csvStream(header, async () =>
    (await next()).map((r) => [
      r.id,
      r.name,
      r.phone,
      r.status === "skipped" ? "Skipped" : MESSAGE_STATUS_LABELS[r.status],
      r.error,
      r.createdAt ? csvDateTime(r.createdAt, timeZone) : null,
      r.doneAt ? csvDateTime(r.doneAt, timeZone) : null,
    ]),
  );
}
