// The checks of `npm run doctor` (scripts/doctor.ts), apart from printing and exiting so tests can
// run them on crafted environments with stand-ins for Redis, the disk and the clock.
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, statfsSync, statSync } from "node:fs";
import { resolve } from "node:path";
import { type PostgresFacts, readPostgresFacts } from "#app/db/postgres/facts.server.ts";
import {
  type ConfigBeat,
  differingSettings,
  readFleetConfig,
  settingDigests,
} from "#app/modules/health/fleet-config.server.ts";
import { withOwnRedis } from "#app/queue/redis.server.ts";
import { type Env, parseEnv, SETTING_NAMES } from "#app/utils/env.server.ts";

export type Level = "ok" | "warn" | "unsafe";
export type Finding = { level: Level; topic: string; message: string };

export type ClockSync = "synchronized" | "not synchronized" | "unknown";

/** What the checks ask the machine; tests give their own. */
export type Probes = {
  /** CONFIG GET of the named parameters; throws when Redis does not answer or refuses CONFIG. */
  redisConfig: (url: string, names: string[]) => Promise<Record<string, string>>;
  disk: (dir: string) => { freeBytes: number; totalBytes: number };
  clock: () => ClockSync;
  /** With DATABASE_URL: what the PostgreSQL server says (decision 128). */
  postgres: (url: string) => Promise<PostgresFacts>;
  /** Redis's clock minus this machine's, in ms. */
  redisClockOffset: (url: string) => Promise<number>;
  /** The configuration every web and worker process published in Redis. */
  fleetConfig: (url: string, queuePrefix: string) => Promise<Map<string, ConfigBeat>>;
};

/** Clocks further apart than this confuse schedules, sessions and leases across hosts. */
export const CLOCK_OFFSET_WARN_MS = 250;
export const CLOCK_OFFSET_UNSAFE_MS = 2_000;
/** Connections one process may open beyond its pool: start-up's migration and start locks. */
const CONNECTIONS_BEYOND_POOL = 1;

const GB = 1024 ** 3;
/** Below this much free space in DATA_DIR the database, WAL and backups are at risk. */
export const MIN_FREE_BYTES = 1 * GB;
export const LOW_FREE_BYTES = 5 * GB;

export async function diagnose(source: NodeJS.ProcessEnv, probes: Probes = machineProbes): Promise<Finding[]> {
  const findings: Finding[] = [];
  const add = (level: Level, topic: string, message: string) => findings.push({ level, topic, message });

  let env: Env;
  try {
    // As npm start runs it: production unless NODE_ENV says otherwise.
    env = parseEnv({ NODE_ENV: "production", ...source });
  } catch (error) {
    add("unsafe", "configuration", (error as Error).message.replace(/\n\s*/g, " "));
    return findings;
  }
  if (!env.isProduction) add("warn", "NODE_ENV", `is ${env.NODE_ENV}: npm start runs production unless told otherwise`);

  // Secrets: from the environment, or files generated in DATA_DIR that must then be backed up.
  for (const [name, file] of [
    ["SESSION_SECRET", "session-secret"],
    ["API_KEY_SECRET", "api-key-secret"],
  ] as const) {
    if (env[name]) {
      if (name === "SESSION_SECRET" && env[name]!.split(",")[0].trim().length < 32)
        add("unsafe", name, "is shorter than 32 characters: use e.g. `openssl rand -hex 32`");
      else add("ok", name, "comes from the environment");
    } else if (existsSync(resolve(env.DATA_DIR, file)))
      add("warn", name, `is the generated file ${resolve(env.DATA_DIR, file)}: back it up, or set ${name}`);
    else
      add(
        "warn",
        name,
        `is unset: the first start generates ${resolve(env.DATA_DIR, file)}; back it up, or set ${name}`,
      );
  }

  // Real SMS and real payments, nothing of test mode.
  if (env.SMS_TRANSPORT === "simulator")
    add("unsafe", "SMS_TRANSPORT", "is the simulator: no message reaches a phone (set smpp and SMPP_URL)");
  else {
    const smsc = new URL(env.SMPP_URL!.replace(/^s?smpp:/, "http:"));
    add(
      "ok",
      "SMS_TRANSPORT",
      `smpp to ${smsc.hostname}:${smsc.port || 2775}${env.SMPP_URL!.startsWith("ssmpp:") ? " (TLS)" : ""}`,
    );
  }
  if (env.cardPayments === "test-cards")
    add("unsafe", "payments", "no Stripe keys: payments are the offline test-card processor, test cards buy credits");
  else if (env.cardPayments === "unavailable")
    add("warn", "payments", "no Stripe keys: customers cannot pay by card (the shop says so); admins grant credits");
  else if (env.STRIPE_SECRET_KEY?.startsWith("sk_test_"))
    add("unsafe", "STRIPE_SECRET_KEY", "is a Stripe test key: nothing is charged");
  else add("ok", "payments", "Stripe with a live key");
  if (env.ALLOW_TEST_PAYMENTS) add("unsafe", "ALLOW_TEST_PAYMENTS", "is on: test cards buy real credits");
  if (env.seedDemo)
    add("unsafe", "SEED_DEMO", "demo accounts with published passwords are created on an empty database");
  if (env.DEMO_MODE) add("warn", "DEMO_MODE", "is on: demo notices, package editing off, orders purged after 3 days");
  if (env.ADMIN_PASSWORD)
    add("warn", "ADMIN_PASSWORD", "is set: each start resets that admin's password; unset it after the first start");

  // Behind a proxy: cookies only over HTTPS, and client addresses from the proxy's header.
  if (!env.cookieSecure)
    add(
      "unsafe",
      "COOKIE_SECURE",
      "is off: session cookies would travel over plain HTTP (serve HTTPS and leave it unset)",
    );
  else add("ok", "COOKIE_SECURE", "cookies are Secure (HTTPS only)");
  const trusted = env.TRUST_PROXY !== 0 && !(Array.isArray(env.TRUST_PROXY) && env.TRUST_PROXY.length === 0);
  if (!trusted)
    add(
      "warn",
      "TRUST_PROXY",
      "is 0: behind nginx or Caddy every client has the proxy's address (rate limits, logs); set it to the proxy (loopback or 1)",
    );
  else if (env.HOST === "0.0.0.0" || env.HOST === "::")
    add(
      "warn",
      "HOST",
      `is ${env.HOST} with TRUST_PROXY set: a client reaching the port directly can claim any address; listen on 127.0.0.1 behind the proxy`,
    );
  else add("ok", "TRUST_PROXY", `trusts ${JSON.stringify(env.TRUST_PROXY)} on ${env.HOST}`);
  if (!env.SMTP_URL) add("warn", "SMTP_URL", "is unset: support requests are only in the admin inbox, never e-mailed");

  // Redis: persistence, and never evicting (BullMQ's keys must not vanish).
  if (!env.REDIS_URL)
    add("ok", "Redis", "private redis-server under DATA_DIR (append-only file, noeviction), started by npm start");
  else {
    try {
      const config = await probes.redisConfig(env.REDIS_URL, ["appendonly", "save", "maxmemory-policy"]);
      if (config["maxmemory-policy"] !== "noeviction")
        add(
          "unsafe",
          "Redis",
          `maxmemory-policy is ${config["maxmemory-policy"]}: Redis may evict queue keys; BullMQ needs noeviction`,
        );
      if (config.appendonly !== "yes" && !config.save)
        add(
          "warn",
          "Redis",
          "has no persistence (appendonly no, save empty): a restart loses the queues until the reconcilers rebuild them",
        );
      else if (config.appendonly !== "yes")
        add(
          "warn",
          "Redis",
          `persists by snapshots only (save ${config.save}): a crash loses the jobs since the last one`,
        );
      if (config["maxmemory-policy"] === "noeviction" && config.appendonly === "yes")
        add("ok", "Redis", "appendonly yes, maxmemory-policy noeviction");
    } catch (error) {
      add("unsafe", "Redis", `could not read its configuration at REDIS_URL: ${(error as Error).message}`);
    }
  }

  if (env.DATABASE_URL && env.REDIS_URL) await diagnoseSeveralHosts(env, source, probes, add);

  // Free disk where the database lives.
  try {
    const { freeBytes, totalBytes } = probes.disk(
      existsSync(env.DATA_DIR) ? env.DATA_DIR : resolve(env.DATA_DIR, ".."),
    );
    const free = `${(freeBytes / GB).toFixed(1)} GB free of ${(totalBytes / GB).toFixed(1)} GB in ${env.DATA_DIR}`;
    if (freeBytes < MIN_FREE_BYTES) add("unsafe", "disk", `${free}: the database and its WAL may not fit`);
    else if (freeBytes < LOW_FREE_BYTES || freeBytes < totalBytes / 10) add("warn", "disk", free);
    else add("ok", "disk", free);
  } catch (error) {
    add("warn", "disk", `could not read the free space of ${env.DATA_DIR}: ${(error as Error).message}`);
  }
  // The database and the generated secrets are there: other users of the machine must not read them.
  if (existsSync(env.DATA_DIR) && statSync(env.DATA_DIR).mode & 0o077)
    add("warn", "DATA_DIR", `${env.DATA_DIR} is open to other users of this machine: chmod 700 it`);

  // Schedules, sessions and receipts all read the clock.
  const clock = probes.clock();
  if (clock === "synchronized") add("ok", "clock", "synchronized (NTP)");
  else if (clock === "not synchronized")
    add(
      "unsafe",
      "clock",
      "not synchronized: schedules fire late or early, sessions end at the wrong time (enable NTP)",
    );
  else add("warn", "clock", "cannot tell whether it is synchronized (no timedatectl or chronyc answered): check NTP");

  return findings;
}

type Add = (level: Level, topic: string, message: string) => void;

function judgeClockOffset(add: Add, topic: string, offsetMs: number): void {
  const offset = `${offsetMs > 0 ? "ahead of" : "behind"} this machine by ${Math.abs(offsetMs)} ms`;
  if (Math.abs(offsetMs) > CLOCK_OFFSET_UNSAFE_MS)
    add("unsafe", topic, `clock ${offset}: schedules and sessions disagree across hosts (sync both with NTP)`);
  else if (Math.abs(offsetMs) > CLOCK_OFFSET_WARN_MS) add("warn", topic, `clock ${offset}`);
  else add("ok", topic, `clock within ${CLOCK_OFFSET_WARN_MS} ms of this machine's`);
}

/** PostgreSQL mode: the server, its clock and connection budget, and every host's configuration. */
async function diagnoseSeveralHosts(env: Env, source: NodeJS.ProcessEnv, probes: Probes, add: Add): Promise<void> {
  let fleet = new Map<string, ConfigBeat>();
  try {
    judgeClockOffset(add, "Redis", await probes.redisClockOffset(env.REDIS_URL!));
    fleet = await probes.fleetConfig(env.REDIS_URL!, env.QUEUE_PREFIX);
    const own = settingDigests(source, SETTING_NAMES);
    const differing = [...fleet].map(([id, beat]) => [id, differingSettings(own, beat.digests)] as const);
    for (const [id, names] of differing.filter(([, names]) => names.length > 0))
      add("unsafe", "configuration", `${id} runs with a different ${names.join(", ")}: every host needs the same`);
    if (fleet.size === 0)
      add("warn", "configuration", "no web or worker process has published its configuration to Redis yet");
    else if (differing.every(([, names]) => names.length === 0))
      add("ok", "configuration", `the same as the ${fleet.size} running web and worker processes'`);
  } catch (error) {
    add("unsafe", "configuration", `could not read the hosts' configuration from Redis: ${(error as Error).message}`);
  }
  let facts: PostgresFacts;
  try {
    facts = await probes.postgres(env.DATABASE_URL!);
  } catch (error) {
    add("unsafe", "PostgreSQL", `could not connect at DATABASE_URL: ${(error as Error).message}`);
    return;
  }
  if (facts.version < 150000)
    add("unsafe", "PostgreSQL", `is version ${Math.floor(facts.version / 10000)}: 15 or newer is needed`);
  else add("ok", "PostgreSQL", `version ${Math.floor(facts.version / 10000)}`);
  judgeClockOffset(add, "PostgreSQL", facts.clockOffsetMs);
  // Each process keeps up to DATABASE_POOL_SIZE connections (every host should use the same size).
  const processes = Math.max(fleet.size, 2);
  const needed = processes * (env.DATABASE_POOL_SIZE + CONNECTIONS_BEYOND_POOL);
  const usable = facts.maxConnections - facts.reservedConnections;
  const budget = `${processes} processes x (DATABASE_POOL_SIZE ${env.DATABASE_POOL_SIZE} + ${CONNECTIONS_BEYOND_POOL}) = ${needed} of ${usable} usable connections (${facts.openConnections} open now)`;
  if (needed > usable) add("unsafe", "connections", `${budget}: raise max_connections or lower DATABASE_POOL_SIZE`);
  else if (needed > usable * 0.8) add("warn", "connections", `${budget}: little room for another host`);
  else add("ok", "connections", budget);
  if (facts.trigram === "installed") add("ok", "pg_trgm", "installed (order search)");
  else if (facts.trigram === "available")
    add(
      "warn",
      "pg_trgm",
      "not installed yet: the first start's migrations create it (they need the CREATE privilege)",
    );
  else add("unsafe", "pg_trgm", "is missing: install PostgreSQL's contrib extensions (Debian: the postgresql package)");
}

/** The doctor waits this long for an answer, so a dead Redis is a finding, not a hang. */
const TIMEOUTS = { connectTimeout: 3_000, commandTimeout: 3_000 };

async function readRedisConfig(url: string, names: string[]): Promise<Record<string, string>> {
  return withOwnRedis(
    url,
    async (redis) => {
      const config: Record<string, string> = {};
      for (const name of names) {
        const [, value] = (await redis.config("GET", name)) as string[];
        config[name] = value ?? "";
      }
      return config;
    },
    TIMEOUTS,
  );
}

async function readRedisClockOffset(url: string): Promise<number> {
  return withOwnRedis(
    url,
    async (redis) => {
      const sent = Date.now();
      const [seconds, micros] = await redis.time();
      return Math.round(Number(seconds) * 1000 + Number(micros) / 1000 - (sent + Date.now()) / 2);
    },
    TIMEOUTS,
  );
}

function clockSync(): ClockSync {
  const timedatectl = spawnSync("timedatectl", ["show", "-p", "NTPSynchronized", "--value"], { encoding: "utf8" });
  if (timedatectl.status === 0) return timedatectl.stdout.trim() === "yes" ? "synchronized" : "not synchronized";
  const chrony = spawnSync("chronyc", ["tracking"], { encoding: "utf8" });
  if (chrony.status === 0) return /Leap status\s*:\s*Normal/.test(chrony.stdout) ? "synchronized" : "not synchronized";
  return "unknown";
}

export const machineProbes: Probes = {
  redisConfig: readRedisConfig,
  disk: (dir) => {
    const stats = statfsSync(dir);
    return { freeBytes: stats.bavail * stats.bsize, totalBytes: stats.blocks * stats.bsize };
  },
  clock: clockSync,
  postgres: readPostgresFacts,
  redisClockOffset: readRedisClockOffset,
  fleetConfig: (url, queuePrefix) => withOwnRedis(url, (redis) => readFleetConfig(redis, queuePrefix), TIMEOUTS),
};

/** Reads a .env-style file's KEY=value lines (no expansion), for `npm run doctor -- --env-file`. */
export function readEnvFile(file: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const line of readFileSync(file, "utf8").split("\n")) {
    const match = /^\s*([A-Z][A-Z0-9_]*)\s*=\s*(.*?)\s*$/.exec(line);
    if (match) env[match[1]] = match[2].replace(/^(["'])(.*)\1$/, "$2");
  }
  return env;
}
