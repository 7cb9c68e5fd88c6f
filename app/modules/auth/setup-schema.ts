import { z } from "zod";
import { RegisterSchema } from "#app/modules/auth/schemas.ts";

// Browser-safe: the first-admin form of /setup/:token; the same fields as registration, plus a confirmation.
export const SetupAdminSchema = RegisterSchema.extend({
  confirmPassword: z.string({ error: "Confirm the password" }),
}).refine((v) => v.password === v.confirmPassword, {
  message: "The passwords do not match",
  path: ["confirmPassword"],
});
