import { and, eq, gt, sql } from "drizzle-orm";
import { getDb, inTransaction } from "#app/db/client.server.ts";
import { supportRequests } from "#app/db/schema/support.ts";
import { addSupportMailJobs } from "#app/queue/jobs/support-mail.server.ts";
import { reconcileOutbox } from "#app/queue/reconcile-outbox.server.ts";
import { clock } from "#app/utils/clock.server.ts";
import { getEnv } from "#app/utils/env.server.ts";
import { formatDateTime } from "#app/utils/misc.ts";
import { getMailer, type OutgoingMail } from "#app/modules/support/mailer.server.ts";

type SupportRequestRow = typeof supportRequests.$inferSelect;

/** Exponential delay before retry number `attemptsMade + 1`, capped: support and account mail alike. */
export function supportMailBackoff(attemptsMade: number): number {
  const { SUPPORT_MAIL_RETRY_MS, SUPPORT_MAIL_RETRY_MAX_MS } = getEnv();
  return Math.min(SUPPORT_MAIL_RETRY_MS * 2 ** Math.max(0, attemptsMade - 1), SUPPORT_MAIL_RETRY_MAX_MS);
}

/** Re-enqueues every request whose e-mail has not gone out: SQLite is the record, Redis can be rebuilt. */
export async function reconcileSupportMail(): Promise<{ enqueued: number }> {
  return reconcileOutbox(
    (after, limit) =>
      getDb()
        .select({ id: supportRequests.id })
        .from(supportRequests)
        .where(and(eq(supportRequests.mailStatus, "pending"), gt(supportRequests.id, after)))
        .orderBy(supportRequests.id)
        .limit(limit)
        .all(),
    (rows) => addSupportMailJobs(rows.map((row) => row.id)),
  );
}

export function mailDomain(): string {
  return /@([^\s>]+)/.exec(getEnv().MAIL_FROM)?.[1] ?? "smsgw.invalid";
}

function composeSupportMail(row: SupportRequestRow): OutgoingMail {
  const kind = row.source === "contact" ? "Contact" : "Support";
  const lines = [
    `${kind} request #${row.id} from the ${row.source === "contact" ? "public contact form" : "signed-in support form"}.`,
    "",
    `From: ${row.name} <${row.email}>`,
    ...(row.userId !== null ? [`Account: user #${row.userId}`] : []),
    `Received: ${formatDateTime(row.createdAt, "UTC")} UTC`,
    `Subject: ${row.subject}`,
    "",
    row.message,
    "",
    "--",
    "Reply to this e-mail to answer the sender.",
    `Support Inbox: /admin/support?id=${row.id}`,
  ];
  return {
    from: getEnv().MAIL_FROM,
    to: getEnv().SUPPORT_EMAIL,
    replyTo: { name: row.name, address: row.email },
    subject: `[${kind} #${row.id}] ${row.subject}`,
    text: lines.join("\n"),
    // Stable across retries, so a mail the server did accept before a lost reply threads as one.
    messageId: `<support-request-${row.id}.${row.createdAt.getTime()}@${mailDomain()}>`,
  };
}

export type DeliveryOutcome = "sent" | "not_configured" | "nothing_to_do";

/**
 * Sends one request's e-mail. Throws when the mail server does not accept it, so the queue
 * retries; the attempt and its error are kept on the row for the Support Inbox.
 */
export async function deliverSupportRequest(requestId: number): Promise<DeliveryOutcome> {
  const byId = eq(supportRequests.id, requestId);
  const row = getDb().select().from(supportRequests).where(byId).get();
  if (!row || row.mailStatus !== "pending") return "nothing_to_do";
  const mailer = getMailer();
  if (!mailer) {
    inTransaction((tx) => tx.update(supportRequests).set({ mailStatus: "not_configured" }).where(byId).run());
    return "not_configured";
  }
  inTransaction((tx) =>
    tx
      .update(supportRequests)
      .set({ mailAttempts: sql`${supportRequests.mailAttempts} + 1`, mailLastAttemptAt: clock.date() })
      .where(byId)
      .run(),
  );
  try {
    const { messageId } = await mailer.send(composeSupportMail(row));
    inTransaction((tx) =>
      tx
        .update(supportRequests)
        .set({ mailStatus: "sent", mailSentAt: clock.date(), mailMessageId: messageId, mailLastError: null })
        .where(byId)
        .run(),
    );
    return "sent";
  } catch (error) {
    inTransaction((tx) =>
      tx
        .update(supportRequests)
        .set({ mailLastError: (error instanceof Error ? error.message : String(error)).slice(0, 500) })
        .where(byId)
        .run(),
    );
    throw error;
  }
}
