import { count, desc, eq } from "drizzle-orm";
import { getDb, withTx } from "#app/db/client.server.ts";
import { users } from "#app/db/schema/core.ts";
import { type SupportSource, type SupportStatus, supportRequests } from "#app/db/schema/support.ts";
import { clock } from "#app/utils/clock.server.ts";
import { getEnv } from "#app/utils/env.server.ts";
import { limitKeyOfAddress } from "#app/utils/http.server.ts";
import { pageWindow } from "#app/utils/misc.ts";
import { hit, type Limit } from "#app/utils/rate-limit.server.ts";
import { queueMail } from "#app/modules/mail/outbox.server.ts";
import { composeSupportMail } from "#app/modules/support/mail.server.ts";

const HOUR = 60 * 60 * 1000;
// Both forms share the per-address budget; signed-in users also have their own.
const perIp: Limit = { name: "support-ip", limit: 10, windowMs: HOUR };
const perUser: Limit = { name: "support-user", limit: 5, windowMs: HOUR };

export type NewSupportRequest = {
  source: SupportSource;
  userId: number | null;
  name: string;
  email: string;
  subject: string;
  message: string;
  ip: string;
};

export type SubmitResult =
  { status: "saved"; id: number } | { status: "discarded" } | { status: "limited"; error: string };

function tooMany(seconds: number): string {
  const minutes = Math.ceil(seconds / 60);
  return `You have sent too many messages. Please try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`;
}

/** The limit message, or null when the request may go ahead. */
// Without Redis the limits are counted in this process's memory (see hit).
async function checkLimits(ip: string, userId: number | null): Promise<string | null> {
  const address = await hit(perIp, limitKeyOfAddress(ip));
  if (!address.allowed) return tooMany(address.retryAfterSeconds);
  if (userId !== null) {
    const account = await hit(perUser, String(userId));
    if (!account.allowed) return tooMany(account.retryAfterSeconds);
  }
  return null;
}

/**
 * Saves the request and its e-mail in the mail outbox, in one transaction. A filled honeypot is
 * counted against the address and dropped without a trace, so the bot sees the same answer as a person.
 */
export async function submitSupportRequest(request: NewSupportRequest, honeypot?: string): Promise<SubmitResult> {
  const limited = await checkLimits(request.ip, request.userId);
  if (limited) return { status: "limited", error: limited };
  if (honeypot) return { status: "discarded" };
  const id = await withTx(async (tx) => {
    const row = await tx
      .insert(supportRequests)
      .values({
        ...request,
        // As the outbox decides: the mail goes out, or is kept only when there is no mail server.
        mailStatus: getEnv().SMTP_URL ? "pending" : "not_configured",
        createdAt: clock.date(),
      })
      .returning()
      .get();
    await queueMail(tx, composeSupportMail(row));
    return row.id;
  });
  return { status: "saved", id };
}

export const INBOX_PAGE_SIZE = 10;
export type InboxFilter = SupportStatus | "all";

/** One page of the inbox, newest first; a page past the end shows the last one. */
export async function listSupportRequests({ filter, page: requestedPage }: { filter: InboxFilter; page: number }) {
  const where = filter === "all" ? undefined : eq(supportRequests.status, filter);
  const [{ total }] = await getDb().select({ total: count() }).from(supportRequests).where(where).all();
  const { page, totalPages, offset } = pageWindow(total, requestedPage, INBOX_PAGE_SIZE);
  const rows = await getDb()
    .select({
      id: supportRequests.id,
      source: supportRequests.source,
      name: supportRequests.name,
      email: supportRequests.email,
      subject: supportRequests.subject,
      status: supportRequests.status,
      mailStatus: supportRequests.mailStatus,
      mailAttempts: supportRequests.mailAttempts,
      createdAt: supportRequests.createdAt,
    })
    .from(supportRequests)
    .where(where)
    .orderBy(desc(supportRequests.id))
    .limit(INBOX_PAGE_SIZE)
    .offset(offset)
    .all();
  return { rows, total, page, totalPages };
}

export async function getSupportRequest(id: number) {
  return await getDb()
    .select({ request: supportRequests, handledByName: users.fullName })
    .from(supportRequests)
    .leftJoin(users, eq(users.id, supportRequests.handledBy))
    .where(eq(supportRequests.id, id))
    .get();
}

/** Marks a request handled (or open again); false when there is no such request. */
export async function setSupportStatus(id: number, adminId: number, status: SupportStatus): Promise<boolean> {
  const handled = status === "handled";
  const result = await withTx((tx) =>
    tx
      .update(supportRequests)
      .set({ status, handledAt: handled ? clock.date() : null, handledBy: handled ? adminId : null })
      .where(eq(supportRequests.id, id))
      .run(),
  );
  return result.changes > 0;
}

/** The signed-in user's latest requests, newest first. */
export async function listOwnSupportRequests(userId: number, limit = 5) {
  return await getDb()
    .select({
      id: supportRequests.id,
      subject: supportRequests.subject,
      status: supportRequests.status,
      createdAt: supportRequests.createdAt,
    })
    .from(supportRequests)
    .where(eq(supportRequests.userId, userId))
    .orderBy(desc(supportRequests.id))
    .limit(limit)
    .all();
}
