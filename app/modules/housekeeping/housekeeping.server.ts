import { lt } from "drizzle-orm";
import { withTx } from "#app/db/client.server.ts";
import { sessions } from "#app/db/schema/core.ts";
import { clock } from "#app/utils/clock.server.ts";
import { purgeOldLoginFailures } from "#app/modules/auth/account-waits.server.ts";
import { removeExpiredMailLinks } from "#app/modules/mail/outbox.server.ts";

/** Removes what has expired; returns what it removed, for the job log. */
export async function purgeExpired(): Promise<{ sessions: number; loginFailures: number; mailLinks: number }> {
  const removed = await withTx(async (tx) => ({
    sessions: (await tx.delete(sessions).where(lt(sessions.expiresAt, clock.date())).run()).changes,
    loginFailures: await purgeOldLoginFailures(tx),
  }));
  return { ...removed, mailLinks: await removeExpiredMailLinks() };
}
