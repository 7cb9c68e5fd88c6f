// The integration test files that also run on PostgreSQL (the vitest project "postgres"): one list,
// growing as the statements get their PostgreSQL texts (issue 32), until every database-touching
// file is in it but the few SQLite-only ones.
export const POSTGRES_FILES = [
  "tests/integration/api-scheduled.test.ts",
  "tests/integration/backup-restore-postgres.test.ts",
  "tests/integration/contacts-group-send.test.ts",
  "tests/integration/executor-postgres.test.ts",
  "tests/integration/inbox.test.ts",
  "tests/integration/insight-dashboard.test.ts",
  "tests/integration/message-events-batch.test.ts",
  "tests/integration/opt-outs-keywords.test.ts",
  "tests/integration/opt-outs-send-paths.test.ts",
  "tests/integration/retention.test.ts",
  "tests/integration/scheduling-groups.test.ts",
  "tests/integration/scheduling-redis-loss.test.ts",
  "tests/integration/scheduling.test.ts",
  "tests/integration/sms-batches.test.ts",
  "tests/integration/sms-history-filters.test.ts",
  "tests/integration/sms-history.test.ts",
  "tests/integration/sms-inbound.test.ts",
  "tests/integration/sms-reconcile.test.ts",
  "tests/integration/sms-send.test.ts",
  "tests/integration/sms-smpp.test.ts",
  "tests/integration/templates.test.ts",
  "tests/integration/worker-redis-outage.test.ts",
  "tests/integration/worker-schedules.test.ts",
];

/** Files about PostgreSQL mode alone: the "sqlite" project leaves them out. */
export const POSTGRES_ONLY_FILES = [
  "tests/integration/backup-restore-postgres.test.ts",
  "tests/integration/executor-postgres.test.ts",
];
