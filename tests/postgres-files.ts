// The integration test files that also run on PostgreSQL (the vitest project "postgres"): one list,
// growing as the statements get their PostgreSQL texts (issue 32), until every database-touching
// file is in it but the few SQLite-only ones.
export const POSTGRES_FILES = [
  "tests/integration/backup-restore-postgres.test.ts",
  "tests/integration/executor-postgres.test.ts",
];

/** Files about PostgreSQL mode alone: the "sqlite" project leaves them out. */
export const POSTGRES_ONLY_FILES = [
  "tests/integration/backup-restore-postgres.test.ts",
  "tests/integration/executor-postgres.test.ts",
];
