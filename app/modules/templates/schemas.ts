// Browser-safe: the template form's schema, used by conform in the browser and by the action.
import { z } from "zod";
import { messageBodyField } from "#app/modules/messaging/schemas.ts";

export const TEMPLATE_NAME_MAX = 60;
export const TEMPLATE_INTENT = { save: "save", preview: "preview", delete: "delete" } as const;

export function createTemplateSchema(maxSegments: number) {
  return z.object({
    intent: z.enum([TEMPLATE_INTENT.save, TEMPLATE_INTENT.preview]).default(TEMPLATE_INTENT.save),
    id: z.coerce.number().int().positive().optional(),
    name: z
      .string({ error: "Name is required" })
      .trim()
      .min(1, "Name is required")
      .max(TEMPLATE_NAME_MAX, `Name is too long: at most ${TEMPLATE_NAME_MAX} characters`),
    body: messageBodyField(maxSegments),
  });
}

export const DeleteTemplateSchema = z.object({
  intent: z.literal(TEMPLATE_INTENT.delete),
  id: z.coerce.number().int().positive(),
});
