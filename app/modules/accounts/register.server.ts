import { getEnv } from "#app/utils/env.server.ts";
import { clientNetwork } from "#app/utils/http.server.ts";
import { giveBack, hit, type Limit } from "#app/utils/rate-limit.server.ts";
import { isCommonPassword } from "#app/modules/auth/common-passwords.server.ts";
import { PasswordCheckBusyError } from "#app/modules/auth/password.server.ts";
import { createUser, EmailTakenError } from "#app/modules/auth/users.server.ts";
import { startEmailVerification } from "#app/modules/accounts/verification.server.ts";

const perIp = (): Limit => ({ name: "register-ip", limit: getEnv().REGISTER_LIMIT_PER_HOUR, windowMs: 60 * 60 * 1000 });

export const COMMON_PASSWORD_MESSAGE =
  "This password is too common: it is among the 10,000 most used passwords. Please choose another one.";

export type RegisterResult =
  | { ok: true }
  | { ok: false; field: "email" | "password"; error: string }
  | { ok: false; field: null; error: string; status: 429 | 503; retryAfterSeconds: number };

/** Creates a customer account, at most REGISTER_LIMIT_PER_HOUR per client address. */
export async function registerCustomer(
  request: Request,
  input: { email: string; fullName: string; password: string },
): Promise<RegisterResult> {
  // Checked on the server only: the list stays out of the browser bundle.
  if (await isCommonPassword(input.password)) return { ok: false, field: "password", error: COMMON_PASSWORD_MESSAGE };
  const address = clientNetwork(request);
  const limit = await hit(perIp(), address);
  if (!limit.allowed) {
    const minutes = Math.ceil(limit.retryAfterSeconds / 60);
    return {
      ok: false,
      field: null,
      status: 429,
      retryAfterSeconds: limit.retryAfterSeconds,
      error: `Too many accounts were created from your network. Please try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`,
    };
  }
  try {
    await createUser({ ...input, role: "customer", emailVerified: false }, startEmailVerification);
    return { ok: true };
  } catch (error) {
    if (error instanceof EmailTakenError) return { ok: false, field: "email", error: error.message };
    if (!(error instanceof PasswordCheckBusyError)) throw error;
    // Nothing was created, so nothing counts against the address.
    await giveBack(perIp(), address);
    return { ok: false, field: null, status: 503, retryAfterSeconds: 5, error: error.message };
  }
}
