// The e2e server's database, written straight from a test: a journey's starting state without the screens.

/** The account with this e-mail address, read with the app's own modules from the server's data. */
export async function serverUser(email: string) {
  // The app modules read DATA_DIR when first imported: point them at the server's data first.
  process.env.DATA_DIR = process.env.E2E_DATA_DIR;
  process.env.SESSION_SECRET ??= "e2e-session-secret";
  const { findUserByEmail } = await import("../../app/modules/auth/users.server.ts");
  const user = findUserByEmail(email);
  if (!user) throw new Error(`No user ${email}`);
  return user;
}

// Grants credits (the shop is not needed for SMS journeys).
export async function grantCredits(email: string, amount: number): Promise<void> {
  const user = await serverUser(email);
  const { book } = await import("../../app/modules/credits/ledger.server.ts");
  book({ userId: user.id, kind: "grant", amount, key: `e2e-grant:${user.id}:${Date.now()}:${Math.random()}` });
}
