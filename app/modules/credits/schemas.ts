import { z } from "zod";

// Browser-safe: the admin's credit adjustment form and the accounts list's URL state.

export const MAX_ADJUSTMENT = 1_000_000;
export const MAX_REASON = 500;
const TOO_MANY = `Amount must be at most ${MAX_ADJUSTMENT.toLocaleString("en-US")} credits`;
const ADJUSTMENT_DIRECTIONS = ["add", "remove"] as const;

export const CreditAdjustmentSchema = z.object({
  direction: z.enum(ADJUSTMENT_DIRECTIONS, { error: "Choose whether to add or remove credits" }),
  // Read as text, so "abc" is told apart from a missing amount.
  amount: z
    .string({ error: "Amount is required" })
    .trim()
    .min(1, "Amount is required")
    .regex(/^[+-]?\d+$/, "Amount must be a whole number of credits")
    .transform(Number)
    // After the regex, only a number too long for a float (Infinity) is not a number.
    .pipe(z.number({ error: TOO_MANY }).min(1, "Amount must be at least 1 credit").max(MAX_ADJUSTMENT, TOO_MANY)),
  reason: z
    .string({ error: "Reason is required" })
    .trim()
    .min(1, "Reason is required")
    .max(MAX_REASON, `Reason must be ${MAX_REASON} characters or fewer`)
    // One line in the ledger: pasted line breaks become spaces.
    .transform((v) => v.replace(/\s+/g, " ")),
  // A random key the screen puts in the form: a double submit books once.
  requestKey: z
    .string({ error: "This form has expired: reload the page and try again" })
    .regex(/^[A-Za-z0-9_-]{16,64}$/, "This form has expired: reload the page and try again"),
});

export const ACCOUNTS_PAGE_SIZE = 20;

/** `?q=&page=`: anything unknown falls back to no search and the first page. */
export const AccountsQuerySchema = z.object({
  q: z
    .string()
    .transform((v) => v.trim().slice(0, 100))
    .catch(""),
  page: z.coerce.number().int().min(1).max(1_000_000).catch(1),
});
export type AccountsQuery = z.infer<typeof AccountsQuerySchema>;

export const LedgerPageSchema = z.object({ page: z.coerce.number().int().min(1).max(1_000_000).catch(1) });
