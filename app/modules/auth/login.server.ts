import { clientIp } from "../../utils/http.server.ts";
import { type Limit, hit, peek, reset } from "../../utils/rate-limit.server.ts";
import { InvalidCredentialsError, authenticator } from "./authenticator.server.ts";
import type { SessionUser } from "./users.server.ts";

// Failures only are counted; windows expire, so the owner is never locked out for good.
const perAccount: Limit = { name: "login-account", limit: 5, windowMs: 15 * 60 * 1000 };
const perIp: Limit = { name: "login-ip", limit: 30, windowMs: 15 * 60 * 1000 };

export type LoginResult = { ok: true; user: SessionUser } | { ok: false; error: string };

function tooMany(seconds: number): LoginResult {
  const minutes = Math.ceil(seconds / 60);
  return {
    ok: false,
    error: `Too many failed login attempts. Please try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`,
  };
}

export async function attemptLogin(request: Request, email: string): Promise<LoginResult> {
  const ip = clientIp(request);
  const [account, address] = await Promise.all([peek(perAccount, email), peek(perIp, ip)]);
  if (!account.allowed) return tooMany(account.retryAfterSeconds);
  if (!address.allowed) return tooMany(address.retryAfterSeconds);
  try {
    const user = await authenticator.authenticate("form", request);
    await reset(perAccount, email);
    return { ok: true, user };
  } catch (error) {
    if (!(error instanceof InvalidCredentialsError)) throw error;
    await Promise.all([hit(perAccount, email), hit(perIp, ip)]);
    return { ok: false, error: error.message };
  }
}
