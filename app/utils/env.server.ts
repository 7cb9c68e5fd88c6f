import { randomBytes } from "node:crypto";
import { linkSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { type CountryCode, isSupportedCountry } from "libphonenumber-js";
import proxyAddr from "proxy-addr";
import { z } from "zod";

const flag = (fallback: boolean) =>
  z
    .string()
    .optional()
    .transform((v) => (v === undefined || v === "" ? fallback : /^(1|true|yes|on)$/i.test(v)));

const optionalString = z
  .string()
  .optional()
  .transform((v) => (v ? v : undefined));

/**
 * TRUST_PROXY: how many proxies in front of us append to X-Forwarded-For (`2`), or which peers are
 * proxies (`loopback`, `10.0.0.0/8, 192.168.1.7`). Unset, `0` or `false`: none; `true` is one hop.
 */
const trustProxy = z
  .string()
  .optional()
  .transform((v) => v?.trim() ?? "")
  .transform((v, ctx): number | string[] => {
    if (v === "" || /^(false|no|off)$/i.test(v)) return 0;
    if (/^(true|yes|on)$/i.test(v)) return 1;
    if (/^\d+$/.test(v)) return Number(v);
    const addresses = v
      .split(",")
      .map((a) => a.trim())
      .filter(Boolean);
    try {
      proxyAddr.compile(addresses);
    } catch (error) {
      ctx.addIssue({
        code: "custom",
        message: `a hop count or a list of addresses/CIDRs: ${(error as Error).message}`,
      });
      return z.NEVER;
    }
    return addresses;
  });

/** A number of days, or unset (keep forever). */
const retentionDays = optionalString
  .transform((v) => (v === undefined ? undefined : Number(v)))
  .pipe(z.number("must be a whole number of days, 1 or more").int().min(1).optional());

const schema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default("0.0.0.0"),
  DATA_DIR: z.string().default("./data"),
  // Unset: SQLite in DATA_DIR. A postgres:// URL: PostgreSQL, shared by every web and worker host (decision 127).
  DATABASE_URL: optionalString.refine(
    (v) => v === undefined || /^postgres(ql)?:\/\//.test(v),
    "a postgres:// (or postgresql://) URL, or unset for SQLite in DATA_DIR",
  ),
  // Connections each process keeps open to PostgreSQL.
  DATABASE_POOL_SIZE: z.coerce.number().int().min(2).default(10),
  REDIS_URL: optionalString,
  QUEUE_PREFIX: z.string().default("smsgw"),
  // A command on the shared Redis connection unanswered this long fails (a hung Redis); 0: never (decision 080).
  REDIS_COMMAND_TIMEOUT_MS: z.coerce.number().int().min(0).default(2_000),
  SESSION_SECRET: optionalString,
  COOKIE_SECURE: optionalString,
  // Sessions end after this long without a request (idle) or since sign-in (max); admins' sooner.
  SESSION_IDLE_HOURS: z.coerce
    .number()
    .int()
    .min(1)
    .default(7 * 24),
  SESSION_MAX_DAYS: z.coerce.number().int().min(1).default(30),
  ADMIN_SESSION_IDLE_MINUTES: z.coerce.number().int().min(1).default(60),
  ADMIN_SESSION_MAX_HOURS: z.coerce.number().int().min(1).default(12),
  // Admins must turn on two-factor before any other page; sensitive actions want a sign-in this recent.
  ADMIN_REQUIRE_2FA: flag(false),
  RECENT_SIGN_IN_MINUTES: z.coerce
    .number()
    .int()
    .min(1)
    .max(24 * 60)
    .default(10),
  // Argon2 checks (19 MiB each) running at once per process, and how many may wait for one.
  PASSWORD_HASH_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(4),
  PASSWORD_HASH_QUEUE: z.coerce.number().int().min(0).default(32),
  // Failed sign-ins to one account from anywhere before each attempt waits (doubling to the cap); decision 108.
  LOGIN_ACCOUNT_FREE_FAILURES: z.coerce.number().int().min(1).default(10),
  LOGIN_ACCOUNT_MAX_WAIT_SECONDS: z.coerce.number().int().min(5).max(3600).default(300),
  TRUST_PROXY: trustProxy,
  ADMIN_EMAIL: optionalString,
  ADMIN_PASSWORD: optionalString,
  // auto: demo accounts (and their data) only in full test mode; 1 or 0 says so explicitly.
  SEED_DEMO: z
    .string()
    .optional()
    .transform((v): boolean | "auto" =>
      v === undefined || v === "" || /^auto$/i.test(v) ? "auto" : /^(1|true|yes|on)$/i.test(v),
    ),
  DEMO_MODE: flag(false),
  WORKER: z.enum(["inline", "off"]).default("inline"),
  WORKER_CONCURRENCY: z.coerce.number().int().min(1).max(1000).default(50),
  WORKER_NICE: z.coerce.number().int().min(0).max(19).default(10),
  ANALYTICS_ID: optionalString,
  // Accounts one client address may create per hour (sign-up abuse).
  REGISTER_LIMIT_PER_HOUR: z.coerce.number().int().min(1).default(20),
  LOG_LEVEL: z.enum(["debug", "info", "warn", "error", "silent"]).default("info"),
  // The REST API's access log: summary (failures and slow requests a line each, the rest a line per 10 s) or full (decision 117).
  ACCESS_LOG: z.enum(["summary", "full"]).default("summary"),
  ACCESS_LOG_SLOW_MS: z.coerce.number().int().min(1).default(1_000),
  // json: one JSON object per line (pino); pretty: readable lines. Unset: json in production.
  LOG_FORMAT: z.enum(["json", "pretty"]).optional(),
  // GET /metrics: on the web's port with this Bearer token, and/or alone on METRICS_PORT.
  METRICS_TOKEN: optionalString.refine((v) => v === undefined || v.length >= 16, "must be at least 16 characters"),
  METRICS_PORT: z.coerce.number().int().min(1).max(65535).optional(),
  // Support requests: always saved; e-mailed only when SMTP_URL is set.
  SMTP_URL: optionalString.refine(
    (v) => v === undefined || /^smtps?:\/\//.test(v),
    "must start with smtp:// or smtps://",
  ),
  // smtp:// must upgrade with STARTTLS or nothing is sent; unset: required in production unless the server is on loopback.
  SMTP_REQUIRE_TLS: optionalString,
  SUPPORT_EMAIL: z.email().default("support@example.com"),
  // Where people reach the site: the start of every absolute link (never taken from a request's Host; decision 109).
  APP_URL: optionalString.pipe(z.url({ protocol: /^https?$/ }).optional()),
  // Sending SMS waits until the sign-up link is opened; unset: on when SMTP_URL is set, off otherwise.
  REQUIRE_EMAIL_VERIFICATION: optionalString,
  MAIL_FROM: z.string().default("SMS Gateway <no-reply@example.com>"),
  SUPPORT_MAIL_RETRY_MS: z.coerce.number().int().min(1).default(10_000),
  SUPPORT_MAIL_RETRY_MAX_MS: z.coerce
    .number()
    .int()
    .min(1)
    .default(60 * 60 * 1000),
  CONTACT_ADDRESS: z.string().default("100 Example Street, Suite 200, Springfield, USA"),
  CONTACT_PHONE: z.string().default("+1 555 010 0100"),
  CONTACT_SUPPORT_EMAIL: z.string().default("support@example.com"),
  CONTACT_SALES_EMAIL: z.string().default("sales@example.com"),
  DEFAULT_COUNTRY: z
    .string()
    .default("US")
    .transform((v) => v.toUpperCase())
    .refine(isSupportedCountry, "must be a two-letter country code (ISO 3166-1), e.g. US or GB")
    .transform((v) => v as CountryCode),
  SMS_MAX_SEGMENTS: z.coerce.number().int().min(1).max(255).default(10),
  SMS_TRANSPORT: z.enum(["simulator", "smpp"]).default("simulator"),
  SIMULATOR_DLR_MS: z.coerce.number().int().min(0).default(2000),
  SMPP_URL: optionalString.refine(
    (v) => v === undefined || /^s?smpp:\/\/[^/]+$/.test(v),
    "must look like smpp://system_id:password@host:port",
  ),
  SMPP_SOURCE_ADDR: z.string().min(1).max(20).default("SMSGateway"),
  SMPP_TPS: z.coerce.number().int().min(0).default(100),
  SMPP_WINDOW: z.coerce.number().int().min(1).max(1000).default(10),
  // SMPP sessions each worker process opens (SMPP_TPS is shared by all of them, across processes).
  SMPP_BINDS: z.coerce.number().int().min(1).max(32).default(1),
  // The deployment's cap on SMPP sessions across every worker of every host (leases in Redis); unset: no cap.
  SMPP_MAX_BINDS: optionalString
    .transform((v) => (v === undefined ? undefined : Number(v)))
    .pipe(z.number("must be a whole number, 1 or more").int().min(1).optional()),
  SMS_RETRY_ATTEMPTS: z.coerce.number().int().min(1).max(100).default(10),
  SMS_RETRY_DELAY_MS: z.coerce.number().int().min(1).default(1000),
  // The SMS reconciler's period, and how long a claimed message may stay `submitting` before it
  // counts as interrupted (longer than the 10 s SMPP response timeout).
  SMS_RECONCILE_INTERVAL_MS: z.coerce.number().int().min(1000).default(60_000),
  SMS_SUBMIT_STALE_MS: z.coerce.number().int().min(15_000).default(120_000),
  // Webhooks: a failed delivery is retried with doubling delays from WEBHOOK_RETRY_DELAY_MS for this long.
  WEBHOOK_RETRY_HOURS: z.coerce.number().min(0).max(720).default(24),
  // Webhook events and their delivery log are deleted this many days after the event (never one still retrying).
  WEBHOOK_RETENTION_DAYS: z.coerce.number().int().min(1).default(30),
  WEBHOOK_RETRY_DELAY_MS: z.coerce.number().int().min(1).default(10_000),
  // "Send test event" and "Redeliver" together, per endpoint per minute (each starts a retry series).
  WEBHOOK_MANUAL_SENDS_PER_MINUTE: z.coerce.number().int().min(1).default(5),
  // Deliveries an account may have waiting; past it the oldest retries are dropped (decision 107).
  WEBHOOK_MAX_PENDING_PER_ACCOUNT: z.coerce.number().int().min(1).default(10_000),
  // Lets webhook URLs reach loopback, private and link-local addresses (a gateway and receiver on one LAN).
  WEBHOOK_ALLOW_PRIVATE: flag(false),
  STRIPE_SECRET_KEY: optionalString,
  // The offline test-card processor takes cards even though SMS go to a real SMSC (a staging setup).
  ALLOW_TEST_PAYMENTS: flag(false),
  STRIPE_PUBLISHABLE_KEY: optionalString,
  STRIPE_WEBHOOK_SECRET: optionalString,
  // Tests only: a local HTTP server standing in for https://api.stripe.com.
  STRIPE_API_BASE: optionalString.pipe(z.url({ protocol: /^https?$/ }).optional()),
  // A schedule's occurrence that nothing ran at its time is still sent up to this late.
  SCHEDULE_MAX_LATE_MINUTES: z.coerce.number().int().min(0).default(60),
  CSV_IMPORT_MAX_BYTES: z.coerce.number().int().min(1_000).default(5_000_000),
  // CSV import: rows per file (the header included), uploads per account per hour.
  CSV_IMPORT_MAX_ROWS: z.coerce.number().int().min(1).default(50_000),
  CSV_IMPORT_UPLOADS_PER_HOUR: z.coerce.number().int().min(1).default(20),
  // Per-account quotas (docs/decisions/012-per-account-quotas.md).
  QUOTA_SCHEDULES: z.coerce.number().int().min(1).default(100),
  QUOTA_CONTACTS: z.coerce.number().int().min(1).default(50_000),
  QUOTA_GROUPS: z.coerce.number().int().min(1).default(500),
  QUOTA_PENDING_ORDERS: z.coerce.number().int().min(1).default(10),
  QUOTA_PENDING_UPLOADS: z.coerce.number().int().min(1).default(3),
  QUOTA_API_KEYS: z.coerce.number().int().min(1).default(20),
  // The private Redis's memory cap (redis-server syntax: 256mb, 1gb); a warning is logged past 80 % of it.
  REDIS_MAXMEMORY: z
    .string()
    .regex(/^\d+(?:[kmg]b?)?$/i, "must be a size such as 256mb or 1gb")
    .default("256mb"),
  // Largest request body of any page or form post; the two uploads get their own limit on top of it.
  MAX_BODY_BYTES: z.coerce
    .number()
    .int()
    .min(16 * 1024)
    .default(1024 * 1024),
  // REST API: the secret that encrypts the revealable copy of every API key; requests per key, and per
  // account across its keys, per minute.
  API_KEY_SECRET: optionalString.refine((v) => v === undefined || v.length >= 32, "must be at least 32 characters"),
  API_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(600),
  API_ACCOUNT_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(1200),
  // Finished messages and support requests older than this many days are deleted hourly; unset: kept forever.
  MESSAGE_RETENTION_DAYS: retentionDays,
  SUPPORT_RETENTION_DAYS: retentionDays,
});

/**
 * Test mode: a test component runs (the offline processor taking test cards, the SMS simulator,
 * demo accounts and data). Every page says so while one does (docs/decisions/001-test-mode.md).
 */
export type TestMode = {
  /** The offline processor takes test cards: no Stripe keys, and the simulator or ALLOW_TEST_PAYMENTS=1. */
  payments: boolean;
  /** SMS go to the simulator and reach no phone. */
  sms: boolean;
  /** Demo accounts with published passwords, and their sample data, are seeded (SEED_DEMO resolved). */
  demo: boolean;
  /** Any of the three: the gateway is in test mode. */
  active: boolean;
  /** The simulator and no Stripe keys: nothing a user does here costs anyone real money. */
  full: boolean;
};

/**
 * How customers pay by card: Stripe (its keys set), the offline processor's test cards (where
 * allowed), or not at all (an operator who sells credits by invoice and grants them).
 */
export type CardPayments = "stripe" | "test-cards" | "unavailable";

/** Every setting the app reads from the environment, by name. */
export const SETTING_NAMES: readonly string[] = Object.keys(schema.shape);

export type Env = z.infer<typeof schema> & {
  DATA_DIR: string;
  LOG_FORMAT: "json" | "pretty";
  cookieSecure: boolean;
  isProduction: boolean;
  testMode: TestMode;
  cardPayments: CardPayments;
  /** SEED_DEMO resolved: explicit, or full test mode when "auto". */
  seedDemo: boolean;
  /** APP_URL without a trailing slash, or this server on localhost. */
  appUrl: string;
  /** REQUIRE_EMAIL_VERIFICATION resolved: explicit, or whether SMTP_URL is set. */
  requireEmailVerification: boolean;
  /** SMTP_REQUIRE_TLS resolved: explicit, or production with a mail server beyond loopback. */
  smtpRequireTls: boolean;
};

/** A configuration the app refuses to start with; the entry script prints its message alone (scripts/run.mjs). */
class ConfigurationError extends Error {
  constructor(problems: string[]) {
    super(
      problems.length === 1
        ? `Invalid configuration: ${problems[0]}`
        : `Invalid configuration:\n${problems.map((p) => `  ${p}`).join("\n")}`,
    );
    this.name = "ConfigurationError";
  }
}

/** The values deploy/env.example and the docs show: published, so never a production secret. */
const PLACEHOLDER = /change-?me|replace-?me|\.\.\.$/i;
const GENERATED_SECRETS = ["SESSION_SECRET", "API_KEY_SECRET", "METRICS_TOKEN"] as const;
const PROVIDED_SECRETS = ["STRIPE_SECRET_KEY", "STRIPE_PUBLISHABLE_KEY", "STRIPE_WEBHOOK_SECRET"] as const;
const MIN_SESSION_SECRET_LENGTH = 32;
/** Servers whose address and credentials are the example's: a reserved example domain (RFC 2606) is never a real host. */
const PLACEHOLDER_SERVERS = ["SMPP_URL", "SMTP_URL"] as const;
const EXAMPLE_HOST = /(^|\.)example(\.(com|net|org))?$/i;

/** Settings production refuses, by variable: a placeholder left in, or a session secret anyone could guess. */
function weakSecrets(source: NodeJS.ProcessEnv): Map<string, string> {
  const problems = new Map<string, string>();
  for (const name of [...GENERATED_SECRETS, ...PROVIDED_SECRETS]) {
    const value = source[name]?.trim() ?? "";
    const values = name === "SESSION_SECRET" ? value.split(",").map((v) => v.trim()) : [value];
    const hint = (GENERATED_SECRETS as readonly string[]).includes(name) ? " (openssl rand -hex 32)" : "";
    if (values.some((v) => PLACEHOLDER.test(v)))
      problems.set(name, `is the placeholder of deploy/env.example; replace it${hint}`);
    else if (name === "SESSION_SECRET" && values.some((v) => v && v.length < MIN_SESSION_SECRET_LENGTH))
      problems.set(
        name,
        `at least ${MIN_SESSION_SECRET_LENGTH} characters in production, every one of the list${hint}`,
      );
  }
  for (const name of PLACEHOLDER_SERVERS) {
    const host = URL.parse(source[name] ?? "")?.hostname;
    if (host && EXAMPLE_HOST.test(host))
      problems.set(name, `is the placeholder of deploy/env.example; put your server's address and credentials`);
  }
  return problems;
}

/** A host name that reaches this machine only (a local mail relay needs no TLS). */
const isLoopbackHost = (hostname: string) =>
  hostname === "localhost" || hostname === "[::1]" || /^127\./.test(hostname);

export function parseEnv(source: NodeJS.ProcessEnv): Env {
  const result = schema.safeParse(source);
  const weak = (source.NODE_ENV ?? "development") === "production" ? weakSecrets(source) : new Map<string, string>();
  const problems = [...weak].map(([name, problem]) => `${name}: ${problem}`);
  if (!result.success) {
    for (const issue of result.error.issues) {
      const name = issue.path.join(".");
      if (!weak.has(name)) problems.push(`${name}: ${issue.message}`);
    }
  }
  if (!result.success || problems.length > 0) throw new ConfigurationError(problems);
  const parsed = result.data;
  if (parsed.SMS_TRANSPORT === "smpp" && !parsed.SMPP_URL) {
    throw new ConfigurationError(["SMPP_URL: required when SMS_TRANSPORT=smpp"]);
  }
  if (parsed.DATABASE_URL) {
    // Several hosts share PostgreSQL: each needs the same Redis and secrets, none of its own making.
    const missing = (["REDIS_URL", "SESSION_SECRET", "API_KEY_SECRET"] as const).filter((name) => !parsed[name]);
    if (missing.length > 0)
      throw new ConfigurationError(
        missing.map((name) => `${name}: required with DATABASE_URL (every host must share it; see docs/deployment.md)`),
      );
  }
  const stripeKeys = [parsed.STRIPE_SECRET_KEY, parsed.STRIPE_PUBLISHABLE_KEY, parsed.STRIPE_WEBHOOK_SECRET];
  if (stripeKeys.some(Boolean) && !stripeKeys.every(Boolean)) {
    throw new ConfigurationError([
      "Stripe needs STRIPE_SECRET_KEY, STRIPE_PUBLISHABLE_KEY and STRIPE_WEBHOOK_SECRET together",
    ]);
  }
  const isProduction = parsed.NODE_ENV === "production";
  if (isProduction && !parsed.APP_URL && (parsed.SMTP_URL || parsed.STRIPE_SECRET_KEY)) {
    // Links leave the site in e-mails and Stripe's return addresses: localhost would be a dead end.
    throw new ConfigurationError([
      "APP_URL: required in production with SMTP_URL or Stripe: the address people reach the site at, e.g. https://sms.example.com",
    ]);
  }
  const sms = parsed.SMS_TRANSPORT === "simulator";
  const full = sms && !parsed.STRIPE_SECRET_KEY;
  // Test cards buy credits only where those credits cannot become real SMS, unless the operator says so.
  const cardPayments: CardPayments = parsed.STRIPE_SECRET_KEY
    ? "stripe"
    : sms || parsed.ALLOW_TEST_PAYMENTS
      ? "test-cards"
      : "unavailable";
  const seedDemo = parsed.SEED_DEMO === "auto" ? full : parsed.SEED_DEMO;
  const payments = cardPayments === "test-cards";
  const testMode: TestMode = { payments, sms, demo: seedDemo, active: payments || sms || seedDemo, full };
  return {
    ...parsed,
    DATA_DIR: resolve(parsed.DATA_DIR),
    LOG_FORMAT: parsed.LOG_FORMAT ?? (isProduction ? "json" : "pretty"),
    isProduction,
    testMode,
    cardPayments,
    seedDemo,
    appUrl: (parsed.APP_URL ?? `http://localhost:${parsed.PORT}`).replace(/\/+$/, ""),
    requireEmailVerification:
      parsed.REQUIRE_EMAIL_VERIFICATION === undefined
        ? Boolean(parsed.SMTP_URL)
        : /^(1|true|yes|on)$/i.test(parsed.REQUIRE_EMAIL_VERIFICATION),
    smtpRequireTls:
      parsed.SMTP_REQUIRE_TLS === undefined
        ? isProduction && Boolean(parsed.SMTP_URL) && !isLoopbackHost(new URL(parsed.SMTP_URL!).hostname)
        : /^(1|true|yes|on)$/i.test(parsed.SMTP_REQUIRE_TLS),
    cookieSecure: parsed.COOKIE_SECURE === undefined ? isProduction : /^(1|true|yes|on)$/i.test(parsed.COOKIE_SECURE),
  };
}

let current: Env | undefined;
let secrets: Secrets | undefined;

/** The configuration, parsed from process.env on the first call. */
export function getEnv(): Env {
  return (current ??= parseEnv(process.env));
}

export type Secrets = {
  /** Signs the session and toast cookies: the first signs, all verify (rotation). */
  session: string[];
  /** Encrypts the revealable copy of every API key. */
  apiKey: string;
};

/** Modes of what the gateway creates in DATA_DIR and of backups: nobody else on the machine reads them. */
export const PRIVATE_DIR = 0o700;
export const PRIVATE_FILE = 0o600;

const SESSION_SECRET_FILE = "session-secret";
const API_KEY_SECRET_FILE = "api-key-secret";

/**
 * Creates DATA_DIR and the secrets the environment does not give, once: the start script, the
 * worker and test setups call it before anything reads a secret. linking a whole file into place makes concurrent first starts agree.
 */
export function prepareDataDir(env: Env = getEnv()): void {
  // The database, secrets, uploads and Redis's files are this user's alone.
  mkdirSync(env.DATA_DIR, { recursive: true, mode: PRIVATE_DIR });
  const missing = [!env.SESSION_SECRET && SESSION_SECRET_FILE, !env.API_KEY_SECRET && API_KEY_SECRET_FILE];
  for (const name of missing) {
    if (!name) continue;
    // Written whole under a name of its own, then linked into place: a start never reads a half-written secret.
    const draft = resolve(env.DATA_DIR, `${name}.${process.pid}.${randomBytes(4).toString("hex")}`);
    writeFileSync(draft, randomBytes(32).toString("hex"), { flag: "wx", mode: PRIVATE_FILE });
    try {
      linkSync(draft, resolve(env.DATA_DIR, name));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    } finally {
      unlinkSync(draft);
    }
  }
}

function persistedSecret(dataDir: string, name: string): string {
  try {
    return readFileSync(resolve(dataDir, name), "utf8").trim();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    throw new Error(`${resolve(dataDir, name)} is missing: prepareDataDir() (run by npm start) creates it`, {
      cause: error,
    });
  }
}

/** The secrets from the environment, or else from DATA_DIR (see prepareDataDir). */
export function readSecrets(env: Env): Secrets {
  return {
    session: (env.SESSION_SECRET ?? persistedSecret(env.DATA_DIR, SESSION_SECRET_FILE))
      .split(",")
      .map((s) => s.trim())
      .filter(Boolean),
    apiKey: env.API_KEY_SECRET ?? persistedSecret(env.DATA_DIR, API_KEY_SECRET_FILE),
  };
}

/** The secrets, read on the first call. */
export function getSecrets(): Secrets {
  return (secrets ??= readSecrets(getEnv()));
}
