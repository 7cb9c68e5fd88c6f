// Opaque page cursors: clients pass back what they were given, so the paging scheme can change
// without breaking them. Each list has its own kind, so one list's cursor is refused by another.
import type { z } from "zod";
import { ApiError } from "#app/api/errors.ts";

export function encodeCursor(kind: string, position: unknown): string {
  return Buffer.from(`${kind}:${JSON.stringify(position)}`).toString("base64url");
}

export function decodeCursor<T>(kind: string, cursor: string, schema: z.ZodType<T>): T {
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
