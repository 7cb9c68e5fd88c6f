import { z } from "zod";

// Browser-safe: conform validates with these in the browser and the actions on the server.
export const emailField = z
  .string({ error: "Email is required" })
  .trim()
  .min(1, "Email is required")
  .max(254, "Email is too long")
  .pipe(z.email("Enter a valid email address"))
  .transform((v) => v.toLowerCase());

export const LoginSchema = z.object({
  email: emailField,
  password: z.string({ error: "Password is required" }).min(1, "Password is required").max(256),
  redirectTo: z.string().optional(),
});

export const RegisterSchema = z.object({
  email: emailField,
  fullName: z
    .string({ error: "Full name is required" })
    .trim()
    .min(1, "Full name is required")
    .max(100, "Full name must be 100 characters or fewer"),
  password: z
    .string({ error: "Password is required" })
    .min(8, "Password must be at least 8 characters")
    .max(128, "Password must be 128 characters or fewer"),
});
