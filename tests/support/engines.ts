// Tests of what only SQLite has (its database files, its migrations' hand-written SQL, its reuse of a
// rolled-back id) inside files that run on both engines: marked with these, so the postgres project
// skips them and reports them skipped, and `grep -r OnSqlite tests` lists them all.
import { describe, it } from "vitest";

const onPostgres = process.env.TEST_ENGINE === "postgres";

export const itOnSqlite = it.skipIf(onPostgres);
export const describeOnSqlite = describe.skipIf(onPostgres);
