// Browser-safe: home filters, labels and limits, shared by screens and server. Without zod, so the
// home page does not download it (the forms' schemas are in package-forms.ts).

import { PACKAGE_CATEGORIES, type PackageCategory } from "#app/db/enums.ts";

export { PACKAGE_CATEGORIES, type PackageCategory };

export const CATEGORY_LABELS: Record<PackageCategory, string> = {
  appetizer: "Appetizer",
  beverages: "Beverages",
  dessert: "Dessert",
  entree: "Entrée",
};

export const SORT_OPTIONS = [
  { value: "name-asc", label: "Name A - Z" },
  { value: "name-desc", label: "Name Z - A" },
  { value: "price-asc", label: "Price Low - High" },
  { value: "price-desc", label: "Price High - Low" },
] as const;
export type PackageSort = (typeof SORT_OPTIONS)[number]["value"];

export type HomeFilters = { q: string; sort: PackageSort; category: PackageCategory | "" };

/** Home's URL state; anything unknown falls back to the defaults (no filter, Name A - Z). */
export function parseHomeFilters(params: URLSearchParams): HomeFilters {
  const sort = SORT_OPTIONS.find((o) => o.value === params.get("sort"))?.value ?? "name-asc";
  const category = PACKAGE_CATEGORIES.find((c) => c === params.get("category")) ?? "";
  return { q: (params.get("q") ?? "").trim().slice(0, 100), sort, category };
}

export const packageTitle = (name: string) => `${name} SMS Credits`;

/** Most of one package a single cart line may hold. */
export const MAX_LINE_QUANTITY = 1000;

/** Package images must be under 1,024,000 bytes (the spec's "1 MB"). */
export const MAX_IMAGE_BYTES = 1_024_000;
/** Larger sides are refused: a tiny file can declare a huge bitmap (a decompression bomb). */
export const MAX_IMAGE_SIDE = 10_000;

export const IMAGE_MESSAGES = {
  required: "Please upload an image",
  type: "File Must be in jpeg, jpg or png",
  size: "File Must be less than 1 MB",
  dimensions: `Image must be at most ${MAX_IMAGE_SIDE.toLocaleString("en-US")} pixels on each side`,
  damaged: "This image file is damaged or holds more than a picture: save it again from an image editor",
  markup: "This image file holds text such as a script or web page: save it again from an image editor",
  unreadable: "The upload could not be read: choose the image again and save",
} as const;

/** "40", "40.5" or "40.50" dollars to integer cents, without floating point. */
export function dollarsToCents(value: string): number | null {
  const match = /^(\d{1,6})(?:\.(\d{1,2}))?$/.exec(value.trim().replace(/^\$/, ""));
  if (!match) return null;
  return Number(match[1]) * 100 + Number((match[2] ?? "").padEnd(2, "0"));
}

export const centsToDollarInput = (cents: number) => (cents / 100).toFixed(2);

export const DEMO_PACKAGE_NOTICE = "Creating, updating and deleting menu items is disabled in this demo.";
