// What an admin does to a customer's account (decision 104): disable and enable it, and clear its
// two-factor when its owner lost the phone. Each change is logged with the admin's id and e-mailed.
import { eq } from "drizzle-orm";
import { MESSAGE_STATE_TURN, withTx, type Tx } from "#app/db/client.server.ts";
import { sessions, users } from "#app/db/schema/core.ts";
import { clock } from "#app/utils/clock.server.ts";
import { log } from "#app/utils/log.server.ts";
import { accountDisabledMail, accountEnabledMail, twoFactorClearedMail } from "#app/modules/accounts/mails.server.ts";
import { isTwoFactorEnabled, removeTwoFactor } from "#app/modules/auth/two-factor.server.ts";
import { queueMail } from "#app/modules/mail/outbox.server.ts";
import { ACCOUNT_DISABLED_REASON, failQueuedMessagesOf } from "#app/modules/sms/dispatch.server.ts";

/** `done`, or why nothing changed. */
export type AccountChange = "done" | "not-found" | "own-account" | "admin-account" | "unchanged";

type Target = { id: number; email: string; role: "customer" | "admin"; disabledAt: Date | null };

async function targetOf(tx: Tx, userId: number): Promise<Target | undefined> {
  return await tx
    .select({ id: users.id, email: users.email, role: users.role, disabledAt: users.disabledAt })
    .from(users)
    .where(eq(users.id, userId))
    .get();
}

/** What an admin may change of an account, for the screen: the same rules the changes below enforce. */
export function accountAccess(
  adminId: number,
  account: { id: number; role: string; disabledAt: Date | null },
  twoFactorOn: boolean,
) {
  const other = adminId !== account.id;
  const disableable = other && account.role === "customer";
  return {
    twoFactorOn,
    own: !other,
    can: {
      disable: disableable && !account.disabledAt,
      enable: disableable && Boolean(account.disabledAt),
      "clear-two-factor": other && twoFactorOn,
    },
  };
}

/**
 * Disables a customer's account: its sessions end, the messages it has waiting are cancelled and
 * refunded, and from now on it cannot sign in, its keys are refused (the caller reloads the key
 * caches), its schedules and webhooks pause. Not an admin's account, nor the admin's own.
 */
export async function disableAccount(adminId: number, userId: number): Promise<AccountChange> {
  if (adminId === userId) return "own-account";
  const result = await withTx(
    async (tx): Promise<AccountChange | { cancelled: number }> => {
      const target = await targetOf(tx, userId);
      if (!target) return "not-found";
      if (target.role === "admin") return "admin-account";
      if (target.disabledAt) return "unchanged";
      await tx.update(users).set({ disabledAt: clock.date() }).where(eq(users.id, userId)).run();
      await tx.delete(sessions).where(eq(sessions.userId, userId)).run();
      const cancelled = await failQueuedMessagesOf(tx, userId, ACCOUNT_DISABLED_REASON);
      await queueMail(tx, { userId, kind: "account_disabled", to: target.email, ...accountDisabledMail() });
      return { cancelled };
      // Its queued messages fail here: a message-state transaction, in turn with the workers' (decision 131).
    },
    { turn: MESSAGE_STATE_TURN },
  );
  if (typeof result === "string") return result;
  log("info", "admin", "account disabled", { adminId, userId, cancelledMessages: result.cancelled });
  return "done";
}

/** Enables a disabled account again: its owner signs in anew; schedules run from their next occurrence. */
export async function enableAccount(adminId: number, userId: number): Promise<AccountChange> {
  const result = await withTx(async (tx): Promise<AccountChange> => {
    const target = await targetOf(tx, userId);
    if (!target) return "not-found";
    if (!target.disabledAt) return "unchanged";
    await tx.update(users).set({ disabledAt: null }).where(eq(users.id, userId)).run();
    await queueMail(tx, { userId, kind: "account_enabled", to: target.email, ...accountEnabledMail() });
    return "done";
  });
  if (result === "done") log("info", "admin", "account enabled", { adminId, userId });
  return result;
}

/**
 * Turns another user's two-factor off (lost phone, no recovery code left), after the admin has
 * checked who asks; the owner is e-mailed. An admin's own goes through the Two-factor page.
 */
export async function clearTwoFactor(adminId: number, userId: number): Promise<AccountChange> {
  if (adminId === userId) return "own-account";
  const result = await withTx(async (tx): Promise<AccountChange> => {
    const target = await targetOf(tx, userId);
    if (!target) return "not-found";
    if (!(await isTwoFactorEnabled(userId))) return "unchanged";
    await removeTwoFactor(tx, userId);
    await queueMail(tx, { userId, kind: "two_factor_cleared", to: target.email, ...twoFactorClearedMail() });
    return "done";
  });
  if (result === "done") log("info", "admin", "two-factor cleared", { adminId, userId });
  return result;
}
