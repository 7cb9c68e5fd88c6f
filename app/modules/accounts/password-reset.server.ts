import { eq } from "drizzle-orm";
import { getDb, withTx } from "#app/db/client.server.ts";
import { sessions, users } from "#app/db/schema/core.ts";
import { clientNetwork } from "#app/utils/http.server.ts";
import { hit, type Limit } from "#app/utils/rate-limit.server.ts";
import { passwordResetMail } from "#app/modules/accounts/mails.server.ts";
import { deadLinkMessage, issueLink, readToken, useToken } from "#app/modules/accounts/tokens.server.ts";
import { deleteAllApiKeys } from "#app/modules/api-keys/keys.server.ts";
import { forgetAccountFailures } from "#app/modules/auth/account-waits.server.ts";
import { hashPassword } from "#app/modules/auth/password.server.ts";
import { removeTwoFactor } from "#app/modules/auth/two-factor.server.ts";
import { queueMail } from "#app/modules/mail/outbox.server.ts";
import { withdrawPendingSenderRequests } from "#app/modules/senders/senders.server.ts";
import { deleteAllEndpoints } from "#app/modules/webhooks/endpoints.server.ts";
import { forgetSubscriptions } from "#app/modules/webhooks/subscriptions.server.ts";

const HOUR = 60 * 60 * 1000;
// Per address against scanning, per account against flooding someone's inbox.
const perIp: Limit = { name: "reset-ip", limit: 10, windowMs: HOUR };
const perEmail: Limit = { name: "reset-email", limit: 3, windowMs: HOUR };

export const RESET_REQUESTED =
  "If an account uses that address, we have e-mailed it a link to choose a new password. The link works for one hour.";

export type ResetRequestResult = { ok: true } | { ok: false; error: string; retryAfterSeconds: number };

const inMinutes = (seconds: number) => {
  const minutes = Math.ceil(seconds / 60);
  return `${minutes} minute${minutes === 1 ? "" : "s"}`;
};

// The limit only stops more mails: the links already sent keep working (a new request voids none).
const LIMIT_MESSAGES = {
  [perIp.name]: (wait: string) => `Too many reset requests. Please try again in ${wait}.`,
  [perEmail.name]: (wait: string) =>
    `Too many reset requests for this address. If an account uses it, the links we have already e-mailed it work for one hour each: please use one of them, or try again in ${wait}.`,
};

/**
 * E-mails a reset link when the address has an account. The answer is the same either way (and
 * costs the same: no mail server is waited for), so it tells nobody which addresses have accounts.
 */
export async function requestPasswordReset(request: Request, email: string): Promise<ResetRequestResult> {
  for (const [limit, id] of [
    [perIp, clientNetwork(request)],
    [perEmail, email],
  ] as const) {
    const state = await hit(limit, id);
    if (!state.allowed) {
      const error = LIMIT_MESSAGES[limit.name](inMinutes(state.retryAfterSeconds));
      return { ok: false, retryAfterSeconds: state.retryAfterSeconds, error };
    }
  }
  await withTx(async (tx) => {
    const user = await tx.select({ id: users.id, email: users.email }).from(users).where(eq(users.email, email)).get();
    if (!user) return;
    const secret = await issueLink(tx, user.id, "password_reset");
    await queueMail(tx, {
      userId: user.id,
      kind: "password_reset",
      to: user.email,
      ...passwordResetMail(secret.link),
      secret,
    });
  });
  return { ok: true };
}

export type ResetLinkState = { refusal: string } | { refusal: null; firstProof: boolean };

/**
 * What the reset page shows for a link: why it does not work, or whether using it is the first
 * proof of the address (then everything made before it is revoked anyway).
 */
export async function resetLinkState(token: string): Promise<ResetLinkState> {
  const state = await readToken(getDb(), "password_reset", token);
  if (state.status !== "valid") return { refusal: deadLinkMessage(state.status, "reset") };
  const user = await getDb()
    .select({ emailVerified: users.emailVerified })
    .from(users)
    .where(eq(users.id, state.userId))
    .get();
  return { refusal: null, firstProof: !user?.emailVerified };
}

export type ResetResult =
  { ok: true; revoked: { apiKeys: number; endpoints: number } | null } | { ok: false; error: string };

type ResetOptions = {
  /** The person asked for every API key and webhook endpoint to go (the reset form's checkbox). */
  revokeAccess: boolean;
  /** The API's key cache (a layer above): told which deleted keys to stop accepting at once. */
  forgetApiKeys: (userId: number, hashes: string[]) => Promise<void>;
};

/**
 * Sets the new password through a reset link, once; every session of the account ends. When the link
 * is the first proof of the address (the account was never verified), whoever made the account may not
 * have owned the address: every API key, webhook endpoint and the statusCallback secret go too, as
 * they do when the person asks for it, and so do two-factor and sender requests still waiting. Any reset
 * ends the account's sign-in wait (decision 108).
 */
export async function resetPassword(token: string, password: string, options: ResetOptions): Promise<ResetResult> {
  const passwordHash = await hashPassword(password);
  const result = await withTx(async (tx) => {
    // Read again inside the transaction: of two posts of one link, one wins.
    const state = await readToken(tx, "password_reset", token);
    if (state.status !== "valid") return { ok: false as const, error: deadLinkMessage(state.status, "reset") };
    const { userId } = state;
    const { email, emailVerified } = (await tx
      .select({ email: users.email, emailVerified: users.emailVerified })
      .from(users)
      .where(eq(users.id, userId))
      .get())!;
    await useToken(tx, "password_reset", userId);
    // The link proves the address too.
    await tx.update(users).set({ passwordHash, emailVerified: true }).where(eq(users.id, userId)).run();
    await tx.delete(sessions).where(eq(sessions.userId, userId)).run();
    // The owner proved the address: a wait that failed guesses put on the account no longer holds them back.
    await forgetAccountFailures(tx, email);
    if (!emailVerified) {
      // Made before anyone proved the address: a second factor would lock the owner out, a request is not theirs.
      await removeTwoFactor(tx, userId);
      await withdrawPendingSenderRequests(tx, userId);
    }
    if (emailVerified && !options.revokeAccess) return { ok: true as const, userId, keyHashes: [], endpoints: null };
    return {
      ok: true as const,
      userId,
      keyHashes: await deleteAllApiKeys(tx, userId),
      endpoints: await deleteAllEndpoints(tx, userId),
    };
  });
  if (!result.ok) return result;
  if (result.endpoints === null) return { ok: true, revoked: null };
  forgetSubscriptions();
  await options.forgetApiKeys(result.userId, result.keyHashes);
  return { ok: true, revoked: { apiKeys: result.keyHashes.length, endpoints: result.endpoints } };
}
