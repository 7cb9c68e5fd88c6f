// What the messages resource takes: one message, a batch, a quote. Their rules depend on the
// deployment's settings (default country, longest message), so they are made from its configuration.
import { z } from "zod";
import { phoneField } from "#app/modules/messaging/phone.ts";
import { messageBodyField, type SmsFormConfig } from "#app/modules/messaging/schemas.ts";
import { MAX_BATCH_MESSAGES } from "#app/modules/sms/batch.ts";
import { EXAMPLE_BODY, EXAMPLE_PHONE, EXAMPLE_SEND_AT, senderField, statusCallbackField } from "#app/api/schemas.ts";

export function messageRequests(config: SmsFormConfig) {
  const SendMessageRequest = z.strictObject({
    to: phoneField(config.defaultCountry).meta({
      description: `Recipient's phone number, best in E.164 (+ and country code); a number without one is read as a ${config.defaultCountry} number. Stored and returned in E.164.`,
      examples: [EXAMPLE_PHONE],
    }),
    body: messageBodyField(config.maxSegments).meta({
      description: `Message text. Longer than one SMS (160 GSM-7 characters, or 70 with characters such as emoji) is sent in up to ${config.maxSegments} parts. 1 credit per part.`,
      examples: [EXAMPLE_BODY],
    }),
    from: senderField.meta({
      description:
        "The sender it goes out from: one of your senders (the Senders screen lists them). Leave out for your default sender, or the gateway's if you have none.",
      examples: ["AcmeAlerts"],
    }),
    sendAt: z.iso
      .datetime({
        offset: true,
        error: "sendAt must be a date and time with a zone, e.g. 2030-01-15T09:30:00Z or 2030-01-15T10:30:00+01:00",
      })
      .optional()
      .meta({
        description:
          "Send later instead of now: any moment in the future, to the second (ISO 8601 with `Z` or an offset; fractions of a second are dropped). The answer is then a ScheduledMessage; its credits are checked now and charged when it goes out.",
        examples: [EXAMPLE_SEND_AT],
      }),
    ignoreQuietHours: z.boolean().optional().meta({
      description:
        "true: send now even inside your quiet hours (Settings). Left out or false: a message that would reach the recipient inside them is queued (and charged) now and sent when they end, in the recipient's local time. Not used with sendAt, which goes at the time given.",
    }),
    statusCallback: statusCallbackField.meta({
      description:
        "A URL that gets this message's message.sent, message.delivered and message.failed events, as webhook endpoints do, signed with your account's callback secret (the Webhooks screen). https, resolving to a public address. Not with sendAt.",
      examples: ["https://example.com/sms/status"],
    }),
  });
  const batchItem = z.strictObject({
    to: z
      .string({ error: "to is required" })
      .max(40, "to is too long")
      .meta({
        description: `The recipient, as in POST /messages. A number that is not valid is refused in its result (invalid_phone), the others still go.`,
        examples: [EXAMPLE_PHONE],
      }),
    body: messageBodyField(config.maxSegments)
      .optional()
      .meta({
        description: "This recipient's own text; leave out to send the batch's `body`.",
        examples: [EXAMPLE_BODY],
      }),
    from: senderField.meta({ description: "This recipient's sender; leave out for the batch's `from`." }),
    statusCallback: statusCallbackField.meta({
      description:
        "A URL that gets this recipient's message.sent, message.delivered and message.failed events, as in POST /messages. A URL that is refused makes the whole batch a 422 naming each such item; nothing is sent.",
      examples: ["https://example.com/sms/status"],
    }),
  });
  const batchShape = {
    body: messageBodyField(config.maxSegments)
      .optional()
      .meta({ description: "The text for every recipient without a `body` of its own.", examples: [EXAMPLE_BODY] }),
    from: senderField.meta({
      description: "The sender for every recipient without a `from` of its own; leave out for your default.",
    }),
  };
  // Runs also on input that is no object at all (alwaysCheck), e.g. a JSON null.
  const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null;
  const everyItemHasABody = (request: { body?: unknown; messages?: unknown }, ctx: z.core.$RefinementCtx) => {
    if (!isObject(request) || request.body !== undefined || !Array.isArray(request.messages)) return;
    request.messages.forEach((item: unknown, index) => {
      if (typeof item === "object" && item !== null && !("body" in item))
        ctx.addIssue({
          code: "custom",
          path: ["messages", index, "body"],
          message: "Message is required: give a body here or for the batch",
        });
    });
  };
  // Also when other fields are invalid, so one 422 lists every missing body too.
  const alwaysCheck = { when: () => true };
  const SendBatchRequest = z
    .strictObject({
      ...batchShape,
      messages: z
        .array(batchItem)
        .min(1, "messages must list at least one recipient")
        .max(MAX_BATCH_MESSAGES, `messages may list at most ${MAX_BATCH_MESSAGES} recipients`)
        .meta({ description: `1 to ${MAX_BATCH_MESSAGES} recipients, each with its own text or the batch's.` }),
    })
    .superRefine(everyItemHasABody, alwaysCheck);
  const QuoteRequest = z
    .strictObject({
      ...batchShape,
      to: z
        .string()
        .max(40, "to is too long")
        .optional()
        .meta({
          description:
            "The recipient of `body`, priced by its destination; leave out for the price of destinations without their own.",
          examples: [EXAMPLE_PHONE],
        }),
      messages: z
        .array(batchItem.partial({ to: true }))
        .min(1)
        .max(MAX_BATCH_MESSAGES)
        .optional()
        .meta({
          description:
            "A batch as POST /messages/batch takes it (`to` may be left out); leave out to quote `body` once.",
        }),
    })
    .superRefine((request, ctx) => {
      if (!isObject(request)) return;
      if (request.messages !== undefined) return everyItemHasABody(request, ctx);
      if (request.body === undefined) ctx.addIssue({ code: "custom", path: ["body"], message: "Message is required" });
    }, alwaysCheck);
  return { SendMessageRequest, SendBatchRequest, QuoteRequest };
}
