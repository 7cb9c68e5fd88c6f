// Browser-safe: the message history's filters as they travel in the URL (a GET form), so paging,
// the export link and a bookmark all carry the same search.
import { MESSAGE_STATUSES, type MessageStatus } from "#app/db/enums.ts";

export const DIRECTIONS = ["outbound", "inbound"] as const;
export type Direction = (typeof DIRECTIONS)[number];

/** The form's fields, in the order they appear; every one is a query parameter of the same name. */
export const FILTER_FIELDS = ["direction", "status", "phone", "text", "from", "to", "campaign"] as const;
export type FilterField = (typeof FILTER_FIELDS)[number];

/** What the form shows back: the raw values as typed. */
export type FilterValues = Partial<Record<FilterField, string>>;
export type FilterErrors = Partial<Record<FilterField, string>>;

/** The checked filters the queries use; dates are instants (UTC ms) of local midnights in the user's zone. */
export type HistoryFilters = {
  direction: Direction;
  status?: MessageStatus;
  phone?: string;
  text?: string;
  fromMs?: number;
  /** Exclusive: the local midnight after the "to" date. */
  toMs?: number;
  campaign?: number;
};

/** The shortest "text contains" worth searching for. */
export const TEXT_MIN_LENGTH = 2;
export const TEXT_MAX_LENGTH = 160;

export function isMessageStatus(value: string): value is MessageStatus {
  return (MESSAGE_STATUSES as readonly string[]).includes(value);
}

/** The query string of the filters that are set ("" when none), e.g. "?status=failed&phone=%2B1...". */
export function filterQuery(values: FilterValues, extra: Record<string, string | number> = {}): string {
  const params = new URLSearchParams();
  for (const field of FILTER_FIELDS) {
    const value = values[field];
    if (value && !(field === "direction" && value === "outbound")) params.set(field, value);
  }
  for (const [name, value] of Object.entries(extra)) params.set(name, String(value));
  const query = params.toString();
  return query ? `?${query}` : "";
}

export function hasFilters(values: FilterValues): boolean {
  return filterQuery(values) !== "";
}
