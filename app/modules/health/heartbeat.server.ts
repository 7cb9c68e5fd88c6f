import { hostname } from "node:os";
import type { SmsCounters } from "#app/modules/health/sms-counters.server.ts";
import { redisForRequest, redisKey } from "#app/queue/redis.server.ts";
import type { WorkCounts } from "#app/utils/work-counts.server.ts";

/** How often a worker process says it is alive, and how old its last word may be for /readyz. */
const HEARTBEAT_INTERVAL_MS = 5_000;
export const HEARTBEAT_FRESH_MS = 30_000;
// A worker gone without a goodbye (killed) is forgotten after this long.
const HEARTBEAT_FORGET_MS = 10 * 60_000;

/** The SMPP binds of one worker process: opened, bound now, and their submit window in use. */
export type SmppBindStatus = { binds: number; bound: number; window: number; inFlight: number };

/** One upstream as this worker process sees it: for the admin page (summed over workers) and /metrics. */
export type UpstreamState = {
  id: string;
  name: string;
  /** Sessions this process opens to it, and those bound now. */
  binds: number;
  bindsUp: number;
  /** submit_sm written per second, and the share of submits that were refused, unanswered or found no bind, both over the last 10 s. */
  submitsPerSecond: number;
  errorRate: number;
  /** Submits and errors of those 10 s, so that workers' rates can be summed. */
  recentSubmits: number;
  recentErrors: number;
  /** Since the process started: submit_sm written, and how they were answered. */
  submitted: number;
  accepted: number;
  refused: number;
  unanswered: number;
  /** Messages that found no bind up, and messages sent on to the next upstream of their route. */
  unbound: number;
  failedOver: number;
  lastError: string | null;
  /** Epoch ms of lastError. */
  lastErrorAt: number | null;
};

/** What a worker process publishes every few seconds (field = its id, in one Redis hash). */
export type WorkerBeat = {
  /** When it was written (the worker's clock, epoch ms). */
  at: number;
  /** null when the transport is not SMPP. */
  smpp: SmppBindStatus | null;
  /** Each upstream's binds and submits as this worker sees them, for GET /metrics and the upstreams page. */
  upstreams?: UpstreamState[];
  /** The worker's sending counters since it started, for GET /metrics. */
  counters?: SmsCounters;
  /** What the worker's work has cost since it started (statements, Redis commands...), for GET /metrics. */
  work?: WorkCounts;
};

const heartbeatKey = () => redisKey("workers", "heartbeat");

/** This process, as the heartbeat's field names it. */
export const workerId = `${hostname()}:${process.pid}`;

// The bind state is looked at this often, so that a bind going down or up reaches /readyz at once.
const CHANGE_CHECK_MS = 1_000;

/**
 * Writes this worker's beat now, every `intervalMs`, and as soon as its SMPP bind goes up or down;
 * stop() removes it, so a worker that stops cleanly stops counting at once. A beat that fails
 * (Redis down) is skipped: /readyz says so.
 */
export function startHeartbeat(describe: () => Omit<WorkerBeat, "at">, intervalMs = HEARTBEAT_INTERVAL_MS) {
  let lastAt = 0;
  let lastBound: number | undefined;
  const tick = async () => {
    const state = describe();
    const now = Date.now();
    if (now - lastAt < intervalMs && state.smpp?.bound === lastBound) return;
    lastAt = now;
    lastBound = state.smpp?.bound;
    try {
      const value: WorkerBeat = { at: now, ...state };
      await redisForRequest().hset(heartbeatKey(), workerId, JSON.stringify(value));
    } catch {
      // Redis is down: the connection has said so once, and the readiness check says so too.
    }
  };
  void tick();
  const timer = setInterval(() => void tick(), Math.min(CHANGE_CHECK_MS, intervalMs));
  timer.unref();
  return {
    stop: async () => {
      clearInterval(timer);
      try {
        await redisForRequest().hdel(heartbeatKey(), workerId);
      } catch {
        // Redis is down: the beat ages out instead.
      }
    },
  };
}

/** Every worker's last beat, the long-silent ones removed. */
export async function readHeartbeats(now = Date.now()): Promise<Map<string, WorkerBeat>> {
  const fields = await redisForRequest().hgetall(heartbeatKey());
  const beats = new Map<string, WorkerBeat>();
  const forgotten: string[] = [];
  for (const [id, json] of Object.entries(fields)) {
    const beat = JSON.parse(json) as WorkerBeat;
    if (now - beat.at > HEARTBEAT_FORGET_MS) forgotten.push(id);
    else beats.set(id, beat);
  }
  if (forgotten.length > 0) await redisForRequest().hdel(heartbeatKey(), ...forgotten);
  return beats;
}
