// Once per Vitest run: a migrated template database, one Redis on a free port and a private PostgreSQL cluster.
import Database from "better-sqlite3";
import { drizzle } from "drizzle-orm/better-sqlite3";
import { migrate } from "drizzle-orm/better-sqlite3/migrator";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import type { TestProject } from "vitest/node";
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
  const dir = mkdtempSync(join(tmpdir(), "smsgw-vitest-"));
  const templateDb = join(dir, "template.db");
  const sqlite = new Database(templateDb);
  migrate(drizzle({ client: sqlite }), { migrationsFolder: resolve("drizzle") });
  sqlite.pragma("journal_mode = DELETE");
  sqlite.close();

  const redis = await startTestRedis(dir);
  const postgres = startTestCluster();
  project.provide("templateDb", templateDb);
  project.provide("redisUrl", redis.url);
  project.provide("postgresAdminUrl", postgres.adminUrl);

  return async () => {
    await redis.stop();
    postgres.stop();
    rmSync(dir, { recursive: true, force: true });
  };
}
