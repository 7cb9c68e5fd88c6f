// The first admin of a production gateway, made through a one-time link that start prints, so no
// password is ever known in advance or printed.
import { createHash, createHmac, randomBytes } from "node:crypto";
import { and, desc, eq, gt, isNull } from "drizzle-orm";
import { getDb, withTx, type Tx } from "#app/db/client.server.ts";
import { setupTokens, users } from "#app/db/schema/core.ts";
import { clock } from "#app/utils/clock.server.ts";
import { getSecrets } from "#app/utils/env.server.ts";
import { hashPassword } from "#app/modules/auth/password.server.ts";
import { type SessionUser, sessionUserColumns } from "#app/modules/auth/users.server.ts";

export const SETUP_LINK_TTL_MS = 60 * 60 * 1000;
/** A start reprints a link with at least this long left; one closer to expiry is replaced, so a printed link gives time to use it. */
const SETUP_LINK_REUSE_MS = 10 * 60 * 1000;

const TOKEN_FORMAT = /^[A-Za-z0-9_-]{43}$/;
const hashToken = (token: string) => createHash("sha256").update(token).digest("hex");

export type SetupLinkState = "valid" | "used" | "expired" | "unknown" | "admin-exists";

export const SETUP_LINK_MESSAGES: Record<Exclude<SetupLinkState, "valid">, string> = {
  used: "This setup link has already been used. Sign in with the administrator account it created.",
  expired: "This setup link has expired. Restart the gateway to print a new one (it is valid for an hour).",
  unknown: "This setup link is not valid. Use the link printed at the gateway's latest start.",
  "admin-exists": "An administrator account already exists. Sign in instead.",
};

export async function adminExists(): Promise<boolean> {
  return (
    (await getDb().select({ id: users.id }).from(users).where(eq(users.role, "admin")).limit(1).get()) !== undefined
  );
}

/**
 * The token of setup link `id`: derived from the row and the session secret, so every start (of
 * every process) can print the same link again while only its hash is stored.
 */
const tokenOf = (id: number) =>
  createHmac("sha256", getSecrets().session[0]).update(`setup-link:${id}`).digest("base64url");

async function issue(tx: Tx): Promise<{ token: string; expiresAt: Date }> {
  const expiresAt = new Date(clock.now() + SETUP_LINK_TTL_MS);
  await tx.delete(setupTokens).where(isNull(setupTokens.usedAt)).run();
  // The token needs the row's id: a random placeholder keeps the unique hash until it is set.
  const { id } = await tx
    .insert(setupTokens)
    .values({ tokenHash: randomBytes(32).toString("hex"), createdAt: clock.date(), expiresAt })
    .returning({ id: setupTokens.id })
    .get();
  const token = tokenOf(id);
  await tx
    .update(setupTokens)
    .set({ tokenHash: hashToken(token) })
    .where(eq(setupTokens.id, id))
    .run();
  return { token, expiresAt };
}

/** A new setup link's token (shown once, kept only as a hash); any unused earlier one stops working. */
export async function issueSetupToken(): Promise<{ token: string; expiresAt: Date }> {
  return await withTx(issue);
}

/**
 * The setup link a start prints: the unused one still valid for at least a while when there is one
 * (another start printed it, perhaps a moment ago), else a new one. Its caller holds the start lock.
 */
export async function currentSetupToken(): Promise<{ token: string; expiresAt: Date }> {
  return await withTx(async (tx) => {
    const live = await tx
      .select()
      .from(setupTokens)
      .where(and(isNull(setupTokens.usedAt), gt(setupTokens.expiresAt, new Date(clock.now() + SETUP_LINK_REUSE_MS))))
      .orderBy(desc(setupTokens.id))
      .get();
    const token = live && tokenOf(live.id);
    // A changed session secret derives another token: that link is replaced like an expired one.
    if (live && token && hashToken(token) === live.tokenHash) return { token, expiresAt: live.expiresAt };
    return await issue(tx);
  });
}

export async function setupLinkState(token: string): Promise<SetupLinkState> {
  if (!TOKEN_FORMAT.test(token)) return "unknown";
  const row = await getDb()
    .select()
    .from(setupTokens)
    .where(eq(setupTokens.tokenHash, hashToken(token)))
    .get();
  if (!row) return "unknown";
  if (row.usedAt) return "used";
  if (row.expiresAt.getTime() <= clock.now()) return "expired";
  return (await adminExists()) ? "admin-exists" : "valid";
}

export type FirstAdminResult =
  | { ok: true; user: SessionUser }
  | { ok: false; field: "email"; error: string }
  | { ok: false; field: null; state: Exclude<SetupLinkState, "valid"> };

/**
 * Creates the first admin and uses up the link, in one transaction: a second use (even at the same
 * moment) finds the token used and creates nothing.
 */
export async function createFirstAdmin(
  token: string,
  input: { email: string; fullName: string; password: string },
): Promise<FirstAdminResult> {
  const before = await setupLinkState(token);
  if (before !== "valid") return { ok: false, field: null, state: before };
  const passwordHash = await hashPassword(input.password);
  return await withTx(async (tx): Promise<FirstAdminResult> => {
    const state = await setupLinkState(token);
    if (state !== "valid") return { ok: false, field: null, state };
    if (await tx.select({ id: users.id }).from(users).where(eq(users.email, input.email)).get()) {
      return { ok: false, field: "email", error: "An account with this email already exists." };
    }
    const now = clock.date();
    const used = (
      await tx
        .update(setupTokens)
        .set({ usedAt: now })
        .where(
          and(eq(setupTokens.tokenHash, hashToken(token)), isNull(setupTokens.usedAt), gt(setupTokens.expiresAt, now)),
        )
        .run()
    ).changes;
    if (used === 0) return { ok: false, field: null, state: "used" };
    const user = await tx
      .insert(users)
      .values({ email: input.email, fullName: input.fullName, passwordHash, role: "admin", createdAt: now })
      .returning(sessionUserColumns)
      .get();
    return { ok: true, user };
  });
}
