import { type SQL, type SQLWrapper, sql } from "drizzle-orm";
import { byEngine } from "#app/db/dialect.server.ts";

/**
 * `expression LIKE '%term%'` with the term's own % and _ taken literally; case-insensitive for ASCII
 * as SQLite's LIKE is (PostgreSQL's ILIKE).
 */
export function likeContains(expression: SQLWrapper | SQL, term: string): SQL {
  const pattern = `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  return byEngine({
    sqlite: sql`${expression} like ${pattern} escape '\\'`,
    postgres: sql`${expression} ilike ${pattern} escape '\\'`,
  });
}
