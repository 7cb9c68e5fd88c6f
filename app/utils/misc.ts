export function formatDollars(cents: number): string {
  return `$${(cents / 100).toFixed(2)}`;
}

// Made once: constructing a NumberFormat costs microseconds, and the send path formats a count per batch.
const numberFormat = new Intl.NumberFormat("en-US");

export function formatNumber(n: number): string {
  return numberFormat.format(n);
}

/** A date in the given IANA zone, e.g. "2026-11-22 14:05" (with `seconds`, "2026-11-22 14:05:09"). */
export function formatDateTime(value: Date | number | string, timeZone = "UTC", { seconds = false } = {}): string {
  const date = new Date(value);
  const parts = new Intl.DateTimeFormat("en-CA", {
    timeZone,
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    ...(seconds && { second: "2-digit" }),
    hourCycle: "h23",
  }).formatToParts(date);
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? "";
  const time = `${get("hour")}:${get("minute")}${seconds ? `:${get("second")}` : ""}`;
  return `${get("year")}-${get("month")}-${get("day")} ${time}`;
}

export function pluralize(n: number, one: string, many = `${one}s`): string {
  return `${formatNumber(n)} ${n === 1 ? one : many}`;
}

/** Pages for `total` rows, and the requested page kept within them (a page past the end gives the last). */
export function pageWindow(total: number, requested: number, size: number) {
  const totalPages = Math.max(1, Math.ceil(total / size));
  const page = Math.min(Math.max(1, Math.trunc(requested) || 1), totalPages);
  return { page, totalPages, offset: (page - 1) * size };
}
