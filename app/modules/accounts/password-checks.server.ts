import { eq } from "drizzle-orm";
import { getDb } from "#app/db/client.server.ts";
import { users } from "#app/db/schema/core.ts";
import { giveBack, hit, type Limit } from "#app/utils/rate-limit.server.ts";
import { verifyPassword } from "#app/modules/auth/password.server.ts";

// A stolen session must not turn into unlimited guesses at the password behind it.
const perAccount: Limit = { name: "current-password", limit: 5, windowMs: 15 * 60 * 1000 };

export type PasswordCheck = { ok: true } | { ok: false; error: string; status: 400 | 429 };

const WRONG_PASSWORD = "That is not your current password.";

/** Checks a signed-in person's current password, at most five wrong tries per account per 15 minutes. */
export async function checkCurrentPassword(userId: number, password: string): Promise<PasswordCheck> {
  const limit = await hit(perAccount, String(userId));
  if (!limit.allowed) {
    const minutes = Math.ceil(limit.retryAfterSeconds / 60);
    return {
      ok: false,
      status: 429,
      error: `Too many wrong passwords. Please try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`,
    };
  }
  const row = await getDb().select({ passwordHash: users.passwordHash }).from(users).where(eq(users.id, userId)).get();
  if (!row || !(await verifyPassword(password, row.passwordHash)))
    return { ok: false, status: 400, error: WRONG_PASSWORD };
  // Only wrong guesses count.
  await giveBack(perAccount, String(userId));
  return { ok: true };
}
