import { eq } from "drizzle-orm";
import type { Executor } from "#app/db/client.server.ts";
import { users } from "#app/db/schema/core.ts";
import { mailSignature, queueMail } from "#app/modules/mail/outbox.server.ts";
import { noteBalanceLow } from "#app/modules/webhooks/account-events.server.ts";
import { clock } from "#app/utils/clock.server.ts";
import { getEnv } from "#app/utils/env.server.ts";
import { formatNumber } from "#app/utils/misc.ts";

/** The account's balance row as the ledger's update returns it. */
export type MovedBalance = { balance: number; threshold: number | null; alerted: number };

/**
 * Called by the ledger, inside its transaction, when an account with an alert threshold moved its
 * balance: falling below writes one e-mail, coming back up re-arms it. Anything else costs nothing.
 */
export async function noteBalanceMoved(
  tx: Executor,
  userId: number,
  moved: MovedBalance & { threshold: number },
): Promise<void> {
  const below = moved.balance < moved.threshold;
  if (below === Boolean(moved.alerted)) return;
  await tx.update(users).set({ lowBalanceAlerted: below }).where(eq(users.id, userId)).run();
  if (!below) return;
  await noteBalanceLow(userId, moved.balance, moved.threshold, clock.now());
  const user = await tx.select({ email: users.email }).from(users).where(eq(users.id, userId)).get();
  if (user)
    await queueMail(tx, {
      userId,
      kind: "low_balance",
      to: user.email,
      ...lowBalanceMail(moved.balance, moved.threshold),
    });
}

/** The alert's words, signed as every account e-mail. */
function lowBalanceMail(balance: number, threshold: number) {
  return {
    subject: `Your SMS Gateway balance is low: ${formatNumber(balance)} credits`,
    text: [
      `Your balance has fallen below ${formatNumber(threshold)} credits: ${formatNumber(balance)} credits are left.`,
      "",
      `Buy credits: ${getEnv().appUrl}/`,
      `Change or turn off this alert: ${getEnv().appUrl}/account/settings`,
      "",
      "We write once each time the balance falls below the threshold.",
      mailSignature(),
    ].join("\n"),
  };
}
