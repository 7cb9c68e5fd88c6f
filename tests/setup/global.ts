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

/** The run's PostgreSQL cluster, with its template database migrated (or stopped again if that fails). */
async function startPostgres() {
  const cluster = await startTestCluster();
  try {
    await migratePostgres(cluster.migratedTemplateUrl);
    return cluster;
  } catch (error) {
    await cluster.stop();
    throw error;
  }
}

export default async function setup(project: TestProject) {
  // initdb and the server's start run beside the SQLite migrations and Redis's start.
  const postgresStarting = startPostgres();
  // A failed start is thrown where it is awaited, below, not as an unhandled rejection meanwhile.
  postgresStarting.catch(() => undefined);
  const dir = mkdtempSync(join(tmpdir(), "smsgw-vitest-"));
  let redis: Awaited<ReturnType<typeof startTestRedis>>;
  try {
    const templateDb = join(dir, "template.db");
    const sqlite = new Database(templateDb);
    migrate(drizzle({ client: sqlite }), { migrationsFolder: resolve("drizzle") });
    sqlite.pragma("journal_mode = DELETE");
    sqlite.close();
    project.provide("templateDb", templateDb);
    redis = await startTestRedis(dir);
  } catch (error) {
    // No cluster left running behind a failed setup.
    await postgresStarting.then(
      (cluster) => cluster.stop(),
      () => undefined,
    );
    throw error;
  }
  const postgres = await postgresStarting.catch(async (error: unknown) => {
    await redis.stop();
    throw error;
  });
  project.provide("redisUrl", redis.url);
  project.provide("postgresAdminUrl", postgres.adminUrl);

  return async () => {
    await redis.stop();
    await postgres.stop();
    rmSync(dir, { recursive: true, force: true });
  };
}
