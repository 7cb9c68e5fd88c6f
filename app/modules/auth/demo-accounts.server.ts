import { getEnv } from "#app/utils/env.server.ts";

/** The demo logins the README publishes: seeded in test mode only, refused anywhere real. */
export const DEMO_ACCOUNTS = {
  admin: { email: "admin@example.com", password: "admin12345", fullName: "Demo Admin", role: "admin" },
  customer: { email: "demo@example.com", password: "demo12345", fullName: "Demo Customer", role: "customer" },
} as const;

const DEMO_PASSWORDS: ReadonlySet<string> = new Set(Object.values(DEMO_ACCOUNTS).map((a) => a.password));

/** What makes this gateway real, for the log line that explains a refused demo password. */
export function realServices(): string {
  const real = [
    getEnv().testMode.sms ? null : `SMS_TRANSPORT=${getEnv().SMS_TRANSPORT}`,
    getEnv().cardPayments === "stripe" ? "Stripe" : null,
  ];
  return real.filter(Boolean).join(" and ");
}

/**
 * True when a sign-in with this (correct) password must be refused: it is a published demo password
 * and the gateway is not in full test mode, so the account could spend real money.
 */
export function isRefusedDemoPassword(password: string): boolean {
  return !getEnv().testMode.full && DEMO_PASSWORDS.has(password);
}
