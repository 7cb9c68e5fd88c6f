import { withTx } from "#app/db/client.server.ts";
import { clientNetwork } from "#app/utils/http.server.ts";
import { type Limit, type LimitState, block, giveBack, hit, peek, reset } from "#app/utils/rate-limit.server.ts";
import { forgetAccountFailures, giveBackAccountTurn, takeAccountTurn } from "#app/modules/auth/account-waits.server.ts";
import { InvalidCredentialsError, authenticator } from "#app/modules/auth/authenticator.server.ts";
import { PasswordCheckBusyError } from "#app/modules/auth/password.server.ts";
import type { SessionUser } from "#app/modules/auth/users.server.ts";

const MINUTE = 60_000;

// Every attempt is counted before its password is checked, so parallel requests cannot share one
// look at the counter. Limits hold per (account, address): an attacker elsewhere cannot lock the
// owner out. See docs/decisions/009-login-throttling.md. Across addresses an account's attempts
// also wait after a few failures, except from a browser that signed in to it before (decision 108).
export const LOGIN_LIMITS = {
  /** Attempts one address may make on one account before the backoff starts. */
  pair: { name: "login-pair", limit: 5, windowMs: 15 * MINUTE } satisfies Limit,
  /** Backoff steps of a pair: each doubles the wait; forgotten a day after the first one. */
  steps: { name: "login-backoff", limit: 1_000_000, windowMs: 24 * 60 * MINUTE } satisfies Limit,
  /** Attempts one address may make across all accounts (credential stuffing). */
  address: { name: "login-ip", limit: 30, windowMs: 15 * MINUTE } satisfies Limit,
};
const FIRST_WAIT_SECONDS = 60;
const LONGEST_WAIT_SECONDS = 15 * 60;

export type LoginResult =
  { ok: true; user: SessionUser } | { ok: false; error: string; status: 400 | 429 | 503; retryAfterSeconds?: number };

function tooMany(seconds: number, onThisAccount = ""): LoginResult {
  const [count, unit] = seconds < 60 ? [seconds, "second"] : [Math.ceil(seconds / 60), "minute"];
  return {
    ok: false,
    status: 429,
    retryAfterSeconds: seconds,
    error: `Too many failed login attempts${onThisAccount}. Please try again in ${count} ${unit}${count === 1 ? "" : "s"}.`,
  };
}

/**
 * The wait of a pair past its free attempts: exactly one attempt crosses the threshold (the
 * counter is atomic), and it alone takes the next backoff step, however many arrive at once.
 */
async function backOff(pair: string, attempt: LimitState, free: number): Promise<number> {
  if (attempt.count !== free + 1) return attempt.retryAfterSeconds;
  const step = await hit(LOGIN_LIMITS.steps, pair);
  const seconds = Math.min(LONGEST_WAIT_SECONDS, FIRST_WAIT_SECONDS * 2 ** (step.count - 1));
  await block(LOGIN_LIMITS.pair, pair, seconds);
  return seconds;
}

/** `knownDevice`: the browser signed in to this account before, so the account-wide wait does not hold it back. */
export async function attemptLogin(request: Request, email: string, knownDevice: boolean): Promise<LoginResult> {
  const address = clientNetwork(request);
  const pair = `${email}|${address}`;
  const [byAddress, byPair, steps] = await Promise.all([
    hit(LOGIN_LIMITS.address, address),
    hit(LOGIN_LIMITS.pair, pair),
    peek(LOGIN_LIMITS.steps, pair),
  ]);
  // After a first wait, each further failure from the same place doubles the next one.
  const free = steps.count === 0 ? LOGIN_LIMITS.pair.limit : 1;
  if (byPair.count > free) return tooMany(await backOff(pair, byPair, free));
  if (!byAddress.allowed) return tooMany(byAddress.retryAfterSeconds);
  const counted = !knownDevice;
  if (counted) {
    const turn = await takeAccountTurn(email);
    if (!turn.allowed) {
      // The pair's own budget is for guesses; this one was not checked.
      await giveBack(LOGIN_LIMITS.pair, pair);
      return tooMany(turn.retryAfterSeconds, " on this account");
    }
  }
  try {
    const user = await authenticator.authenticate("form", request);
    await withTx((tx) => forgetAccountFailures(tx, email));
    await Promise.all([
      reset(LOGIN_LIMITS.pair, pair),
      reset(LOGIN_LIMITS.steps, pair),
      giveBack(LOGIN_LIMITS.address, address),
    ]);
    return { ok: true, user };
  } catch (error) {
    if (error instanceof InvalidCredentialsError) return { ok: false, status: 400, error: error.message };
    if (!(error instanceof PasswordCheckBusyError)) throw error;
    // Not a guess: the password was never checked.
    if (counted) await giveBackAccountTurn(email);
    await Promise.all([giveBack(LOGIN_LIMITS.pair, pair), giveBack(LOGIN_LIMITS.address, address)]);
    return { ok: false, status: 503, retryAfterSeconds: 5, error: error.message };
  }
}
