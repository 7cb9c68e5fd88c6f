// The account-wide wait after failed sign-ins, from every address together: a few free failures,
// then each attempt waits for the one before it, the wait doubling up to a cap. Kept in SQLite on
// the app's clock (docs/decisions/108-login-waits-per-account.md).
import { eq, lt, sql } from "drizzle-orm";
import { type Executor, withTx } from "#app/db/client.server.ts";
import { largestOf } from "#app/db/dialect.server.ts";
import { loginFailures } from "#app/db/schema/account-security.ts";
import { clock } from "#app/utils/clock.server.ts";
import { getEnv } from "#app/utils/env.server.ts";

const FIRST_WAIT_MS = 5_000;
/** Failures are forgotten this long after an address's last attempt. */
const FORGET_AFTER_MS = 24 * 3600_000;

export type AccountTurn = { allowed: true } | { allowed: false; retryAfterSeconds: number };

/** The wait after the nth failure past the free ones: 5 s, doubling, at most LOGIN_ACCOUNT_MAX_WAIT_SECONDS. */
function waitMs(pastFree: number): number {
  return Math.min(getEnv().LOGIN_ACCOUNT_MAX_WAIT_SECONDS * 1000, FIRST_WAIT_MS * 2 ** (pastFree - 1));
}

/**
 * Counts a sign-in attempt on `email` before its password is checked, or says how long to wait.
 * One transaction: of attempts arriving together past the free ones, the first goes and the rest wait.
 */
export async function takeAccountTurn(email: string): Promise<AccountTurn> {
  const now = clock.now();
  return await withTx(async (tx) => {
    const row = await tx.select().from(loginFailures).where(eq(loginFailures.email, email)).get();
    const current = row && now - row.lastAttemptAt < FORGET_AFTER_MS ? row : undefined;
    if (current && now < current.waitUntil)
      return { allowed: false, retryAfterSeconds: Math.ceil((current.waitUntil - now) / 1000) };
    const failures = (current?.failures ?? 0) + 1;
    const pastFree = failures - getEnv().LOGIN_ACCOUNT_FREE_FAILURES;
    const values = { failures, lastAttemptAt: now, waitUntil: pastFree > 0 ? now + waitMs(pastFree) : 0 };
    await tx
      .insert(loginFailures)
      .values({ email, ...values })
      .onConflictDoUpdate({ target: loginFailures.email, set: values })
      .run();
    return { allowed: true };
  });
}

/** An attempt whose password was never checked (the server was busy) is not a failure. */
export async function giveBackAccountTurn(email: string): Promise<void> {
  await withTx((tx) =>
    tx
      .update(loginFailures)
      .set({ failures: largestOf(sql`${loginFailures.failures} - 1`, 0) })
      .where(eq(loginFailures.email, email))
      .run(),
  );
}

/** The owner signed in or reset the password: their account's failures are forgotten. */
export async function forgetAccountFailures(tx: Executor, email: string): Promise<void> {
  await tx.delete(loginFailures).where(eq(loginFailures.email, email)).run();
}

/** Housekeeping: failures nobody has added to for a day. */
export async function purgeOldLoginFailures(tx: Executor): Promise<number> {
  return (
    await tx
      .delete(loginFailures)
      .where(lt(loginFailures.lastAttemptAt, clock.now() - FORGET_AFTER_MS))
      .run()
  ).changes;
}
