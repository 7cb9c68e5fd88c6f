// Browser-safe: the simulator's form, validated in the browser and by its action.
import { z } from "zod";
import { phoneField } from "#app/modules/sms/phone.ts";
import { messageBodyField, type SmsFormConfig } from "#app/modules/sms/schemas.ts";

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
