import { Authenticator } from "remix-auth";
import { FormStrategy } from "remix-auth-form";
import { verifyPassword } from "./password.server.ts";
import { type SessionUser, findUserByEmail } from "./users.server.ts";

export class InvalidCredentialsError extends Error {
  constructor() {
    super("Invalid email or password.");
    this.name = "InvalidCredentialsError";
  }
}

export const authenticator = new Authenticator<SessionUser>();

authenticator.use(
  new FormStrategy(async ({ form }) => {
    const email = String(form.get("email") ?? "").trim().toLowerCase();
    const password = String(form.get("password") ?? "");
    const user = email ? findUserByEmail(email) : undefined;
    const ok = await verifyPassword(password, user?.passwordHash ?? null);
    if (!user || !ok) throw new InvalidCredentialsError();
    return { id: user.id, email: user.email, fullName: user.fullName, role: user.role, timeZone: user.timeZone };
  }),
  "form",
);
