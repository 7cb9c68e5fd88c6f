import { csvStream } from "#app/utils/csv.server.ts";
import { wallTimeAt } from "#app/utils/time-zone.ts";
import type { HistoryFilters } from "#app/modules/sms/history-filters.ts";
import { historyChunks } from "#app/modules/sms/history.server.ts";
import { MESSAGE_STATUS_LABELS } from "#app/modules/messaging/message-status.ts";

const pad = (n: number) => String(n).padStart(2, "0");

/** "2026-11-22 14:05:09" in the zone: what a spreadsheet reads as a date and time. */
export function csvDateTime(value: Date | number, timeZone: string): string {
  const w = wallTimeAt(new Date(value).getTime(), timeZone);
  return `${w.year}-${pad(w.month)}-${pad(w.day)} ${pad(w.hour)}:${pad(w.minute)}:${pad(w.second)}`;
}

/** Every message matching the filters as a CSV stream, times in the user's zone (named in the header). */
export async function historyCsv(
  userId: number,
  filters: HistoryFilters,
  timeZone: string,
): Promise<ReadableStream<Uint8Array>> {
  const next = await historyChunks(userId, filters);
  const header = [
    "Message ID",
    "Direction",
    "Delivery Status",
    "Status Detail",
    "Receiver Phone",
    "Sender",
    "Message Content",
    "Segments",
    "Campaign",
    `Created At (${timeZone})`,
  ];
  return csvStream(header, async () =>
    (await next()).map((m) => [
      m.id,
      m.direction,
      m.status ? MESSAGE_STATUS_LABELS[m.status] : "Received",
      m.error,
      m.toPhone,
      m.fromPhone,
      m.body,
      m.segments,
      m.campaignId,
      csvDateTime(m.createdAt, timeZone),
    ]),
  );
}
