import { z } from "zod";
import {
  dollarsToCents,
  IMAGE_MESSAGES,
  MAX_IMAGE_BYTES,
  MAX_LINE_QUANTITY,
  PACKAGE_CATEGORIES,
} from "#app/modules/shop/packages.ts";

// Browser-safe: the add-to-cart and package forms' schemas (apart from packages.ts, which the home page loads).

const QuantitySchema = z.coerce
  .number({ error: "Enter a quantity" })
  .int("Enter a whole number")
  .min(1, "Quantity must be at least 1")
  .max(MAX_LINE_QUANTITY, `Quantity must be at most ${MAX_LINE_QUANTITY}`);

export const AddToCartSchema = z.object({ quantity: QuantitySchema });

export const PackageFormSchema = z.object({
  name: z
    .string({ error: "Name is required" })
    .trim()
    .min(1, "Name is required")
    .max(80, "Name must be at most 80 characters"),
  description: z.string().trim().max(1000, "Description must be at most 1,000 characters").default(""),
  specialTag: z.string().trim().max(40, "Special tag must be at most 40 characters").default(""),
  category: z.enum(PACKAGE_CATEGORIES, { error: "Choose a category" }),
  price: z.string({ error: "Price is required" }).transform((value, ctx) => {
    const cents = dollarsToCents(value);
    if (cents === null || cents < 1) {
      ctx.addIssue({ code: "custom", message: "Enter a price in dollars, e.g. 40.00" });
      return z.NEVER;
    }
    return cents;
  }),
  credits: z.coerce
    .number({ error: "Credits are required" })
    .int("Credits must be a whole number")
    .min(1, "Credits must be at least 1")
    .max(10_000_000, "Credits must be at most 10,000,000"),
  image: z
    .instanceof(File)
    .optional()
    .refine((file) => !file || file.size < MAX_IMAGE_BYTES, IMAGE_MESSAGES.size),
});
