import type { supportRequests } from "#app/db/schema/support.ts";
import type { NewMail } from "#app/modules/mail/outbox.server.ts";
import { getEnv } from "#app/utils/env.server.ts";
import { formatDateTime } from "#app/utils/misc.ts";

type SupportRequestRow = typeof supportRequests.$inferSelect;

/**
 * A request's e-mail to SUPPORT_EMAIL, answered by replying to the requester. The migration
 * support_mail_in_outbox writes the same text in SQL for requests saved before it.
 */
export function composeSupportMail(row: SupportRequestRow): NewMail {
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
    userId: null,
    kind: "support",
    to: getEnv().SUPPORT_EMAIL,
    replyTo: { name: row.name, address: row.email },
    subject: `[${kind} #${row.id}] ${row.subject}`,
    text: lines.join("\n"),
    supportRequest: { id: row.id, createdAt: row.createdAt },
  };
}
