// Recent sign-in: sensitive actions (revealing or creating an API key, turning two-factor on or off) need
// the password typed in this session within RECENT_SIGN_IN_MINUTES, at sign-in or on the confirm page.
import { eq } from "drizzle-orm";
import { getDb } from "#app/db/client.server.ts";
import { users } from "#app/db/schema/core.ts";
import { clock } from "#app/utils/clock.server.ts";
import { getEnv } from "#app/utils/env.server.ts";
import { type Limit, giveBack, hit, reset } from "#app/utils/rate-limit.server.ts";
import { PasswordCheckBusyError, verifyPassword } from "#app/modules/auth/password.server.ts";

/** Five wrong passwords per account in 15 minutes: a stolen session cannot guess its way further. */
const CONFIRM_PASSWORD_LIMIT: Limit = { name: "confirm-password", limit: 5, windowMs: 15 * 60_000 };

/** Whether a password typed at `lastPasswordAt` (the session's; see lastPasswordAt) is recent enough. */
export function isRecentSignIn(lastPasswordAt: number | null): boolean {
  return lastPasswordAt !== null && clock.now() - lastPasswordAt < getEnv().RECENT_SIGN_IN_MINUTES * 60_000;
}

export type ConfirmResult = { ok: true } | { ok: false; status: 400 | 429 | 503; error: string };

/** Checks the user's password again, throttled per account; the caller marks the session when it is right. */
export async function confirmPassword(userId: number, password: string): Promise<ConfirmResult> {
  const attempt = await hit(CONFIRM_PASSWORD_LIMIT, String(userId));
  if (!attempt.allowed) {
    const minutes = Math.ceil(attempt.retryAfterSeconds / 60);
    return {
      ok: false,
      status: 429,
      error: `Too many wrong passwords. Please try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`,
    };
  }
  const row = await getDb().select({ passwordHash: users.passwordHash }).from(users).where(eq(users.id, userId)).get();
  try {
    if (!row || !(await verifyPassword(password, row.passwordHash)))
      return { ok: false, status: 400, error: "That is not your password." };
  } catch (error) {
    if (!(error instanceof PasswordCheckBusyError)) throw error;
    await giveBack(CONFIRM_PASSWORD_LIMIT, String(userId));
    return { ok: false, status: 503, error: error.message };
  }
  await reset(CONFIRM_PASSWORD_LIMIT, String(userId));
  return { ok: true };
}
