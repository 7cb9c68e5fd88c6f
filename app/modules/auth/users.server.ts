import { eq } from "drizzle-orm";
import { getDb, withTx, type Tx } from "#app/db/client.server.ts";
import { isUniqueViolation } from "#app/db/dialect.server.ts";
import { sessions, users } from "#app/db/schema/core.ts";
import { clock } from "#app/utils/clock.server.ts";
import { hashPassword, verifyPassword } from "#app/modules/auth/password.server.ts";

export type Role = "customer" | "admin";
export type SessionUser = { id: number; email: string; fullName: string; role: Role; timeZone: string };

export const sessionUserColumns = {
  id: users.id,
  email: users.email,
  fullName: users.fullName,
  role: users.role,
  timeZone: users.timeZone,
};

export class EmailTakenError extends Error {
  constructor() {
    super("An account with this email already exists.");
    this.name = "EmailTakenError";
  }
}

export async function findUserByEmail(email: string) {
  return await getDb().select().from(users).where(eq(users.email, email.toLowerCase())).get();
}

/** Whether an admin has disabled the account (decision 104). */
export async function isAccountDisabled(userId: number): Promise<boolean> {
  const row = await getDb().select({ disabledAt: users.disabledAt }).from(users).where(eq(users.id, userId)).get();
  return Boolean(row?.disabledAt);
}

export async function getUserById(id: number): Promise<SessionUser | undefined> {
  return await getDb().select(sessionUserColumns).from(users).where(eq(users.id, id)).get();
}

/** `onCreated` runs in the same transaction (e.g. the sign-up's verification e-mail). */
export async function createUser(
  input: { email: string; fullName: string; password: string; role?: Role; emailVerified?: boolean },
  onCreated?: (tx: Tx, user: SessionUser) => Promise<void>,
) {
  const passwordHash = await hashPassword(input.password);
  try {
    return await withTx(async (tx) => {
      const user = await tx
        .insert(users)
        .values({
          email: input.email.toLowerCase(),
          fullName: input.fullName,
          passwordHash,
          role: input.role ?? "customer",
          emailVerified: input.emailVerified ?? true,
          createdAt: clock.date(),
        })
        .returning(sessionUserColumns)
        .get();
      await onCreated?.(tx, user);
      return user;
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new EmailTakenError();
    throw error;
  }
}

/** Signs the user out everywhere, inside the caller's transaction: every session row goes. */
async function revokeAllSessions(userId: number, tx: Tx): Promise<void> {
  await tx.delete(sessions).where(eq(sessions.userId, userId)).run();
}

/** A new password ends every session, so whoever knew the old one is out. */
export async function setPassword(userId: number, password: string): Promise<void> {
  const passwordHash = await hashPassword(password);
  await withTx(async (tx) => {
    await tx.update(users).set({ passwordHash }).where(eq(users.id, userId)).run();
    await revokeAllSessions(userId, tx);
  });
}

/** A new role ends every session: none keeps the rights (or the lifetime) of the old one. */
export async function setRole(userId: number, role: Role): Promise<void> {
  await withTx(async (tx) => {
    await tx.update(users).set({ role }).where(eq(users.id, userId)).run();
    await revokeAllSessions(userId, tx);
  });
}

/**
 * Creates the account or resets its password and role: used for ADMIN_EMAIL at start. What is
 * already so is left alone, so a restart does not sign the admin out.
 */
export async function upsertUser(input: { email: string; fullName: string; password: string; role: Role }) {
  const existing = await findUserByEmail(input.email);
  if (!existing) return createUser(input);
  if (!(await verifyPassword(input.password, existing.passwordHash))) await setPassword(existing.id, input.password);
  if (existing.role !== input.role) await setRole(existing.id, input.role);
  return (await getUserById(existing.id))!;
}

export async function setUserTimeZone(userId: number, timeZone: string) {
  await withTx((tx) => tx.update(users).set({ timeZone }).where(eq(users.id, userId)).run());
}
