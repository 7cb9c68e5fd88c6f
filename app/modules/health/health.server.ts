import { usesPostgres } from "#app/db/client.server.ts";
import { sqlText, statements } from "#app/db/statements.server.ts";

const queries = statements({
  one: sqlText<[], unknown>("select 1"),
  pageCount: sqlText<[], { n: number }>("select page_count as n from pragma_page_count()"),
  // PostgreSQL: the database's size; its free space inside tables is not one number to read.
  postgresSize: sqlText<[], { n: number }>("select pg_database_size(current_database()) as n"),
  pageSize: sqlText<[], { n: number }>("select page_size as n from pragma_page_size()"),
  freePages: sqlText<[], { n: number }>("select freelist_count as n from pragma_freelist_count()"),
});

/** Throws when SQLite does not answer (GET /readyz). */
export async function checkDatabase(): Promise<void> {
  await queries.one.get();
}

/** The database file's size and how much of it is free pages (reused by new rows; VACUUM would return them). */
export async function databaseSize(): Promise<{ bytes: number; freeBytes: number }> {
  if (usesPostgres()) return { bytes: (await queries.postgresSize.get())!.n, freeBytes: 0 };
  const size = (await queries.pageSize.get())!.n;
  return { bytes: (await queries.pageCount.get())!.n * size, freeBytes: (await queries.freePages.get())!.n * size };
}
