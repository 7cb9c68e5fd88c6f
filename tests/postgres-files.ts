// The integration test files that also run on PostgreSQL (the vitest project "postgres"): one list,
// growing as the statements get their PostgreSQL texts (issue 32), until every database-touching
// file is in it but the few SQLite-only ones.
export const POSTGRES_FILES = [
  "tests/integration/account-security.test.ts",
  "tests/integration/allow-test-payments.test.ts",
  "tests/integration/api-openapi.test.ts",
  "tests/integration/auth.test.ts",
  "tests/integration/card-payment.test.ts",
  "tests/integration/contacts-import-form.test.ts",
  "tests/integration/contacts-import-limits.test.ts",
  "tests/integration/contacts-import.test.ts",
  "tests/integration/data-permissions.test.ts",
  "tests/integration/executor-postgres.test.ts",
  "tests/integration/fulfil.test.ts",
  "tests/integration/packages-admin.test.ts",
  "tests/integration/payment-return.test.ts",
  "tests/integration/quotas.test.ts",
  "tests/integration/rate-limits-without-redis.test.ts",
  "tests/integration/readiness.test.ts",
  "tests/integration/shop-demo.test.ts",
  "tests/integration/shop.test.ts",
  "tests/integration/support.test.ts",
];
