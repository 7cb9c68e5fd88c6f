import { migrationsApplied } from "#app/db/migrate.server.ts";
import { checkDatabase } from "#app/modules/health/health.server.ts";
import { HEARTBEAT_FRESH_MS, readHeartbeats } from "#app/modules/health/heartbeat.server.ts";
import { redisForRequest } from "#app/queue/redis.server.ts";
import { getEnv } from "#app/utils/env.server.ts";

// A Redis that does not answer in this time counts as unreachable (a probe must answer quickly).
const REDIS_CHECK_MS = 1_000;

/** Short, fixed reasons: anyone may ask /readyz, so they name what is wrong, never an internal error. */
const NOT_READY = {
  database: "database unreachable",
  migrations: "database migrations not applied",
  redis: "redis unreachable",
  worker: "no worker heartbeat in the last 30 s",
  smpp: "no SMPP bind up",
} as const;

export type Readiness = { ready: boolean; reasons: string[]; causes: string[] };

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, fail) => {
    timer = setTimeout(() => fail(new Error(`no answer in ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/**
 * Whether this deployment can take work (GET /readyz): SQLite answers with every migration applied,
 * Redis answers, some worker process beat within HEARTBEAT_FRESH_MS, and with SMPP configured
 * one of those has a bind up. `causes` are the internal details, for the log only.
 */
export async function checkReadiness(now = Date.now()): Promise<Readiness> {
  const reasons: string[] = [];
  const causes: string[] = [];
  const fail = (reason: string, error?: unknown) => {
    reasons.push(reason);
    causes.push(error ? `${reason}: ${(error as Error).message}` : reason);
  };
  try {
    await checkDatabase();
    if (!(await migrationsApplied())) fail(NOT_READY.migrations);
  } catch (error) {
    fail(NOT_READY.database, error);
  }
  try {
    await withTimeout(redisForRequest().ping(), REDIS_CHECK_MS);
    const alive = [...(await withTimeout(readHeartbeats(now), REDIS_CHECK_MS)).values()].filter(
      (beat) => now - beat.at <= HEARTBEAT_FRESH_MS,
    );
    if (alive.length === 0) fail(NOT_READY.worker);
    else if (getEnv().SMS_TRANSPORT === "smpp" && !alive.some((beat) => (beat.smpp?.bound ?? 0) > 0)) {
      fail(NOT_READY.smpp);
    }
  } catch (error) {
    fail(NOT_READY.redis, error);
  }
  return { ready: reasons.length === 0, reasons, causes };
}
