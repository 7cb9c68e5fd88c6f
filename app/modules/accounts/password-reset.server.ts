import { eq } from "drizzle-orm";
import { getDb, inTransaction } from "#app/db/client.server.ts";
import { sessions, users } from "#app/db/schema/core.ts";
import { clientNetwork } from "#app/utils/http.server.ts";
import { hit, type Limit } from "#app/utils/rate-limit.server.ts";
import { passwordResetMail } from "#app/modules/accounts/mails.server.ts";
import { deadLinkMessage, issueToken, readToken, tokenLink, useToken } from "#app/modules/accounts/tokens.server.ts";
import { hashPassword } from "#app/modules/auth/password.server.ts";
import { queueMail } from "#app/modules/mail/outbox.server.ts";

const HOUR = 60 * 60 * 1000;
// Per address against scanning, per account against flooding someone's inbox.
const perIp: Limit = { name: "reset-ip", limit: 10, windowMs: HOUR };
const perEmail: Limit = { name: "reset-email", limit: 3, windowMs: HOUR };

export const RESET_REQUESTED =
  "If an account uses that address, we have e-mailed it a link to choose a new password. The link works for one hour.";

export type ResetRequestResult = { ok: true } | { ok: false; error: string; retryAfterSeconds: number };

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
      const minutes = Math.ceil(state.retryAfterSeconds / 60);
      return {
        ok: false,
        retryAfterSeconds: state.retryAfterSeconds,
        error: `Too many reset requests. Please try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`,
      };
    }
  }
  inTransaction((tx) => {
    const user = tx.select({ id: users.id, email: users.email }).from(users).where(eq(users.email, email)).get();
    if (!user) return;
    const token = issueToken(tx, user.id, "password_reset");
    queueMail(tx, {
      userId: user.id,
      kind: "password_reset",
      to: user.email,
      ...passwordResetMail(tokenLink("password_reset", token)),
    });
  });
  return { ok: true };
}

/** Null when the link may be used, else what to tell the person. */
export function resetLinkProblem(token: string): string | null {
  const state = readToken(getDb(), "password_reset", token);
  return state.status === "valid" ? null : deadLinkMessage(state.status, "reset");
}

/** Sets the new password through a reset link, once; every session of the account ends. */
export async function resetPassword(
  token: string,
  password: string,
): Promise<{ ok: true } | { ok: false; error: string }> {
  const passwordHash = await hashPassword(password);
  return inTransaction((tx) => {
    // Read again inside the transaction: of two posts of one link, one wins.
    const state = readToken(tx, "password_reset", token);
    if (state.status !== "valid") return { ok: false, error: deadLinkMessage(state.status, "reset") };
    useToken(tx, state.id);
    // The link proves the address too.
    tx.update(users).set({ passwordHash, emailVerified: true }).where(eq(users.id, state.userId)).run();
    tx.delete(sessions).where(eq(sessions.userId, state.userId)).run();
    return { ok: true as const };
  });
}
