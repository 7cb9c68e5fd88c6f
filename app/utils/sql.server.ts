import { type SQL, type SQLWrapper, sql } from "drizzle-orm";

/** `expression LIKE '%term%'` with the term's own % and _ taken literally. */
export function likeContains(expression: SQLWrapper | SQL, term: string): SQL {
  const pattern = `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  return sql`${expression} like ${pattern} escape '\\'`;
}
