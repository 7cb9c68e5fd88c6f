import { sqlText, statements } from "#app/db/statements.server.ts";

const queries = statements({
  one: sqlText<[], unknown>("select 1"),
  // On PostgreSQL: the database's size as one page of that size, and no free pages counted.
  pageCount: sqlText<[], { n: number }>({
    sqlite: "select page_count as n from pragma_page_count()",
    postgres: "select 1 as n",
  }),
  pageSize: sqlText<[], { n: number }>({
    sqlite: "select page_size as n from pragma_page_size()",
    postgres: "select pg_database_size(current_database()) as n",
  }),
  freePages: sqlText<[], { n: number }>({
    sqlite: "select freelist_count as n from pragma_freelist_count()",
    postgres: "select 0 as n",
  }),
});

/** Throws when SQLite does not answer (GET /readyz). */
export async function checkDatabase(): Promise<void> {
  await queries.one.get();
}

/** The database file's size and how much of it is free pages (reused by new rows; VACUUM would return them). */
export async function databaseSize(): Promise<{ bytes: number; freeBytes: number }> {
  const size = (await queries.pageSize.get())!.n;
  return { bytes: (await queries.pageCount.get())!.n * size, freeBytes: (await queries.freePages.get())!.n * size };
}
