import { checkDatabase } from "#app/modules/health/health.server.ts";
import { HEARTBEAT_FRESH_MS, readHeartbeats, type WorkerBeat } from "#app/modules/health/heartbeat.server.ts";
import { sqlText, statements } from "#app/db/statements.server.ts";
import { queueDepths, type QueueState } from "#app/queue/queue-depth.server.ts";
import { redisForRequest } from "#app/queue/redis.server.ts";

const queries = statements({
  countByStatus: sqlText<[], { status: string; messages: number }>(
    "select status, count(*) as messages from sms_messages group by status",
  ),
});

// Counting a large message table takes a while: a scrape every few seconds reuses the last count.
const MESSAGE_COUNT_TTL_MS = 30_000;
let messageCounts: { at: number; rows: { status: string; messages: number }[] } | undefined;

async function messagesByStatus(now: number) {
  if (!messageCounts || now - messageCounts.at > MESSAGE_COUNT_TTL_MS) {
    messageCounts = { at: now, rows: await queries.countByStatus.all() };
  }
  return messageCounts.rows;
}

/** What GET /metrics reports of the whole deployment; the parts that fail are left out, their `up` 0. */
export type GatewaySnapshot = {
  sqliteUp: boolean;
  redisUp: boolean;
  /** Outbound messages by status (SQLite is the record). */
  messages: { status: string; messages: number }[];
  queues: { queue: string; state: QueueState; jobs: number }[];
  /** The worker processes that beat in the last 30 s, by id. */
  workers: Map<string, WorkerBeat>;
};

export async function gatewaySnapshot(now = Date.now()): Promise<GatewaySnapshot> {
  const snapshot: GatewaySnapshot = { sqliteUp: false, redisUp: false, messages: [], queues: [], workers: new Map() };
  try {
    await checkDatabase();
    snapshot.sqliteUp = true;
    snapshot.messages = await messagesByStatus(now);
  } catch {
    // Reported as sqlite_up 0; /readyz and the log say more.
  }
  try {
    await redisForRequest().ping();
    snapshot.redisUp = true;
    snapshot.queues = await queueDepths();
    for (const [id, beat] of await readHeartbeats(now))
      if (now - beat.at <= HEARTBEAT_FRESH_MS) snapshot.workers.set(id, beat);
  } catch {
    // Reported as redis_up 0.
  }
  return snapshot;
}
