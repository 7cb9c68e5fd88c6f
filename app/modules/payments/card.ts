import { z } from "zod";

// Browser-safe: the offline test-card form. The browser checks it for quick feedback; the server
// checks it again against its own clock.

export const TEST_CARDS = [
  { number: "4242 4242 4242 4242", outcome: "succeeds" },
  { number: "4000 0000 0000 0002", outcome: "is declined" },
  { number: "4000 0000 0000 9995", outcome: "is declined for insufficient funds" },
] as const;

const digitsOnly = (value: string) => value.replace(/[\s-]/g, "");

export function passesLuhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

/** "MM/YY" or "MM / YYYY" to the month it ends in, or null. */
export function parseExpiry(value: string): { month: number; year: number } | null {
  const match = /^(\d{1,2})\s*\/\s*(\d{2}|\d{4})$/.exec(value.trim());
  if (!match) return null;
  const month = Number(match[1]);
  const year = match[2].length === 2 ? 2000 + Number(match[2]) : Number(match[2]);
  return month >= 1 && month <= 12 ? { month, year } : null;
}

/** A card is valid through the last day of its expiry month. */
export function isExpired(expiry: { month: number; year: number }, now: Date): boolean {
  return expiry.year * 12 + expiry.month < now.getUTCFullYear() * 12 + now.getUTCMonth() + 1;
}

export function cardSchema(now: () => Date) {
  return z.object({
    cardNumber: z
      .string({ error: "Enter your card number" })
      .transform(digitsOnly)
      .pipe(
        z
          .string()
          .regex(/^\d{12,19}$/, "Your card number is incomplete.")
          .refine(passesLuhn, "Your card number is invalid."),
      ),
    expiry: z.string({ error: "Enter the expiry date" }).transform((value, ctx) => {
      const expiry = parseExpiry(value);
      if (!expiry) {
        ctx.addIssue({ code: "custom", message: "Enter the expiry as MM/YY" });
        return z.NEVER;
      }
      if (isExpired(expiry, now())) {
        ctx.addIssue({ code: "custom", message: "Your card's expiration date is in the past." });
        return z.NEVER;
      }
      return expiry;
    }),
    cvc: z
      .string({ error: "Enter the CVC" })
      .trim()
      .regex(/^\d{3,4}$/, "Your card's security code is incomplete."),
  });
}
