// Grants credits straight into the e2e server's database (the shop is not needed for SMS journeys).
export async function grantCredits(email: string, amount: number): Promise<void> {
  // The app modules read DATA_DIR when first imported: point them at the server's data first.
  process.env.DATA_DIR = process.env.E2E_DATA_DIR;
  process.env.SESSION_SECRET ??= "e2e-session-secret";
  const { findUserByEmail } = await import("../../app/modules/auth/users.server.ts");
  const { book } = await import("../../app/modules/credits/ledger.server.ts");
  const user = findUserByEmail(email);
  if (!user) throw new Error(`No user ${email}`);
  book({ userId: user.id, kind: "grant", amount, key: `e2e-grant:${user.id}:${Date.now()}:${Math.random()}` });
}
