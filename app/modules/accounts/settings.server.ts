import { and, desc, eq, gt, isNull } from "drizzle-orm";
import { getDb, withTx } from "#app/db/client.server.ts";
import { isUniqueViolation } from "#app/db/dialect.server.ts";
import { accountTokens } from "#app/db/schema/accounts.ts";
import { sessions, users } from "#app/db/schema/core.ts";
import { clock } from "#app/utils/clock.server.ts";
import { emailChangeMail, emailChangeNoticeMail } from "#app/modules/accounts/mails.server.ts";
import { checkCurrentPassword } from "#app/modules/accounts/password-checks.server.ts";
import { deadLinkMessage, issueLink, readToken, useToken } from "#app/modules/accounts/tokens.server.ts";
import { hashPassword } from "#app/modules/auth/password.server.ts";
import { EmailTakenError } from "#app/modules/auth/users.server.ts";
import { queueMail } from "#app/modules/mail/outbox.server.ts";

/** What the Settings screen shows, with the address an e-mail change waits to move to. */
export async function getAccountSettings(userId: number) {
  const user = await getDb()
    .select({
      email: users.email,
      fullName: users.fullName,
      timeZone: users.timeZone,
      emailVerified: users.emailVerified,
      lowBalanceThreshold: users.lowBalanceThreshold,
    })
    .from(users)
    .where(eq(users.id, userId))
    .get();
  if (!user) return undefined;
  const pending = await getDb()
    .select({ newEmail: accountTokens.newEmail })
    .from(accountTokens)
    .where(
      and(
        eq(accountTokens.userId, userId),
        eq(accountTokens.purpose, "email_change"),
        isNull(accountTokens.usedAt),
        gt(accountTokens.expiresAt, clock.date()),
      ),
    )
    .orderBy(desc(accountTokens.id))
    .get();
  return { ...user, pendingEmail: pending?.newEmail ?? null };
}

export type Profile = { fullName: string; timeZone: string; lowBalanceThreshold: number | null };

/**
 * Saves name, zone and alert threshold. A threshold the balance is already below counts as
 * alerted: the e-mail is for falling below it, so the next one comes after a top-up and a fall.
 */
export async function updateProfile(userId: number, profile: Profile): Promise<void> {
  await withTx(async (tx) => {
    const row = await tx.select({ balance: users.creditBalance }).from(users).where(eq(users.id, userId)).get();
    if (!row) return;
    const alerted = profile.lowBalanceThreshold !== null && row.balance < profile.lowBalanceThreshold;
    await tx
      .update(users)
      .set({ ...profile, lowBalanceAlerted: alerted })
      .where(eq(users.id, userId))
      .run();
  });
}

export type FieldProblem<Field extends string> = { ok: false; field: Field | null; error: string; status: 400 | 429 };

/** Sends a confirmation link to the new address and tells the current one; nothing changes yet. */
export async function requestEmailChange(
  userId: number,
  input: { newEmail: string; currentPassword: string },
): Promise<{ ok: true } | FieldProblem<"newEmail" | "currentPassword">> {
  const user = await getDb().select({ email: users.email }).from(users).where(eq(users.id, userId)).get();
  if (!user) return { ok: false, field: null, status: 400, error: "No such account." };
  if (input.newEmail === user.email) {
    return { ok: false, field: "newEmail", status: 400, error: "That is already your e-mail address." };
  }
  const check = await checkCurrentPassword(userId, input.currentPassword);
  if (!check.ok) return { ...check, field: check.status === 400 ? "currentPassword" : null };
  return await withTx(async (tx) => {
    const taken = await tx.select({ id: users.id }).from(users).where(eq(users.email, input.newEmail)).get();
    if (taken)
      return {
        ok: false as const,
        field: "newEmail" as const,
        status: 400 as const,
        error: new EmailTakenError().message,
      };
    const secret = await issueLink(tx, userId, "email_change", input.newEmail);
    await queueMail(tx, {
      userId,
      kind: "email_change",
      to: input.newEmail,
      ...emailChangeMail(input.newEmail, secret.link),
      secret,
    });
    await queueMail(tx, {
      userId,
      kind: "email_change_notice",
      to: user.email,
      ...emailChangeNoticeMail(user.email, input.newEmail),
    });
    return { ok: true as const };
  });
}

/** Opens the link sent to the new address: from now on the account signs in with it. */
export async function confirmEmailChange(
  token: string,
): Promise<{ ok: true; email: string } | { ok: false; error: string }> {
  try {
    return await withTx(async (tx) => {
      const state = await readToken(tx, "email_change", token);
      if (state.status !== "valid" || !state.newEmail) {
        return {
          ok: false as const,
          error: deadLinkMessage(state.status === "valid" ? "unknown" : state.status, "confirmation"),
        };
      }
      await useToken(tx, "email_change", state.userId);
      await tx
        .update(users)
        .set({ email: state.newEmail, emailVerified: true })
        .where(eq(users.id, state.userId))
        .run();
      return { ok: true as const, email: state.newEmail };
    });
  } catch (error) {
    // Another account took the address after the link was sent: the transaction rolled back, the link still works.
    if (!isUniqueViolation(error)) throw error;
    return { ok: false, error: `${new EmailTakenError().message} Your e-mail address has not changed.` };
  }
}

/**
 * A new password with the current one; every session of the account ends, the caller's too (it
 * starts a fresh one), so whoever else was signed in is out.
 */
export async function changePassword(
  userId: number,
  input: { currentPassword: string; newPassword: string },
): Promise<{ ok: true } | FieldProblem<"currentPassword">> {
  const check = await checkCurrentPassword(userId, input.currentPassword);
  if (!check.ok) return { ...check, field: check.status === 400 ? "currentPassword" : null };
  const passwordHash = await hashPassword(input.newPassword);
  await withTx(async (tx) => {
    await tx.update(users).set({ passwordHash }).where(eq(users.id, userId)).run();
    await tx.delete(sessions).where(eq(sessions.userId, userId)).run();
  });
  return { ok: true };
}
