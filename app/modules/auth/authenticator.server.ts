import { Authenticator } from "remix-auth";
import { FormStrategy } from "remix-auth-form";
import { log } from "#app/utils/log.server.ts";
import { isRefusedDemoPassword, realServices } from "#app/modules/auth/demo-accounts.server.ts";
import { verifyPassword } from "#app/modules/auth/password.server.ts";
import { type SessionUser, findUserByEmail } from "#app/modules/auth/users.server.ts";

export class InvalidCredentialsError extends Error {
  constructor() {
    super("Invalid email or password.");
    this.name = "InvalidCredentialsError";
  }
}

/** The right password, but a published demo one while real SMS or payments are configured. */
class DemoPasswordRefusedError extends InvalidCredentialsError {
  constructor() {
    super();
    this.message =
      "This account still has a published demo password, so it cannot sign in while real messages or payments are enabled. " +
      "Ask the operator to set a new password.";
    this.name = "DemoPasswordRefusedError";
  }
}

/** The right password of an account an admin has disabled. */
class AccountDisabledError extends InvalidCredentialsError {
  constructor() {
    super();
    this.message = "This account has been disabled. Please contact support if you think this is a mistake.";
    this.name = "AccountDisabledError";
  }
}

export const authenticator = new Authenticator<SessionUser>();

authenticator.use(
  new FormStrategy(async ({ form }) => {
    const email = String(form.get("email") ?? "")
      .trim()
      .toLowerCase();
    const password = String(form.get("password") ?? "");
    const user = email ? await findUserByEmail(email) : undefined;
    const ok = await verifyPassword(password, user?.passwordHash ?? null);
    if (!user || !ok) throw new InvalidCredentialsError();
    if (user.disabledAt) throw new AccountDisabledError();
    if (isRefusedDemoPassword(password)) {
      log(
        "warn",
        "auth",
        `sign-in refused for ${user.email}: the account still has a published demo password, refused while ${realServices()} is configured; ` +
          "set a new password (for an admin: ADMIN_EMAIL and ADMIN_PASSWORD at start)",
      );
      throw new DemoPasswordRefusedError();
    }
    return { id: user.id, email: user.email, fullName: user.fullName, role: user.role, timeZone: user.timeZone };
  }),
  "form",
);
