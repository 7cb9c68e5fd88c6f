import { eq } from "drizzle-orm";
import { db } from "../../db/client.server.ts";
import { users } from "../../db/schema/core.ts";
import { clock } from "../../utils/clock.server.ts";
import { hashPassword } from "./password.server.ts";

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

export function findUserByEmail(email: string) {
  return db.select().from(users).where(eq(users.email, email.toLowerCase())).get();
}

export function getUserById(id: number): SessionUser | undefined {
  return db.select(sessionUserColumns).from(users).where(eq(users.id, id)).get();
}

export async function createUser(input: { email: string; fullName: string; password: string; role?: Role }) {
  const passwordHash = await hashPassword(input.password);
  try {
    return db
      .insert(users)
      .values({
        email: input.email.toLowerCase(),
        fullName: input.fullName,
        passwordHash,
        role: input.role ?? "customer",
        createdAt: clock.date(),
      })
      .returning(sessionUserColumns)
      .get();
  } catch (error) {
    if ((error as { code?: string }).code === "SQLITE_CONSTRAINT_UNIQUE") throw new EmailTakenError();
    throw error;
  }
}

/** Creates the account or resets its password and role: used for ADMIN_EMAIL at start. */
export async function upsertUser(input: { email: string; fullName: string; password: string; role: Role }) {
  const existing = findUserByEmail(input.email);
  if (!existing) return createUser(input);
  const passwordHash = await hashPassword(input.password);
  db.update(users).set({ passwordHash, role: input.role }).where(eq(users.id, existing.id)).run();
  return getUserById(existing.id)!;
}

export function setUserTimeZone(userId: number, timeZone: string) {
  db.update(users).set({ timeZone }).where(eq(users.id, userId)).run();
}
