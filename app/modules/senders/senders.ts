// Browser-safe: what a sender address may look like, and the SMPP TON/NPI each kind goes out with.
import { z } from "zod";
import { SENDER_KINDS, SENDER_STATUSES, type SenderKind, type SenderStatus } from "#app/db/enums.ts";

export { SENDER_KINDS, SENDER_STATUSES, type SenderKind, type SenderStatus };

export const SENDER_KIND_LABELS: Record<SenderKind, string> = {
  alphanumeric: "Alphanumeric ID",
  long_number: "Long number",
  short_code: "Short code",
};

// GSM 03.38 networks accept up to 11 characters; letters, digits, space and a few marks carry everywhere.
const ALPHANUMERIC = /^(?=.*[A-Za-z])[A-Za-z0-9 .\-&_]{1,11}$/;
const LONG_NUMBER = /^\+[1-9]\d{6,14}$/;
const SHORT_CODE = /^\d{3,8}$/;

/** The SMPP source_addr_ton / source_addr_npi a kind goes out with unless the admin sets others. */
export const DEFAULT_TON_NPI: Record<SenderKind, { ton: number; npi: number }> = {
  alphanumeric: { ton: 5, npi: 0 },
  long_number: { ton: 1, npi: 1 },
  short_code: { ton: 3, npi: 0 },
};

/** The kind an address looks like: "+" and digits a long number, digits alone a short code. */
export function kindOfAddress(address: string): SenderKind {
  if (/^\+\d+$/.test(address)) return "long_number";
  return /^\d+$/.test(address) ? "short_code" : "alphanumeric";
}

/** Why `address` is not a valid sender of `kind`, or null when it is. */
export function senderAddressError(kind: SenderKind, address: string): string | null {
  if (kind === "alphanumeric")
    return ALPHANUMERIC.test(address)
      ? null
      : "An alphanumeric ID has 1 to 11 letters, digits, spaces or . - & _, with at least one letter";
  if (kind === "long_number")
    return LONG_NUMBER.test(address) ? null : "A long number is in international format, e.g. +447700900123";
  return SHORT_CODE.test(address) ? null : "A short code has 3 to 8 digits";
}

/** A request for an alphanumeric sender ID (the customer's form). */
export const senderRequestSchema = z.object({
  intent: z.literal("request"),
  address: z
    .string({ error: "Sender ID is required" })
    .trim()
    .min(1, "Sender ID is required")
    .superRefine((value, ctx) => {
      const error = senderAddressError("alphanumeric", value);
      if (error) ctx.addIssue({ code: "custom", message: error });
    }),
});
