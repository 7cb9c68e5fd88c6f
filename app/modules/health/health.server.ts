import { statement } from "#app/db/statements.server.ts";

const selectOne = statement("select 1");

/** Throws when SQLite does not answer (GET /readyz). */
export function checkDatabase(): void {
  selectOne().get();
}
