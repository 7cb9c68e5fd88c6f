// The e2e server's database, written straight from a test: a journey's starting state without the screens.
import { findUserByEmail } from "#app/modules/auth/users.server.ts";
import { book } from "#app/modules/credits/ledger.server.ts";
import { useServerData } from "#tests/e2e/server-data.ts";

/** The account with this e-mail address, read with the app's own modules from the server's data. */
export async function serverUser(email: string) {
  useServerData();
  const user = await findUserByEmail(email);
  if (!user) throw new Error(`No user ${email}`);
  return user;
}

// Grants credits (the shop is not needed for SMS journeys).
export async function grantCredits(email: string, amount: number): Promise<void> {
  const user = await serverUser(email);
  await book({ userId: user.id, kind: "grant", amount, key: `e2e-grant:${user.id}:${Date.now()}:${Math.random()}` });
}
