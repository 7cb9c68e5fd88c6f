// Browser-safe form schemas for sending; other forms (contacts, schedules, groups) reuse the fields.
import { z } from "zod";
import { type CountryCode, phoneField } from "#app/modules/messaging/phone.ts";
import { countSegments, SEGMENT_LIMITS } from "#app/modules/messaging/segments.ts";
import { unknownMergeFieldsError } from "#app/modules/messaging/merge-fields.ts";

/** Browsers post textarea line breaks as CRLF but count them as LF: store what was counted. */
function normalizeBody(body: string): string {
  return body.replace(/\r\n?/g, "\n");
}

/** A required message body of at most `maxSegments` SMS segments. */
export function messageBodyField(maxSegments: number) {
  return z
    .string({ error: "Message is required" })
    .transform(normalizeBody)
    .refine((body) => body.trim().length > 0, "Message is required")
    .superRefine((body, ctx) => {
      // Every character takes at least one unit: past this length there is nothing to count.
      const segments = body.length > maxSegments * SEGMENT_LIMITS["GSM-7"].single ? null : countSegments(body).segments;
      if (segments === null || segments > maxSegments) {
        ctx.addIssue({
          code: "custom",
          message: `Message is too long: ${segments ?? `more than ${maxSegments}`} segments, the maximum is ${maxSegments}`,
        });
      }
      const unknownFields = unknownMergeFieldsError(body);
      if (unknownFields) ctx.addIssue({ code: "custom", message: unknownFields });
    });
}

/** The sender to send from (one of the account's, checked by the send path); absent: the account's default. */
export const fromField = z
  .string()
  .trim()
  .max(20, "Sender is too long")
  .optional()
  .transform((value) => value || undefined);

export type SmsFormConfig = { defaultCountry: CountryCode; maxSegments: number };

export const SEND_INTENT = { send: "send", check: "check" } as const;

export function createSendSmsSchema(config: SmsFormConfig) {
  return z.object({
    intent: z.enum([SEND_INTENT.send, SEND_INTENT.check]).default(SEND_INTENT.send),
    phoneNumber: phoneField(config.defaultCountry),
    message: messageBodyField(config.maxSegments),
    from: fromField,
    // Ticked: goes now even inside the account's quiet hours.
    ignoreQuietHours: z.boolean().default(false),
  });
}

/** "Check cost" (the counter without JavaScript) needs only the message. */
export function createCheckCostSchema(config: SmsFormConfig) {
  return z.object({ message: messageBodyField(config.maxSegments) });
}
