// Once per Vitest run: a migrated template database, one Redis on a free port and a private PostgreSQL cluster.
import Database from "better-sqlite3";
import { drizzle } from "drizzle-orm/better-sqlite3";
import { migrate } from "drizzle-orm/better-sqlite3/migrator";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import type { TestProject } from "vitest/node";
import { migratePostgres } from "#app/db/postgres/migrate.server.ts";
import { startTestCluster } from "#tests/support/postgres-cluster.ts";
import { startTestRedis } from "#tests/support/redis.ts";

declare module "vitest" {
  export interface ProvidedContext {
    templateDb: string;
    redisUrl: string;
    /** The private cluster's superuser URL: files make their own databases (tests/support/postgres.ts). */
    postgresAdminUrl: string;
  }
}

export default async function setup(project: TestProject) {
  // initdb and the server's start run beside the SQLite migrations and Redis's start.
  const postgresStarting = startTestCluster();
  // A failed start is thrown where it is awaited, below, not as an unhandled rejection meanwhile.
  postgresStarting.catch(() => undefined);
  const dir = mkdtempSync(join(tmpdir(), "smsgw-vitest-"));
  const templateDb = join(dir, "template.db");
  const sqlite = new Database(templateDb);
  migrate(drizzle({ client: sqlite }), { migrationsFolder: resolve("drizzle") });
  sqlite.pragma("journal_mode = DELETE");
  sqlite.close();

  const redis = await startTestRedis(dir);
  const postgres = await postgresStarting;
  try {
    await migratePostgres(postgres.migratedTemplateUrl);
  } catch (error) {
    await postgres.stop();
    throw error;
  }
  project.provide("templateDb", templateDb);
  project.provide("redisUrl", redis.url);
  project.provide("postgresAdminUrl", postgres.adminUrl);

  return async () => {
    await redis.stop();
    await postgres.stop();
    rmSync(dir, { recursive: true, force: true });
  };
}
