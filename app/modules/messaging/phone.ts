// Browser-safe: forms validate phone numbers with these in the browser and on the server.
import { type CountryCode, parsePhoneNumberFromString } from "libphonenumber-js";
import { z } from "zod";

export type { CountryCode };

// What people type: digits, spaces, dots, dashes, slashes, brackets and one leading plus.
const PHONE_CHARACTERS = /^\+?[\d\s().\-/]+$/;
const E164 = /^\+[1-9]\d{6,14}$/;

export type PhoneResult = { ok: true; e164: string } | { ok: false; error: string };

/**
 * Reads an international (+44 ...) or local number (read as `defaultCountry`) and returns it in
 * E.164. The error names the number, so a list of numbers says which one is wrong.
 */
export function normalizePhone(input: string, defaultCountry: CountryCode): PhoneResult {
  const raw = input.trim();
  const invalid = { ok: false as const, error: `"${raw}" is not a valid phone number` };
  if (!PHONE_CHARACTERS.test(raw)) return invalid;
  const parsed = parsePhoneNumberFromString(raw, defaultCountry);
  if (!parsed || !parsed.isValid() || !E164.test(parsed.number)) return invalid;
  return { ok: true, e164: parsed.number };
}

export function isE164(value: string): boolean {
  return E164.test(value);
}

/** A required phone number field that yields E.164. */
export function phoneField(defaultCountry: CountryCode) {
  return z
    .string({ error: "Phone number is required" })
    .trim()
    .min(1, "Phone number is required")
    .max(40, "Phone number is too long")
    .transform((value, ctx) => {
      const result = normalizePhone(value, defaultCountry);
      if (result.ok) return result.e164;
      ctx.addIssue({ code: "custom", message: result.error });
      return z.NEVER;
    });
}
