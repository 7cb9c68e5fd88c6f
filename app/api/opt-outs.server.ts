// Opt-outs as the REST API shows them, on the opt-outs module's own functions (the Opt-outs
// screen's rules: the account's own numbers can be added and removed, keyword ones only listed).
import { z } from "zod";
import {
  addOptOuts,
  findOwnOptOut,
  listOptOutsBefore,
  type OptOut,
  removeOptOut,
} from "#app/modules/opt-outs/opt-outs.server.ts";
import { decodeCursor, encodeCursor } from "#app/api/cursor.server.ts";
import type { ApiOptOut } from "#app/api/schemas.ts";

const CURSOR = "o1";
const CursorPosition = z.int().positive().max(Number.MAX_SAFE_INTEGER);

function present(row: OptOut): ApiOptOut {
  return {
    id: row.id,
    phone: row.phone,
    source: row.source,
    sender: row.source === "keyword" && row.scope ? row.scope : null,
    keyword: row.keyword,
    createdAt: row.createdAt.toISOString(),
  };
}

export function listApiOptOuts(userId: number, query: { cursor?: string; limit: number }) {
  const before =
    query.cursor === undefined ? Number.MAX_SAFE_INTEGER : decodeCursor(CURSOR, query.cursor, CursorPosition);
  // One row more than asked says whether there is a next page.
  const rows = listOptOutsBefore(userId, before, query.limit + 1);
  const page = rows.slice(0, query.limit);
  return {
    data: page.map(present),
    nextCursor: rows.length > query.limit ? encodeCursor(CURSOR, page[page.length - 1].id) : null,
  };
}

/** Adds a number to the account's own list; one already there answers as it is (`created: false`). */
export function createApiOptOut(userId: number, phone: string): { optOut: ApiOptOut; created: boolean } {
  const created = addOptOuts(userId, [phone], "manual") > 0;
  return { optOut: present(findOwnOptOut(userId, phone)!), created };
}

export function deleteApiOptOut(userId: number, id: number): ApiOptOut {
  return present(removeOptOut(userId, id));
}
