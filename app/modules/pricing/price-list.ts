// Browser-safe: the price list by destination prefix, its longest-prefix look-up and its forms.
import { z } from "zod";

/** What a segment costs where the list says nothing (no row, no "*"): today's one rule, 1 credit = 1 segment. */
export const DEFAULT_CREDITS_PER_SEGMENT = 1;
/** The prefix every destination matches, the list's own default. */
export const ANY_DESTINATION = "*";
/** A price over this is a typo (a segment at a thousand credits), refused at the field. */
export const MAX_CREDITS_PER_SEGMENT = 1_000;
/** E.164 numbers have at most 15 digits, so does a prefix. */
const MAX_PREFIX_DIGITS = 15;

export type DestinationPrice = { prefix: string; creditsPerSegment: number };

/** The list ready for look-ups: credits by prefix, and the longest prefix's length (the look-up's first try). */
export type PriceList = { byPrefix: ReadonlyMap<string, number>; longest: number };

export function priceListOf(rows: readonly DestinationPrice[]): PriceList {
  const byPrefix = new Map(rows.map((row) => [row.prefix, row.creditsPerSegment]));
  const longest = Math.max(0, ...rows.map((row) => (row.prefix === ANY_DESTINATION ? 0 : row.prefix.length)));
  return { byPrefix, longest };
}

/** The list's prefix that prices `e164`: its longest matching prefix, else "*" (whether or not the list has a "*" row). */
export function matchingPrefix(list: PriceList, e164: string): string {
  const digits = e164.startsWith("+") ? e164.slice(1) : e164;
  for (let length = Math.min(list.longest, digits.length); length > 0; length--) {
    const prefix = digits.slice(0, length);
    if (list.byPrefix.has(prefix)) return prefix;
  }
  return ANY_DESTINATION;
}

/** Credits per segment to `e164`: the longest matching prefix's, else the "*" row's, else 1. */
export function creditsPerSegmentIn(list: PriceList, e164: string): number {
  return (
    list.byPrefix.get(matchingPrefix(list, e164)) ?? list.byPrefix.get(ANY_DESTINATION) ?? DEFAULT_CREDITS_PER_SEGMENT
  );
}

/** A body's count priced for `e164`: its segments times the destination's credits per segment (the same object when that is what it says). */
export function pricedFor<Count extends { segments: number; credits: number }>(
  count: Count,
  list: PriceList,
  e164: string,
): Count {
  const credits = count.segments * creditsPerSegmentIn(list, e164);
  return credits === count.credits ? count : { ...count, credits };
}

/** True when every destination costs the same per segment (no prefix rows): a group's cost is then members x one price. */
export function isUniform(list: PriceList): boolean {
  return list.longest === 0;
}

/**
 * A prefix as an admin types it ("+44 7700", "44-7700", "*") in the stored form ("447700", "*"),
 * or why it cannot be one.
 */
export function parsePrefix(input: string): { prefix: string } | { error: string } {
  const trimmed = input.trim();
  if (trimmed === ANY_DESTINATION) return { prefix: ANY_DESTINATION };
  const digits = trimmed.replace(/^\+/, "").replace(/[\s-]/g, "");
  if (digits === "") return { error: "Prefix is required: country code and digits, such as +44 7700, or * for all" };
  if (!/^\d+$/.test(digits)) return { error: "A prefix is digits after an optional +, such as +44 7700, or *" };
  if (digits.startsWith("0")) return { error: "A prefix starts with the country code, which never starts with 0" };
  if (digits.length > MAX_PREFIX_DIGITS) return { error: `A prefix has at most ${MAX_PREFIX_DIGITS} digits` };
  return { prefix: digits };
}

/** The prefix as shown: "+447700", or "All other destinations" for "*". */
export function prefixLabel(prefix: string): string {
  return prefix === ANY_DESTINATION ? "All other destinations (*)" : `+${prefix}`;
}

/** Why a credits-per-segment value cannot be one, or null. */
export function creditsError(value: number): string | null {
  if (!Number.isInteger(value)) return "Credits per segment is a whole number";
  if (value < 1) return "Credits per segment is at least 1";
  if (value > MAX_CREDITS_PER_SEGMENT) return `Credits per segment is at most ${MAX_CREDITS_PER_SEGMENT}`;
  return null;
}

const prefixField = z
  .string({ error: "Prefix is required: country code and digits, such as +44 7700, or * for all" })
  .transform((input, ctx) => {
    const parsed = parsePrefix(input);
    if ("prefix" in parsed) return parsed.prefix;
    ctx.addIssue({ code: "custom", message: parsed.error });
    return z.NEVER;
  });

const creditsField = z.coerce.number({ error: "Credits per segment is required" }).superRefine((value, ctx) => {
  const error = creditsError(value);
  if (error) ctx.addIssue({ code: "custom", message: error });
});

/** Add a prefix, or change one's price (the prefix is the key). */
export const PriceFormSchema = z.object({
  intent: z.literal("save"),
  prefix: prefixField,
  creditsPerSegment: creditsField,
});

export const DeletePriceSchema = z.object({ intent: z.literal("delete"), prefix: prefixField });
