// Browser-safe: the simulator's form and the admin's assignment of an unassigned message, validated
// in the browser and by their actions.
import { z } from "zod";
import { emailField } from "#app/modules/auth/schemas.ts";
import { phoneField } from "#app/modules/messaging/phone.ts";
import { messageBodyField, type SmsFormConfig } from "#app/modules/messaging/schemas.ts";

export function createSimulateInboundSchema(config: SmsFormConfig) {
  return z.object({
    from: phoneField(config.defaultCountry),
    to: z
      .string({ error: "To is required" })
      .trim()
      .min(1, "To is required")
      .max(20, "To is at most 20 characters")
      .regex(/^(\+?\d+|[A-Za-z0-9 ._-]+)$/, "To is a number (+ and digits) or an alphanumeric sender"),
    message: messageBodyField(config.maxSegments),
  });
}

/** An admin gives an unassigned inbound message to the account with this e-mail address. */
export const AssignInboundSchema = z.object({
  id: z.coerce.number().int().positive(),
  account: emailField,
});
