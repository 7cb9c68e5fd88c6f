import { hash, randomBytes } from "node:crypto";
import { and, eq, isNull } from "drizzle-orm";
import type { Executor, Tx } from "#app/db/client.server.ts";
import { type AccountTokenPurpose, accountTokens } from "#app/db/schema/accounts.ts";
import { clock } from "#app/utils/clock.server.ts";
import { getEnv } from "#app/utils/env.server.ts";
import { removeMailLinks } from "#app/modules/mail/outbox.server.ts";

const HOUR = 60 * 60 * 1000;

/** How long each link works after it is sent. */
const TOKEN_LIFETIMES: Record<AccountTokenPurpose, number> = {
  password_reset: HOUR,
  email_verification: 7 * 24 * HOUR,
  email_change: 24 * HOUR,
};

// The paths the links open; the domain builds them itself (a domain module imports no router).
const LINK_PATHS: Record<AccountTokenPurpose, string> = {
  password_reset: "/reset-password/",
  email_verification: "/verify-email/",
  email_change: "/account/confirm-email/",
};

const hashToken = (token: string) => hash("sha256", token, "base64url");

/** The absolute link an e-mail carries for `token`. */
function tokenLink(purpose: AccountTokenPurpose, token: string): string {
  return `${getEnv().appUrl}${LINK_PATHS[purpose]}${token}`;
}

// Whether a new link voids the older ones. Not for resets: anyone may ask for one, so a new request
// must never break the link already in the owner's inbox (the one used voids the rest).
const ONLY_NEWEST: Record<AccountTokenPurpose, boolean> = {
  password_reset: false,
  email_verification: true,
  email_change: true,
};

/** Makes the account's unused links of `purpose` stop working, inside the caller's transaction. */
async function voidTokens(tx: Tx, userId: number, purpose: AccountTokenPurpose): Promise<void> {
  await tx
    .update(accountTokens)
    .set({ usedAt: clock.date() })
    .where(and(eq(accountTokens.userId, userId), eq(accountTokens.purpose, purpose), isNull(accountTokens.usedAt)))
    .run();
}

/**
 * Makes a new link for the account inside the caller's transaction and returns its token; for a
 * verification or an e-mail change the unused older links stop working, so only the newest e-mail counts.
 */
export async function issueToken(
  tx: Tx,
  userId: number,
  purpose: AccountTokenPurpose,
  newEmail?: string,
): Promise<string> {
  const token = randomBytes(32).toString("base64url");
  const now = clock.now();
  if (ONLY_NEWEST[purpose]) await voidTokens(tx, userId, purpose);
  await tx
    .insert(accountTokens)
    .values({
      userId,
      purpose,
      tokenHash: hashToken(token),
      newEmail: newEmail ?? null,
      createdAt: new Date(now),
      expiresAt: new Date(now + TOKEN_LIFETIMES[purpose]),
    })
    .run();
  return token;
}

/** issueToken, as the link its e-mail carries and when that stops working (a mail's `secret`). */
export async function issueLink(
  tx: Tx,
  userId: number,
  purpose: AccountTokenPurpose,
  newEmail?: string,
): Promise<{ link: string; expiresAt: Date }> {
  const token = await issueToken(tx, userId, purpose, newEmail);
  return { link: tokenLink(purpose, token), expiresAt: new Date(clock.now() + TOKEN_LIFETIMES[purpose]) };
}

export type TokenState =
  { status: "valid"; id: number; userId: number; newEmail: string | null } | { status: "used" | "expired" | "unknown" };

/** What a link is worth now, read through `ex` (pass the transaction that will use it). */
export async function readToken(ex: Executor, purpose: AccountTokenPurpose, token: string): Promise<TokenState> {
  if (!/^[A-Za-z0-9_-]{43}$/.test(token)) return { status: "unknown" };
  const row = await ex
    .select()
    .from(accountTokens)
    .where(and(eq(accountTokens.tokenHash, hashToken(token)), eq(accountTokens.purpose, purpose)))
    .get();
  if (!row) return { status: "unknown" };
  if (row.usedAt) return { status: "used" };
  if (row.expiresAt.getTime() <= clock.now()) return { status: "expired" };
  return { status: "valid", id: row.id, userId: row.userId, newEmail: row.newEmail };
}

/**
 * Uses a valid link inside the caller's transaction: it, and every other unused link of its
 * purpose for the account, opens nothing from now on, and their mails no longer hold them.
 */
export async function useToken(tx: Tx, purpose: AccountTokenPurpose, userId: number): Promise<void> {
  await voidTokens(tx, userId, purpose);
  await removeMailLinks(tx, userId, purpose);
}

/** The message a person sees for a link that no longer works. */
export function deadLinkMessage(state: "used" | "expired" | "unknown", what: string): string {
  if (state === "used") return `This ${what} link has already been used. Please ask for a new one.`;
  if (state === "expired") return `This ${what} link has expired. Please ask for a new one.`;
  return `This ${what} link is not valid. Please check that you copied it whole, or ask for a new one.`;
}
