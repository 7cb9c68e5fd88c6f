import { and, count, desc, eq, gt, isNotNull, lte, sql } from "drizzle-orm";
import type { UpdateSet } from "#app/db/dialect.server.ts";
import { afterCommitBatch, getDb, withTx, type Executor, type Tx } from "#app/db/client.server.ts";
import { type MailKind, mailOutbox } from "#app/db/schema/mail.ts";
import { supportRequests } from "#app/db/schema/support.ts";
import { enqueueAfterCommit } from "#app/queue/enqueue-after-commit.server.ts";
import { addMailJobs } from "#app/queue/jobs/mail.server.ts";
import { reconcileOutbox } from "#app/queue/reconcile-outbox.server.ts";
import { clock } from "#app/utils/clock.server.ts";
import { getEnv } from "#app/utils/env.server.ts";
import { pageWindow } from "#app/utils/misc.ts";
import { type Address, getMailer, mailDomain } from "#app/modules/mail/mailer.server.ts";

export type NewMail = {
  userId: number | null;
  kind: MailKind;
  to: string;
  subject: string;
  text: string;
  /** A working link in `text` (a reset, a verification): kept only while it may still be needed. */
  secret?: { link: string; expiresAt: Date };
  replyTo?: Address;
  /** The support request this mail carries (kind "support"), written at the same `createdAt`. */
  supportRequest?: { id: number; createdAt: Date };
};

/** Exponential delay before retry number `attemptsMade + 1`, capped (SUPPORT_MAIL_RETRY_*). */
export function mailBackoff(attemptsMade: number): number {
  const { SUPPORT_MAIL_RETRY_MS, SUPPORT_MAIL_RETRY_MAX_MS } = getEnv();
  return Math.min(SUPPORT_MAIL_RETRY_MS * 2 ** Math.max(0, attemptsMade - 1), SUPPORT_MAIL_RETRY_MAX_MS);
}

/** What stands in a mail's text where its link was, once the link is no longer kept. */
/** The last lines of every account e-mail (the accounts' mails and the low-balance alert). */
export const mailSignature = (): string => ["", "--", "SMS Gateway", getEnv().appUrl].join("\n");

export const LINK_REMOVED = "[link removed]";

/**
 * Whether admins see the working links of kept mails at /admin/mail: only where no mail is really
 * sent (no SMTP_URL) and nothing else is real either (full test mode), so the demo can follow them.
 */
export function mailLinksShown(): boolean {
  const { SMTP_URL, testMode } = getEnv();
  return !SMTP_URL && testMode.full;
}

// The text without its link: SQLite's replace() leaves the text as it is for an empty link.
const textWithoutLink = sql`replace(${mailOutbox.text}, coalesce(${mailOutbox.secretLink}, ''), ${LINK_REMOVED})`;
const linkRemoved = { text: textWithoutLink, secretLink: null, secretExpiresAt: null };

// The pending mails a transaction wrote: added to the queue once it has committed, in one call.
const enqueueWritten = afterCommitBatch<number>((ids) => {
  void enqueueAfterCommit(`mail ${ids.join(", ")}`, () => addMailJobs(ids));
});

/**
 * Writes an e-mail inside the caller's transaction, so it exists exactly when what caused it does;
 * its job is added after the commit, and not at all when the transaction rolls back.
 */
export async function queueMail(tx: Executor, { secret, replyTo, supportRequest, ...mail }: NewMail): Promise<number> {
  const status = getEnv().SMTP_URL ? "pending" : "kept";
  // A link nobody will send or be shown is not stored at all.
  const keepLink = secret && (status === "pending" || mailLinksShown());
  const text = secret && !keepLink ? mail.text.replaceAll(secret.link, LINK_REMOVED) : mail.text;
  const { id } = await tx
    .insert(mailOutbox)
    .values({
      ...mail,
      text,
      status,
      secretLink: keepLink ? secret.link : null,
      secretExpiresAt: keepLink ? secret.expiresAt : null,
      replyToName: replyTo?.name,
      replyToAddress: replyTo?.address,
      supportRequestId: supportRequest?.id,
      createdAt: supportRequest?.createdAt ?? clock.date(),
    })
    .returning({ id: mailOutbox.id })
    .get();
  if (status === "pending") enqueueWritten([id]);
  return id;
}

/** Re-enqueues every mail the server has not taken yet: SQLite is the record, Redis can be rebuilt. */
export async function reconcileMail(): Promise<{ enqueued: number }> {
  return reconcileOutbox(
    (after, limit) =>
      getDb()
        .select({ id: mailOutbox.id })
        .from(mailOutbox)
        .where(and(eq(mailOutbox.status, "pending"), gt(mailOutbox.id, after)))
        .orderBy(mailOutbox.id)
        .limit(limit)
        .all(),
    (rows) => addMailJobs(rows.map((row) => row.id)),
  );
}

export type MailDelivery = "sent" | "kept" | "nothing_to_do";

type OutboxRow = typeof mailOutbox.$inferSelect;

/**
 * Writes a step of the delivery on the mail and, for a support request's mail, copies the mail's
 * delivery state to the request in the same transaction: the Support Inbox shows it from there.
 */
async function recordDelivery(row: OutboxRow, step: UpdateSet<typeof mailOutbox>): Promise<void> {
  await withTx(async (tx) => {
    const mail = await tx.update(mailOutbox).set(step).where(eq(mailOutbox.id, row.id)).returning().get();
    if (row.supportRequestId === null) return;
    await tx
      .update(supportRequests)
      .set({
        mailStatus: mail.status === "kept" ? "not_configured" : mail.status,
        mailAttempts: mail.attempts,
        mailLastError: mail.lastError,
        mailLastAttemptAt: mail.lastAttemptAt,
        mailSentAt: mail.sentAt,
        mailMessageId: mail.messageId,
      })
      .where(eq(supportRequests.id, row.supportRequestId))
      .run();
  });
}

/** Stable across retries, so a mail the server took before a lost reply is recognised as one. */
function messageIdOf(row: OutboxRow): string {
  // A support mail's replies thread by its request, as they did before it moved to the outbox.
  const local = row.supportRequestId === null ? `mail-${row.id}` : `support-request-${row.supportRequestId}`;
  return `<${local}.${row.createdAt.getTime()}@${mailDomain()}>`;
}

/** Hands one pending mail to the SMTP server; throws when it does not take it, so the queue retries. */
export async function deliverMail(mailId: number): Promise<MailDelivery> {
  const row = await getDb().select().from(mailOutbox).where(eq(mailOutbox.id, mailId)).get();
  if (!row || row.status !== "pending") return "nothing_to_do";
  const mailer = getMailer();
  if (!mailer) {
    await recordDelivery(row, { status: "kept" });
    return "kept";
  }
  await recordDelivery(row, { attempts: sql`${mailOutbox.attempts} + 1`, lastAttemptAt: clock.date() });
  // The support desk's address as configured when the mail goes out, as for From.
  const to = row.kind === "support" ? getEnv().SUPPORT_EMAIL : row.to;
  try {
    const { messageId } = await mailer.send({
      from: getEnv().MAIL_FROM,
      to,
      replyTo: row.replyToAddress === null ? undefined : { name: row.replyToName ?? "", address: row.replyToAddress },
      subject: row.subject,
      text: row.text,
      messageId: messageIdOf(row),
    });
    // Sent: the link is in the person's inbox and no longer in the database (nor its backups).
    await recordDelivery(row, { status: "sent", to, sentAt: clock.date(), messageId, lastError: null, ...linkRemoved });
    return "sent";
  } catch (error) {
    await recordDelivery(row, { lastError: (error instanceof Error ? error.message : String(error)).slice(0, 500) });
    throw error;
  }
}

/** Removes the links of the user's mails of `kind` inside the caller's transaction: one of them was used. */
export async function removeMailLinks(tx: Tx, userId: number, kind: MailKind): Promise<void> {
  await tx
    .update(mailOutbox)
    .set(linkRemoved)
    .where(and(eq(mailOutbox.userId, userId), eq(mailOutbox.kind, kind), isNotNull(mailOutbox.secretLink)))
    .run();
}

/** Removes the links that have expired from the mails still holding them; how many. */
export async function removeExpiredMailLinks(): Promise<number> {
  return await withTx(
    async (tx) =>
      (
        await tx
          .update(mailOutbox)
          .set(linkRemoved)
          .where(and(isNotNull(mailOutbox.secretLink), lte(mailOutbox.secretExpiresAt, clock.date())))
          .run()
      ).changes,
  );
}

export const OUTBOX_PAGE_SIZE = 20;

/** One page of the outbox, newest first, for the admins' Mail screen. */
export async function listOutbox(requestedPage: number) {
  const [{ total }] = await getDb().select({ total: count() }).from(mailOutbox).all();
  const { page, totalPages, offset } = pageWindow(total, requestedPage, OUTBOX_PAGE_SIZE);
  const rows = await getDb()
    .select({
      id: mailOutbox.id,
      kind: mailOutbox.kind,
      to: mailOutbox.to,
      subject: mailOutbox.subject,
      status: mailOutbox.status,
      attempts: mailOutbox.attempts,
      createdAt: mailOutbox.createdAt,
    })
    .from(mailOutbox)
    .orderBy(desc(mailOutbox.id))
    .limit(OUTBOX_PAGE_SIZE)
    .offset(offset)
    .all();
  return { rows, total, page, totalPages };
}

/** One mail for the admins' Mail screen; its link, while it still works, only where mailLinksShown(). */
export async function getOutboxMail(id: number) {
  const mail = await getDb().select().from(mailOutbox).where(eq(mailOutbox.id, id)).get();
  if (!mail) return undefined;
  const { secretLink, secretExpiresAt: _expiresAt, ...shown } = mail;
  return secretLink && !mailLinksShown() ? { ...shown, text: shown.text.replaceAll(secretLink, LINK_REMOVED) } : shown;
}
