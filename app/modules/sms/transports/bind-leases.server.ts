// SMPP_MAX_BINDS: the deployment's cap on open SMPP sessions, across every worker of every host
// (carriers cap binds per account and refuse or drop the extra ones). Each session holds one of
// SMPP_MAX_BINDS lease slots in Redis while it is open (decision 129).
import { randomUUID } from "node:crypto";
import { getRedis, redisKey } from "#app/queue/redis.server.ts";

/** A lease lapses this long after its holder last renewed it: a worker killed frees its slots by then. */
const LEASE_TTL_MS = 30_000;

// Only the holder's token renews or frees a slot: one that lapsed and was taken is not touched.
const RENEW = `if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("pexpire", KEYS[1], ARGV[2]) end return 0`;
const RELEASE = `if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) end return 0`;

/** One session's claim on a slot: taken before it connects, kept while it is open, given back when it closes. */
export type BindLease = {
  /** Takes a free slot (true), or false when all are held (or Redis does not answer). */
  take(): Promise<boolean>;
  /** Gives the slot back (nothing when none is held). */
  release(): Promise<void>;
};

/**
 * The lease of one session under a fleet-wide cap of `max` slots. `onLost` is called when a renewal
 * finds the slot gone (Redis lost it, or this process stalled past the TTL): the session must close,
 * since another may hold the slot now.
 */
export function fleetBindLease(max: number, onLost: () => void, ttlMs = LEASE_TTL_MS): BindLease {
  const token = randomUUID();
  let held: string | undefined;
  let renewal: NodeJS.Timeout | undefined;
  const stopRenewing = () => {
    clearInterval(renewal);
    renewal = undefined;
  };
  return {
    async take() {
      if (held) return true;
      try {
        for (let slot = 0; slot < max; slot++) {
          const key = redisKey("smpp", "bind-lease", slot);
          if ((await getRedis().set(key, token, "PX", ttlMs, "NX")) !== "OK") continue;
          held = key;
          renewal = setInterval(() => {
            void getRedis()
              .eval(RENEW, 1, key, token, ttlMs)
              .then((renewed) => {
                if (renewed === 1 || held !== key) return;
                held = undefined;
                stopRenewing();
                onLost();
              })
              .catch(() => {
                // Redis away: the next renewal tries again; the TTL decides if it stays away.
              });
          }, ttlMs / 3);
          renewal.unref();
          return true;
        }
      } catch {
        // No answer from Redis: no slot, so no session beyond the cap; the caller tries again later.
      }
      return false;
    },
    async release() {
      const key = held;
      if (!key) return;
      held = undefined;
      stopRenewing();
      await getRedis()
        .eval(RELEASE, 1, key, token)
        .catch(() => undefined);
    },
  };
}
