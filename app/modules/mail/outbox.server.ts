import { and, count, desc, eq, gt, isNotNull, lte, sql } from "drizzle-orm";
import { getDb, inTransaction, type Executor, type Tx } from "#app/db/client.server.ts";
import { type MailKind, mailOutbox } from "#app/db/schema/mail.ts";
import { enqueueAfterCommit } from "#app/queue/enqueue-after-commit.server.ts";
import { addMailJobs } from "#app/queue/jobs/mail.server.ts";
import { reconcileOutbox } from "#app/queue/reconcile-outbox.server.ts";
import { clock } from "#app/utils/clock.server.ts";
import { getEnv } from "#app/utils/env.server.ts";
import { pageWindow } from "#app/utils/misc.ts";
import { mailDomain } from "#app/modules/support/mail.server.ts";
import { getMailer } from "#app/modules/support/mailer.server.ts";

export type NewMail = {
  userId: number | null;
  kind: MailKind;
  to: string;
  subject: string;
  text: string;
  /** A working link in `text` (a reset, a verification): kept only while it may still be needed. */
  secret?: { link: string; expiresAt: Date };
};

/** What stands in a mail's text where its link was, once the link is no longer kept. */
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

// Rows written by transactions that are running now; added to the queue once those have committed.
const written = new Set<number>();

function enqueueWritten(): void {
  const ids = [...written];
  written.clear();
  void enqueueAfterCommit(`mail ${ids.join(", ")}`, () => addMailJobs(ids));
}

/**
 * Writes an e-mail inside the caller's transaction, so it exists exactly when what caused it does.
 * Transactions here are synchronous, so a callback on the next turn of the event loop runs after
 * the commit (or the rollback: then the job finds no row and does nothing).
 */
export function queueMail(tx: Executor, { secret, ...mail }: NewMail): number {
  const status = getEnv().SMTP_URL ? "pending" : "kept";
  // A link nobody will send or be shown is not stored at all.
  const keepLink = secret && (status === "pending" || mailLinksShown());
  const text = secret && !keepLink ? mail.text.replaceAll(secret.link, LINK_REMOVED) : mail.text;
  const { id } = tx
    .insert(mailOutbox)
    .values({
      ...mail,
      text,
      status,
      secretLink: keepLink ? secret.link : null,
      secretExpiresAt: keepLink ? secret.expiresAt : null,
      createdAt: clock.date(),
    })
    .returning({ id: mailOutbox.id })
    .get();
  if (status === "pending") {
    if (written.size === 0) setImmediate(enqueueWritten);
    written.add(id);
  }
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

/** Hands one pending mail to the SMTP server; throws when it does not take it, so the queue retries. */
export async function deliverMail(mailId: number): Promise<MailDelivery> {
  const byId = eq(mailOutbox.id, mailId);
  const row = getDb().select().from(mailOutbox).where(byId).get();
  if (!row || row.status !== "pending") return "nothing_to_do";
  const mailer = getMailer();
  if (!mailer) {
    inTransaction((tx) => tx.update(mailOutbox).set({ status: "kept" }).where(byId).run());
    return "kept";
  }
  inTransaction((tx) =>
    tx
      .update(mailOutbox)
      .set({ attempts: sql`${mailOutbox.attempts} + 1`, lastAttemptAt: clock.date() })
      .where(byId)
      .run(),
  );
  try {
    const { messageId } = await mailer.send({
      from: getEnv().MAIL_FROM,
      to: row.to,
      subject: row.subject,
      text: row.text,
      // Stable across retries, so a mail the server took before a lost reply is recognised as one.
      messageId: `<mail-${row.id}.${row.createdAt.getTime()}@${mailDomain()}>`,
    });
    // Sent: the link is in the person's inbox and no longer in the database (nor its backups).
    inTransaction((tx) =>
      tx
        .update(mailOutbox)
        .set({ status: "sent", sentAt: clock.date(), messageId, lastError: null, ...linkRemoved })
        .where(byId)
        .run(),
    );
    return "sent";
  } catch (error) {
    const message = (error instanceof Error ? error.message : String(error)).slice(0, 500);
    inTransaction((tx) => tx.update(mailOutbox).set({ lastError: message }).where(byId).run());
    throw error;
  }
}

/** Removes the links of the user's mails of `kind` inside the caller's transaction: one of them was used. */
export function removeMailLinks(tx: Tx, userId: number, kind: MailKind): void {
  tx.update(mailOutbox)
    .set(linkRemoved)
    .where(and(eq(mailOutbox.userId, userId), eq(mailOutbox.kind, kind), isNotNull(mailOutbox.secretLink)))
    .run();
}

/** Removes the links that have expired from the mails still holding them; how many. */
export function removeExpiredMailLinks(): number {
  return inTransaction(
    (tx) =>
      tx
        .update(mailOutbox)
        .set(linkRemoved)
        .where(and(isNotNull(mailOutbox.secretLink), lte(mailOutbox.secretExpiresAt, clock.date())))
        .run().changes,
  );
}

export const OUTBOX_PAGE_SIZE = 20;

/** One page of the outbox, newest first, for the admins' Mail screen. */
export function listOutbox(requestedPage: number) {
  const [{ total }] = getDb().select({ total: count() }).from(mailOutbox).all();
  const { page, totalPages, offset } = pageWindow(total, requestedPage, OUTBOX_PAGE_SIZE);
  const rows = getDb()
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
export function getOutboxMail(id: number) {
  const mail = getDb().select().from(mailOutbox).where(eq(mailOutbox.id, id)).get();
  if (!mail) return undefined;
  const { secretLink, secretExpiresAt: _expiresAt, ...shown } = mail;
  return secretLink && !mailLinksShown() ? { ...shown, text: shown.text.replaceAll(secretLink, LINK_REMOVED) } : shown;
}
