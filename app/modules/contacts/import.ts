// Browser-safe: the CSV import's column mapping form and its report.
import { z } from "zod";
import { formatNumber, pluralize } from "#app/utils/misc.ts";

export const IMPORT_FIELDS = [
  { key: "name", label: "Name", required: true },
  { key: "phone", label: "Phone Number", required: true },
  { key: "email", label: "Email", required: true },
  { key: "group", label: "Group", required: false },
  { key: "timeZone", label: "Time Zone", required: false },
] as const;
export type ImportField = (typeof IMPORT_FIELDS)[number]["key"];

/** Which column (0-based) holds each field; `group` may be left out. */
export type ImportMapping = {
  hasHeader: boolean;
  name: number;
  phone: number;
  email: number;
  group?: number;
  timeZone?: number;
};

const column = (what: string) =>
  z.coerce
    .number({ error: `Choose the column that holds the ${what}` })
    .int()
    .min(0, `Choose the column that holds the ${what}`);

export const ImportMappingSchema = z.object({
  intent: z.literal("import"),
  token: z.uuid(),
  hasHeader: z.boolean().default(false),
  name: column("names"),
  phone: column("phone numbers"),
  email: column("email addresses"),
  group: z.coerce.number().int().min(0).optional(),
  timeZone: z.coerce.number().int().min(0).optional(),
});

export type ImportReport = {
  id: number;
  fileName: string;
  /** Data rows read (without the header). */
  rows: number;
  imported: number;
  updated: number;
  skipped: number;
  /** Row numbers are the file's line numbers, as a spreadsheet shows them. */
  skippedRows: { row: number; reason: string }[];
};

/**
 * What an import did, in a sentence. "short" (the notice after the import): "Imported 2 contacts,
 * updated 0, skipped 1."; "summary" (the report page, which names the file): "people.csv: 3 rows
 * read. Imported 2, updated 0, skipped 1."
 */
export function describeImport(
  report: Pick<ImportReport, "fileName" | "rows" | "imported" | "updated" | "skipped">,
  form: "short" | "summary",
): string {
  const rest = `updated ${formatNumber(report.updated)}, skipped ${formatNumber(report.skipped)}.`;
  if (form === "short") return `Imported ${pluralize(report.imported, "contact")}, ${rest}`;
  return `${report.fileName}: ${pluralize(report.rows, "row")} read. Imported ${formatNumber(report.imported)}, ${rest}`;
}
