// The job schedulers (the reconcilers, housekeeping) live in Redis. A Redis that comes back empty (a
// restart without its files, a new machine, a flush) has none, and until a worker started again no
// reconciler ran: a message whose send job was lost stayed queued for good. So each worker checks a
// marker key, set before the schedulers are upserted, and upserts them again when it is gone; then each
// job definition's onRedisEmptied runs (the outbox's jobs added again at once, not after its grace).
import { getQueue } from "#app/queue/queues.server.ts";
import { redisForRequest, redisKey } from "#app/queue/redis.server.ts";
import { log } from "#app/utils/log.server.ts";
import type { JobDefinition } from "#worker/job-definition.ts";

/** How often a worker looks for the marker: a Redis that came back empty has its reconcilers again within this. */
export const SCHEDULERS_CHECK_MS = 5_000;

const armedKey = () => redisKey("job-schedulers-armed");

/**
 * Upserts every job scheduler of `definitions` (idempotent), after setting the marker: a Redis emptied
 * while this runs loses the marker too, so the check arms them all again.
 */
export async function armJobSchedulers(definitions: JobDefinition[]): Promise<void> {
  await redisForRequest().set(armedKey(), "1");
  for (const definition of definitions) {
    for (const schedule of definition.schedules ?? []) {
      await getQueue(definition.queue).upsertJobScheduler(
        schedule.id,
        "every" in schedule ? { every: schedule.every } : { pattern: schedule.pattern, tz: "UTC" },
        // Each run would otherwise stay in Redis for good (1,440 a day for a one-minute job).
        {
          name: schedule.id,
          data: schedule.data,
          opts: { removeOnComplete: true, removeOnFail: { age: 7 * 24 * 3600 } },
        },
      );
    }
  }
}

/**
 * Arms the schedulers again whenever the marker is gone, then runs every onRedisEmptied; one round
 * that failed part way (Redis or the database away) is tried again whole.
 */
export function watchJobSchedulers(definitions: JobDefinition[], everyMs = SCHEDULERS_CHECK_MS) {
  let checking = false;
  let unfinished = false;
  const check = async () => {
    if (checking) return;
    checking = true;
    try {
      if (!unfinished && (await redisForRequest().exists(armedKey())) === 1) return;
      if (!unfinished)
        log("warn", "worker", "Redis has lost the job schedulers (it came back empty); adding them again");
      unfinished = true;
      await armJobSchedulers(definitions);
      for (const definition of definitions) await definition.onRedisEmptied?.();
      unfinished = false;
    } catch {
      // Redis or the database is away: its connection has said so, and the next check tries again.
    } finally {
      checking = false;
    }
  };
  const timer = setInterval(() => void check(), everyMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
