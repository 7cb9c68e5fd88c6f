// The account security forms' schemas, shared by conform in the browser and the actions.
import { z } from "zod";
import { API_SCOPES } from "#app/modules/api-keys/scopes.ts";

export const SecondFactorSchema = z.object({
  code: z
    .string({ error: "Enter the 6-digit code from your app, or a recovery code." })
    .trim()
    .max(40, "That is longer than any code."),
  redirectTo: z.string().optional(),
});

export const EnrolSchema = z.object({
  intent: z.literal("confirm"),
  code: z
    .string({ error: "Enter the 6-digit code your app shows." })
    .trim()
    .regex(/^\d{3} ?\d{3}$/, "The code is 6 digits."),
});

export const ConfirmPasswordSchema = z.object({
  password: z.string({ error: "Enter your password." }).max(1000),
  returnTo: z.string().optional(),
});

export const NewApiKeySchema = z.object({
  intent: z.literal("create"),
  name: z
    .string({ error: "Give the key a name, e.g. the program that will use it." })
    .trim()
    .max(60, "At most 60 characters."),
  scopes: z.array(z.enum(API_SCOPES), { error: "Choose at least one thing this key may do." }).min(1, {
    error: "Choose at least one thing this key may do.",
  }),
});
