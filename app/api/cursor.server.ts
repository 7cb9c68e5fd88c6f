// Opaque page cursors: clients pass back what they were given, so the paging scheme can change
// without breaking them. Each list has its own kind, so one list's cursor is refused by another.
import { z } from "zod";
import { ApiError } from "#app/api/errors.ts";
import type { NamePosition } from "#app/modules/contacts/contacts.server.ts";

function encodeCursor(kind: string, position: unknown): string {
  return Buffer.from(`${kind}:${JSON.stringify(position)}`).toString("base64url");
}

function decodeCursor<T>(kind: string, cursor: string, schema: z.ZodType<T>): T {
  const text = Buffer.from(cursor, "base64url").toString("utf8");
  if (text.startsWith(`${kind}:`)) {
    let position: unknown;
    try {
      position = JSON.parse(text.slice(kind.length + 1));
    } catch {
      position = undefined;
    }
    const result = schema.safeParse(position);
    if (result.success) return result.data;
  }
  throw new ApiError("invalid_request", "cursor is not one this API gave out", { field: "cursor" });
}

// Lists in name order (contacts, groups) page on the last row's name and id.
const Position = z.tuple([z.string().max(1_000), z.int().positive().max(Number.MAX_SAFE_INTEGER)]);

export function readNamePosition(kind: string, cursor: string | undefined): NamePosition | null {
  if (cursor === undefined) return null;
  const [name, id] = decodeCursor(kind, cursor, Position);
  return { name, id };
}

/** One row more than asked says whether there is a next page. */
export function namePage<T extends { id: number; name: string }, U>(
  kind: string,
  rows: T[],
  limit: number,
  present: (row: T) => U,
) {
  const shown = rows.slice(0, limit);
  const last = shown[shown.length - 1];
  return {
    data: shown.map(present),
    nextCursor: rows.length > limit ? encodeCursor(kind, [last.name, last.id]) : null,
  };
}

// Lists newest first page on the last row's id.
const IdPosition = z.int().positive().max(Number.MAX_SAFE_INTEGER);

/** The id to list before: the cursor's, or past every id on the first page. */
export function readIdPosition(kind: string, cursor: string | undefined): number {
  return cursor === undefined ? Number.MAX_SAFE_INTEGER : decodeCursor(kind, cursor, IdPosition);
}

/** One row more than asked says whether there is a next page. */
export function idPage<T extends { id: number }, U>(kind: string, rows: T[], limit: number, present: (row: T) => U) {
  const shown = rows.slice(0, limit);
  return {
    data: shown.map(present),
    nextCursor: rows.length > limit ? encodeCursor(kind, shown[shown.length - 1].id) : null,
  };
}
