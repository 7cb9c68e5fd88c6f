import { z } from "zod";
import { emailField } from "#app/modules/auth/schemas.ts";

// Browser-safe: conform validates with these in the browser and the actions on the server.
const required = (label: string, max: number) =>
  z
    .string({ error: `${label} is required` })
    .trim()
    .min(1, `${label} is required`)
    .max(max, `${label} must be ${max.toLocaleString("en-US")} characters or fewer`);

// A subject is one line: pasted line breaks become spaces rather than reaching a mail header.
const subjectField = required("Subject", 200).transform((v) => v.replace(/\s+/g, " "));
// Browsers post textarea line breaks as CRLF; keep them as plain newlines.
const messageField = required("Message", 5000).transform((v) => v.replace(/\r\n?/g, "\n"));

/** Name of the honeypot field: hidden from people, filled in by form-spamming bots. */
export const HONEYPOT_FIELD = "website";

export const ContactSchema = z.object({
  name: required("Name", 100),
  email: emailField,
  subject: subjectField,
  message: messageField,
  [HONEYPOT_FIELD]: z.string().optional(),
});

export const SupportSchema = z.object({
  subject: subjectField,
  message: messageField,
});

export const SupportInboxActionSchema = z.object({
  intent: z.enum(["handle", "reopen"]),
  id: z.coerce.number().int().positive(),
});

export const SUPPORT_SUCCESS = "Support request sent successfully!";
export const SUPPORT_FAILURE = "Failed to send support request";
/** When saving the request fails (a database error, not the input). */
export const SUPPORT_ERROR = "Error sending support request";

/** The Support Inbox's URL state: which requests, which page, which one is open. */
export const InboxQuerySchema = z.object({
  filter: z.enum(["open", "handled", "all"]).catch("open"),
  page: z.coerce.number().int().min(1).catch(1),
  id: z.coerce.number().int().positive().optional().catch(undefined),
});
export type InboxQuery = z.infer<typeof InboxQuerySchema>;
