// CSV import of contacts: upload, preview with a column mapping, then import in batches with a report.
import { parse } from "csv-parse/sync";
import { randomUUID } from "node:crypto";
import { and, desc, eq, gte, lt } from "drizzle-orm";
import { getDb, withTx } from "#app/db/client.server.ts";
import { contactImports, contacts, importUploads } from "#app/db/schema/contacts.ts";
import { sqlText, statements } from "#app/db/statements.server.ts";
import { clock } from "#app/utils/clock.server.ts";
import { getEnv } from "#app/utils/env.server.ts";
import { formatNumber } from "#app/utils/misc.ts";
import { emailField } from "#app/modules/auth/schemas.ts";
import { optionalTimeZoneField } from "#app/modules/quiet-hours/time-zone-field.ts";
import { assertQuota, QuotaExceededError, quotaRoom } from "#app/modules/quotas/quotas.server.ts";
import { normalizePhone } from "#app/modules/messaging/phone.ts";
import { NotFoundError } from "#app/modules/contacts/errors.ts";
import { listGroupChoices } from "#app/modules/contacts/groups.server.ts";
import {
  IMPORT_FIELDS,
  type ImportField,
  type ImportMapping,
  type ImportReport,
} from "#app/modules/contacts/import.ts";
import { contactNameField, groupNameField } from "#app/modules/contacts/schemas.ts";

/** Rows per write transaction. */
const IMPORT_BATCH = 1_000;
/** Skipped rows kept in the report (all are counted). */
const IMPORT_REPORT_ROWS = 1_000;
/** Uploads never imported are removed after this. */
const UPLOAD_TTL_MS = 24 * 3600 * 1000;
const PREVIEW_ROWS = 5;
/** A contacts file needs four columns; more than this is the wrong file (or separator), refused at its first row. */
export const IMPORT_MAX_COLUMNS = 50;
/** Characters in one row's cells together. */
const IMPORT_MAX_ROW_CHARS = 10_000;
/** The separator is guessed from this much of the first line. */
const DELIMITER_SAMPLE_CHARS = 10_000;

/** The file cannot be used: empty, not text, not CSV, too large. The message says which. */
export class ImportFileError extends Error {
  readonly code = "import_file";
  constructor(message: string) {
    super(message);
    this.name = "ImportFileError";
  }
}

const staleBefore = () => new Date(clock.now() - UPLOAD_TTL_MS);

/** Removes every user's uploads older than UPLOAD_TTL_MS (previews that were never imported). */
async function sweepStaleUploads(): Promise<void> {
  await getDb().delete(importUploads).where(lt(importUploads.createdAt, staleBefore())).run();
}

function decode(bytes: Uint8Array): string {
  if (bytes.includes(0)) throw new ImportFileError("This file is not a CSV file (it holds binary data).");
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    // Spreadsheet programs on Windows still save CSV in this code page.
    return new TextDecoder("windows-1252").decode(bytes);
  }
}

/** The most frequent of , ; tab | in the first line (a comma when none appears). */
function guessDelimiter(text: string): string {
  const sample = text.slice(0, DELIMITER_SAMPLE_CHARS);
  const firstLine = sample.slice(0, sample.search(/\r?\n|$/));
  let best = ",";
  let bestCount = 0;
  for (const candidate of [",", ";", "\t", "|"]) {
    const found = firstLine.split(candidate).length - 1;
    if (found > bestCount) [best, bestCount] = [candidate, found];
  }
  return best;
}

type ParsedRow = { line: number; cells: string[] };

/**
 * Every cell passes here as it is read, so a file past the caps is refused at the first cell over
 * them: the parser never reads (and the preview never lays out) the rest of such a row or file.
 */
function capCell(cell: string, at: { index: number; records: number; lines: number }): string {
  if (at.index >= IMPORT_MAX_COLUMNS) {
    throw new ImportFileError(
      `Row ${formatNumber(at.lines)} has more than ${IMPORT_MAX_COLUMNS} columns. A contacts file needs a few (name, phone number, ` +
        "email, group): check that this is the right file and that its cells are separated by commas, semicolons or tabs.",
    );
  }
  if (at.records >= getEnv().CSV_IMPORT_MAX_ROWS) {
    throw new ImportFileError(
      `The file has more than ${formatNumber(getEnv().CSV_IMPORT_MAX_ROWS)} rows, the most one import takes. Split it into smaller files.`,
    );
  }
  return cell;
}

function parseCsv(text: string): ParsedRow[] {
  try {
    const records = parse(text, {
      bom: true,
      cast: capCell,
      delimiter: guessDelimiter(text.replace(/^\uFEFF/, "")),
      info: true,
      max_record_size: IMPORT_MAX_ROW_CHARS,
      relax_column_count: true,
      skip_empty_lines: true,
      trim: true,
    }) as unknown as { record: string[]; info: { lines: number } }[];
    return records.map(({ record, info }) => ({ line: info.lines, cells: record }));
  } catch (error) {
    if (error instanceof ImportFileError) throw error;
    const { code, lines } = error as { code?: string; lines?: number };
    if (code === "CSV_MAX_RECORD_SIZE") {
      throw new ImportFileError(
        `Row ${formatNumber(lines ?? 1)} is longer than ${formatNumber(IMPORT_MAX_ROW_CHARS)} characters: a contacts file has short rows. ` +
          "Check that this is the right file.",
      );
    }
    throw new ImportFileError(`This file could not be read as CSV: ${(error as Error).message}`);
  }
}

export type PendingUpload = { token: string; fileName: string; uploadedAt: number };

/** The user's uploads not yet imported or discarded, newest first. */
export async function listPendingUploads(userId: number): Promise<PendingUpload[]> {
  const rows = await getDb()
    .select({ token: importUploads.token, fileName: importUploads.fileName, uploadedAt: importUploads.createdAt })
    .from(importUploads)
    .where(and(eq(importUploads.userId, userId), gte(importUploads.createdAt, staleBefore())))
    .orderBy(desc(importUploads.createdAt))
    .all();
  return rows.map((row) => ({ ...row, uploadedAt: row.uploadedAt.getTime() }));
}

/**
 * Keeps an uploaded CSV in the database for the preview (any web process reads it) and returns its
 * token. Throws ImportFileError for an unusable file, QuotaExceededError when QUOTA_PENDING_UPLOADS
 * files already wait: counted in the transaction that adds the row, so two uploads at once on any
 * hosts cannot both take the last place.
 */
export async function saveImportUpload(userId: number, fileName: string, bytes: Uint8Array): Promise<string> {
  if (bytes.byteLength === 0) throw new ImportFileError("The file is empty.");
  if (bytes.byteLength > getEnv().CSV_IMPORT_MAX_BYTES) {
    throw new ImportFileError(`The file is larger than ${Math.floor(getEnv().CSV_IMPORT_MAX_BYTES / 1_000_000)} MB.`);
  }
  const rows = parseCsv(decode(bytes));
  if (rows.length === 0) throw new ImportFileError("The file has no rows.");
  await sweepStaleUploads();
  const token = randomUUID();
  await withTx(async (tx) => {
    await assertQuota(tx, userId, "pendingUploads");
    await tx
      .insert(importUploads)
      .values({
        token,
        userId,
        fileName: fileName.slice(0, 200) || "contacts.csv",
        bytes: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength),
        createdAt: new Date(clock.now()),
      })
      .run();
  });
  return token;
}

/** Another user's token finds nothing, as an unknown one. */
const ownUpload = (userId: number, token: string) =>
  and(eq(importUploads.token, token), eq(importUploads.userId, userId));

/** One of the user's uploads, unless it is older than UPLOAD_TTL_MS (the next upload's sweep removes it). */
const ownFreshUpload = (userId: number, token: string) =>
  and(ownUpload(userId, token), gte(importUploads.createdAt, staleBefore()));

async function readUpload(userId: number, token: string): Promise<{ fileName: string; rows: ParsedRow[] } | null> {
  const upload = await getDb()
    .select({ fileName: importUploads.fileName, bytes: importUploads.bytes })
    .from(importUploads)
    .where(ownFreshUpload(userId, token))
    .get();
  return upload ? { fileName: upload.fileName, rows: parseCsv(decode(upload.bytes)) } : null;
}

export async function discardImportUpload(userId: number, token: string): Promise<void> {
  await getDb().delete(importUploads).where(ownUpload(userId, token)).run();
}

const HEADER_WORDS: Record<ImportField, RegExp> = {
  name: /^(full[ _-]?)?name$|^contact$/i,
  phone: /phone|mobile|cell|number|msisdn|tel/i,
  email: /e-?mail/i,
  group: /group|list|tag/i,
  timeZone: /time[ _-]?zone|^tz$/i,
};

export type ImportPreview = {
  token: string;
  fileName: string;
  /** Rows in the file, the first one included. */
  rows: number;
  /** "Column 1: Name" or "Column 1" for each column of the widest of the first rows. */
  columns: string[];
  sample: string[][];
  /** A guess from the first row's words: whether it is a header, and which column holds what. */
  guess: Partial<ImportMapping> & { hasHeader: boolean };
};

/** What the preview screen shows; null when the token is not one of the user's uploads. */
export async function previewImport(userId: number, token: string): Promise<ImportPreview | null> {
  const upload = await readUpload(userId, token);
  if (!upload) return null;
  const sample = upload.rows.slice(0, PREVIEW_ROWS + 1).map((r) => r.cells);
  const header = sample[0] ?? [];
  const width = Math.max(...sample.map((cells) => cells.length));
  const guess: ImportPreview["guess"] = { hasHeader: false };
  for (const { key } of IMPORT_FIELDS) {
    const index = header.findIndex((cell, i) => HEADER_WORDS[key].test(cell) && !Object.values(guess).includes(i));
    if (index >= 0) {
      guess[key] = index;
      guess.hasHeader = true;
    }
  }
  const columns = Array.from({ length: width }, (_, i) =>
    guess.hasHeader && header[i] ? `Column ${i + 1}: ${header[i]}` : `Column ${i + 1}`,
  );
  return { token, fileName: upload.fileName, rows: upload.rows.length, columns, sample, guess };
}

type ValidRow = { line: number; name: string; phone: string; email: string; timeZone: string | null; groups: string[] };

function firstError(result: { success: boolean; error?: { issues: { message: string }[] } }): string | null {
  return result.success ? null : (result.error?.issues[0]?.message ?? "is invalid");
}

/** Cells holding several groups separate them with ; or |. */
function splitGroupNames(cell: string): string[] {
  return cell
    .split(/[;|]/)
    .map((name) => name.trim())
    .filter(Boolean);
}

function validateRow(row: ParsedRow, mapping: ImportMapping): ValidRow | { line: number; reason: string } {
  const cell = (index: number | undefined) => (index === undefined ? "" : (row.cells[index] ?? ""));
  const reasons: string[] = [];
  const name = contactNameField.safeParse(cell(mapping.name));
  const email = emailField.safeParse(cell(mapping.email));
  const rawPhone = cell(mapping.phone);
  const phone = rawPhone
    ? normalizePhone(rawPhone, getEnv().DEFAULT_COUNTRY)
    : { ok: false as const, error: "Phone number is required" };
  const groups = splitGroupNames(cell(mapping.group));
  const timeZone = optionalTimeZoneField.safeParse(cell(mapping.timeZone));
  for (const error of [firstError(name), phone.ok ? null : phone.error, firstError(email), firstError(timeZone)])
    if (error) reasons.push(error);
  for (const group of groups) {
    const error = firstError(groupNameField.safeParse(group));
    if (error) reasons.push(error);
  }
  if (reasons.length > 0 || !name.success || !email.success || !phone.ok || !timeZone.success)
    return { line: row.line, reason: reasons.join("; ") };
  return { line: row.line, name: name.data, phone: phone.e164, email: email.data, timeZone: timeZone.data, groups };
}

const queries = statements({
  upsertContact: sqlText<[number, string, string, string, string | null, number, number], { id: number }>({
    sqlite: `insert into contacts (user_id, name, phone, email, time_zone, status, created_at, updated_at) values (?, ?, ?, ?, ?, 1, ?, ?)
   on conflict (user_id, phone) do update set name = excluded.name, email = excluded.email,
     time_zone = coalesce(excluded.time_zone, time_zone), updated_at = excluded.updated_at
   returning id`,
    postgres: `insert into contacts as c (user_id, name, phone, email, time_zone, status, created_at, updated_at)
   values ($1, $2, $3, $4, $5, true, $6, $7)
   on conflict (user_id, phone) do update set name = excluded.name, email = excluded.email,
     time_zone = coalesce(excluded.time_zone, c.time_zone), updated_at = excluded.updated_at
   returning id`,
  }),
  insertGroup: sqlText<[number, string, string, number, number], { id: number }>(
    "insert into contact_groups (user_id, name, description, created_at, updated_at) values (?, ?, ?, ?, ?) returning id",
  ),
  insertMember: sqlText<[number, number]>(
    "insert into contact_group_members (group_id, contact_id) values (?, ?) on conflict do nothing",
  ),
});

/**
 * Imports an uploaded CSV with the given column mapping: a row with a new phone number becomes a
 * contact (active), one with a number the user already has updates that contact's name and email;
 * groups named in the group column are joined (and created when missing). Rows that fail the
 * create-contact rules, or repeat a phone number of an earlier row, are skipped with the reason, as
 * are new contacts past QUOTA_CONTACTS and rows naming a new group past QUOTA_GROUPS.
 * Writes IMPORT_BATCH rows per transaction, saves the report and deletes the upload. Throws
 * NotFoundError when the token is not one of the user's uploads.
 */
export async function runImport(userId: number, token: string, mapping: ImportMapping): Promise<ImportReport> {
  const upload = await readUpload(userId, token);
  if (!upload) throw new NotFoundError("import");
  const dataRows = mapping.hasHeader ? upload.rows.slice(1) : upload.rows;

  const skipped: { row: number; reason: string }[] = [];
  const valid: ValidRow[] = [];
  const seen = new Map<string, number>();
  for (const row of dataRows) {
    const result = validateRow(row, mapping);
    if ("reason" in result) {
      skipped.push({ row: result.line, reason: result.reason });
      continue;
    }
    const earlier = seen.get(result.phone);
    if (earlier !== undefined) {
      skipped.push({ row: result.line, reason: `Same phone number as row ${earlier}` });
      continue;
    }
    seen.set(result.phone, result.line);
    valid.push(result);
  }

  const existing = new Set(
    (await getDb().select({ phone: contacts.phone }).from(contacts).where(eq(contacts.userId, userId)).all()).map(
      (r) => r.phone,
    ),
  );
  const groupIds = new Map((await listGroupChoices(userId)).map((g) => [g.name.toLowerCase(), g.id]));
  const now = clock.now();
  const missingGroups = new Map<string, string>();
  for (const row of valid)
    for (const name of row.groups) if (!groupIds.has(name.toLowerCase())) missingGroups.set(name.toLowerCase(), name);

  await withTx(async () => {
    let room = await quotaRoom(getDb(), userId, "groups");
    for (const [key, name] of missingGroups) {
      if (room-- <= 0) break;
      groupIds.set(
        key,
        (await queries.insertGroup.get(userId, name, `Imported from ${upload.fileName}`, now, now))!.id,
      );
    }
  });
  // Past a quota the rest is skipped with the reason, and what fitted is imported (decision 012).
  const groupsFull = new QuotaExceededError("groups").message;
  const contactsFull = new QuotaExceededError("contacts").message;
  const writable = valid.filter((row) => {
    const missing = row.groups.find((name) => !groupIds.has(name.toLowerCase()));
    if (missing !== undefined)
      skipped.push({ row: row.line, reason: `Group "${missing}" was not created. ${groupsFull}` });
    return missing === undefined;
  });
  let imported = 0;
  let updated = 0;
  for (let start = 0; start < writable.length; start += IMPORT_BATCH) {
    const batch = writable.slice(start, start + IMPORT_BATCH);
    // Counted inside and kept after the commit: on PostgreSQL a transaction may run more than once.
    const done = await withTx(async () => {
      const counts = { imported: 0, updated: 0, full: [] as number[] };
      let room = await quotaRoom(getDb(), userId, "contacts");
      for (const row of batch) {
        const isNew = !existing.has(row.phone);
        if (isNew && room <= 0) {
          counts.full.push(row.line);
          continue;
        }
        const { id } = (await queries.upsertContact.get(
          userId,
          row.name,
          row.phone,
          row.email,
          row.timeZone,
          now,
          now,
        ))!;
        for (const group of row.groups) await queries.insertMember.run(groupIds.get(group.toLowerCase())!, id);
        if (isNew) {
          room--;
          counts.imported++;
        } else counts.updated++;
      }
      return counts;
    });
    imported += done.imported;
    updated += done.updated;
    for (const line of done.full) skipped.push({ row: line, reason: contactsFull });
  }

  skipped.sort((a, b) => a.row - b.row);
  // The report and the upload's removal commit together: a saved report never leaves its file waiting.
  const saved = await withTx(async (tx) => {
    await tx.delete(importUploads).where(ownUpload(userId, token)).run();
    return tx
      .insert(contactImports)
      .values({
        userId,
        fileName: upload.fileName,
        rows: dataRows.length,
        imported,
        updated,
        skipped: skipped.length,
        skippedRows: JSON.stringify(skipped.slice(0, IMPORT_REPORT_ROWS)),
        createdAt: new Date(now),
      })
      .returning({ id: contactImports.id })
      .get();
  });
  return (await getImportReport(userId, saved.id))!;
}

/** One of the user's import reports; null when it is not the user's. */
export async function getImportReport(userId: number, importId: number): Promise<ImportReport | null> {
  const row = await getDb()
    .select()
    .from(contactImports)
    .where(and(eq(contactImports.id, importId), eq(contactImports.userId, userId)))
    .get();
  if (!row) return null;
  const { id, fileName, rows, imported, updated, skipped } = row;
  return {
    id,
    fileName,
    rows,
    imported,
    updated,
    skipped,
    skippedRows: JSON.parse(row.skippedRows) as ImportReport["skippedRows"],
  };
}
