import { statement } from "#app/db/statements.server.ts";

const selectOne = statement("select 1");

/** Throws when SQLite does not answer (GET /readyz). */
export function checkDatabase(): void {
  selectOne().get();
}

const pageCount = statement<[], { n: number }>("select page_count as n from pragma_page_count()");
const pageSize = statement<[], { n: number }>("select page_size as n from pragma_page_size()");
const freePages = statement<[], { n: number }>("select freelist_count as n from pragma_freelist_count()");

/** The database file's size and how much of it is free pages (reused by new rows; VACUUM would return them). */
export function databaseSize(): { bytes: number; freeBytes: number } {
  const size = pageSize().get()!.n;
  return { bytes: pageCount().get()!.n * size, freeBytes: freePages().get()!.n * size };
}
