// Browser-safe: the admin's sender and automatic-reply forms.
import { z } from "zod";
import { countSegments } from "#app/modules/messaging/segments.ts";
import { KEYWORD_REPLY_MAX_LENGTH } from "#app/modules/opt-outs/keywords.ts";
import { SENDER_KINDS, senderAddressError } from "#app/modules/senders/senders.ts";

const smppByte = (name: string) =>
  z.coerce
    .number({ error: `${name} is required` })
    .int(`${name} is a whole number`)
    .min(0, `${name} is 0 to 255`)
    .max(255, `${name} is 0 to 255`);

/** Create (no id) or edit (id) a sender; `account` is the owner's e-mail, empty for none. */
export const SenderFormSchema = z
  .object({
    intent: z.enum(["create", "update"]),
    id: z.coerce.number().int().positive().optional(),
    address: z.string({ error: "Address is required" }).trim().min(1, "Address is required"),
    kind: z.enum(SENDER_KINDS, { error: "Choose a kind" }),
    ton: smppByte("TON"),
    npi: smppByte("NPI"),
    account: z.string().trim().max(254).optional(),
  })
  .superRefine((value, ctx) => {
    const error = senderAddressError(value.kind, value.address);
    if (error) ctx.addIssue({ code: "custom", path: ["address"], message: error });
  });

export const RejectSchema = z.object({
  intent: z.literal("reject"),
  id: z.coerce.number().int().positive(),
  reason: z
    .string({ error: "Say why, so the customer knows what to change" })
    .trim()
    .min(1, "Say why, so the customer knows what to change")
    .max(300, "Keep the reason to 300 characters"),
});

const replyField = z
  .string({ error: "The reply is required" })
  .transform((body) => body.replace(/\r\n?/g, "\n").trim())
  .refine((body) => body.length > 0, "The reply is required")
  .refine(
    (body) => body.length <= KEYWORD_REPLY_MAX_LENGTH && countSegments(body).segments <= 2,
    "Keep the reply to two SMS segments",
  );

export const KeywordRepliesSchema = z.object({
  intent: z.literal("replies"),
  stop: replyField,
  start: replyField,
  help: replyField,
});
