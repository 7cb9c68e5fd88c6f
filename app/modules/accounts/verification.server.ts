import { eq } from "drizzle-orm";
import { getDb, withTx, type Tx } from "#app/db/client.server.ts";
import { users } from "#app/db/schema/core.ts";
import { getEnv } from "#app/utils/env.server.ts";
import { hit, type Limit } from "#app/utils/rate-limit.server.ts";
import { verificationMail } from "#app/modules/accounts/mails.server.ts";
import { deadLinkMessage, issueLink, readToken, useToken } from "#app/modules/accounts/tokens.server.ts";
import { VERIFY_BEFORE, verifyFirstMessage } from "#app/modules/accounts/verify-first.ts";
import { queueMail } from "#app/modules/mail/outbox.server.ts";

export const EMAIL_UNVERIFIED_MESSAGE = verifyFirstMessage(VERIFY_BEFORE.sending);

const resendLimit: Limit = { name: "verification-resend", limit: 5, windowMs: 60 * 60 * 1000 };

/** Writes the verification link and its e-mail inside the caller's transaction (sign-up). */
export async function startEmailVerification(
  tx: Tx,
  user: { id: number; email: string; fullName: string },
): Promise<void> {
  const secret = await issueLink(tx, user.id, "email_verification");
  await queueMail(tx, {
    userId: user.id,
    kind: "email_verification",
    to: user.email,
    ...verificationMail(user.fullName, secret.link),
    secret,
  });
}

// Verified stays verified, so a yes is remembered and the send paths ask SQLite once per account.
const verified = new Set<number>();

/**
 * Whether this account may not act yet (send SMS, make API keys or webhook endpoints, turn on
 * two-factor, request sender IDs): verification is required and its link not opened.
 */
export async function mustVerifyEmail(userId: number): Promise<boolean> {
  if (!getEnv().requireEmailVerification || verified.has(userId)) return false;
  const row = await getDb()
    .select({ emailVerified: users.emailVerified })
    .from(users)
    .where(eq(users.id, userId))
    .get();
  if (row?.emailVerified) verified.add(userId);
  return row !== undefined && !row.emailVerified;
}

export type ResendResult = { status: "sent" | "already_verified" } | { status: "limited"; error: string };

/** A new link (the older ones stop working), at most five an hour. */
export async function resendVerification(userId: number): Promise<ResendResult> {
  const user = await getDb()
    .select({ id: users.id, email: users.email, fullName: users.fullName, emailVerified: users.emailVerified })
    .from(users)
    .where(eq(users.id, userId))
    .get();
  if (!user || user.emailVerified) return { status: "already_verified" };
  const limit = await hit(resendLimit, String(userId));
  if (!limit.allowed) {
    const minutes = Math.ceil(limit.retryAfterSeconds / 60);
    return {
      status: "limited",
      error: `Too many links asked for. Please try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`,
    };
  }
  await withTx((tx) => startEmailVerification(tx, user));
  return { status: "sent" };
}

export type VerifyResult = { ok: true; userId: number } | { ok: false; error: string };

/** Opens a verification link: the account may send from now on. */
export async function verifyEmail(token: string): Promise<VerifyResult> {
  return await withTx(async (tx) => {
    const state = await readToken(tx, "email_verification", token);
    if (state.status !== "valid") return { ok: false, error: deadLinkMessage(state.status, "verification") };
    await useToken(tx, "email_verification", state.userId);
    await tx.update(users).set({ emailVerified: true }).where(eq(users.id, state.userId)).run();
    return { ok: true, userId: state.userId };
  });
}
