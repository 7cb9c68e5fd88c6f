import { z } from "zod";
import { emailField, RegisterSchema } from "#app/modules/auth/schemas.ts";
import { canonicalTimeZone, isValidTimeZone } from "#app/utils/time-zone.ts";

// Browser-safe: the account forms, validated by conform in the browser and by the actions.

const newPasswordField = RegisterSchema.shape.password;
const currentPasswordField = z
  .string({ error: "Enter your current password" })
  .min(1, "Enter your current password")
  .max(256);

export const SETTINGS_INTENT = { profile: "profile", email: "email" } as const;

export const ProfileSchema = z.object({
  intent: z.literal(SETTINGS_INTENT.profile),
  fullName: RegisterSchema.shape.fullName,
  timeZone: z
    .string({ error: "Choose a time zone" })
    .refine(isValidTimeZone, "Choose a time zone from the list")
    .transform(canonicalTimeZone),
  // Empty: no alert.
  lowBalanceThreshold: z.coerce
    .number({ error: "Enter a whole number of credits, or leave it empty" })
    .int("Enter a whole number of credits, or leave it empty")
    .min(1, "Enter at least 1 credit, or leave it empty for no alert")
    .max(1_000_000_000, "Enter at most 1,000,000,000 credits")
    .optional(),
});

export const EmailChangeSchema = z.object({
  intent: z.literal(SETTINGS_INTENT.email),
  newEmail: emailField,
  currentPassword: currentPasswordField,
});

export const PasswordChangeSchema = z
  .object({
    currentPassword: currentPasswordField,
    newPassword: newPasswordField,
    confirmPassword: z.string({ error: "Confirm the new password" }),
  })
  .refine((v) => v.newPassword === v.confirmPassword, {
    message: "The passwords do not match",
    path: ["confirmPassword"],
  });

export const ForgotPasswordSchema = z.object({ email: emailField });

export const REVOKE_ACCESS_LABEL = "Also revoke every API key and webhook endpoint of the account";

export const ResetPasswordSchema = z
  .object({
    password: newPasswordField,
    confirmPassword: z.string({ error: "Confirm the new password" }),
    // Off unless ticked; the first proof of the address revokes them whatever it says.
    revokeAccess: z.boolean().default(false),
  })
  .refine((v) => v.password === v.confirmPassword, {
    message: "The passwords do not match",
    path: ["confirmPassword"],
  });
