// A private PostgreSQL cluster for one test run: its own initdb in a temp dir, on a port of its own,
// stopped and deleted at the end. Never a packaged cluster. Kept apart from postgres.ts, which test
// files import: the global setup loads this one, before any test file runs.
import { execFile, execFileSync } from "node:child_process";
import { chownSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { portBelowEphemeral } from "#tests/support/ports.ts";

const DEBIAN_SERVERS = "/usr/lib/postgresql";
const OLDEST_MAJOR = 15;
const START_ATTEMPTS = 5;
const START_WAIT_SECONDS = 120;
/** The database the global setup migrates, which freshDatabase({ migrated: true }) copies. */
export const MIGRATED_TEMPLATE = "migrated_template";

/** The newest server binaries (initdb, pg_ctl) of version 15 or newer that Debian's packages installed. */
export function serverBinaries(): string {
  const majors = existsSync(DEBIAN_SERVERS)
    ? readdirSync(DEBIAN_SERVERS)
        .filter((name) => /^\d+$/.test(name) && Number(name) >= OLDEST_MAJOR)
        .filter((name) => existsSync(join(DEBIAN_SERVERS, name, "bin", "initdb")))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  if (majors.length === 0) {
    throw new Error(
      `no PostgreSQL ${OLDEST_MAJOR} or newer under ${DEBIAN_SERVERS}/<version>/bin: bash scripts/install.sh installs it`,
    );
  }
  return join(DEBIAN_SERVERS, majors[0]!, "bin");
}

/** The server refuses to run as root: then the cluster belongs to the `postgres` user, which runs it. */
const asRoot = () => process.getuid?.() === 0;

const run = promisify(execFile);

const asServerUser = (command: string, args: string[]): [string, string[]] =>
  asRoot() ? ["runuser", ["-u", "postgres", "--", command, ...args]] : [command, args];

async function runAsServerUser(command: string, args: string[]): Promise<void> {
  await run(...asServerUser(command, args));
}

function ownedByServerUser(path: string): void {
  mkdirSync(path, { recursive: true });
  if (!asRoot()) return;
  const id = (flag: string) => Number(execFileSync("id", [flag, "postgres"], { encoding: "utf8" }).trim());
  chownSync(path, id("-u"), id("-g"));
}

// Durability off (the cluster is thrown away), enough connections for every file's pools at once.
const TEST_SETTINGS = {
  fsync: "off",
  synchronous_commit: "off",
  full_page_writes: "off",
  max_connections: "200",
  shared_buffers: "64MB",
  listen_addresses: "127.0.0.1",
  log_min_messages: "warning",
};

export type TestCluster = {
  /** A superuser's URL for the `postgres` database, on 127.0.0.1 (trust: no password). */
  adminUrl: string;
  /** An empty database for the global setup to migrate once: files copy it (tests/support/postgres.ts). */
  migratedTemplateUrl: string;
  port: number;
  /** The cluster's data directory (its postmaster.pid names the server's process). */
  dataDir: string;
  /** `pg_ctl restart --mode fast`: every connection is closed, the server is back when it resolves. */
  restart: () => Promise<void>;
  /** Stops the server and deletes the cluster's directory. */
  stop: () => Promise<void>;
  /** The same, synchronously: for a process's "exit" handler, so no failure leaves the server running; nothing once stopped. */
  stopNow: () => void;
};

/**
 * Creates a cluster in a fresh temp dir and starts it: initdb with trust for local connections
 * only, a socket directory inside the temp dir, the port tried again on a collision. `overrides`
 * replace the test settings (the bench keeps fsync on).
 */
export async function startTestCluster(overrides: Record<string, string> = {}): Promise<TestCluster> {
  const bin = serverBinaries();
  const dir = mkdtempSync(join(tmpdir(), "smsgw-postgres-"));
  try {
    return await startIn(dir, bin, overrides);
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
}

async function startIn(dir: string, bin: string, overrides: Record<string, string>): Promise<TestCluster> {
  ownedByServerUser(dir);
  const data = join(dir, "data");
  const sockets = join(dir, "sockets");
  ownedByServerUser(sockets);
  await runAsServerUser(join(bin, "initdb"), [
    "--pgdata",
    data,
    "--username",
    "postgres",
    "--auth",
    "trust",
    "--encoding",
    "UTF8",
    "--locale",
    "C.UTF-8",
    "--no-sync",
  ]);
  const settings = { ...TEST_SETTINGS, ...overrides, unix_socket_directories: sockets };
  const options = Object.entries(settings).map(([name, value]) => `-c ${name}=${value}`);
  const log = join(dir, "server.log");
  const pgCtl = join(bin, "pg_ctl");
  for (let attempt = 1; ; attempt++) {
    const port = portBelowEphemeral("postgres");
    try {
      await runAsServerUser(pgCtl, [
        "start",
        "--pgdata",
        data,
        "--log",
        log,
        "--wait",
        "--timeout",
        String(START_WAIT_SECONDS),
        "-o",
        [`-p ${port}`, ...options].join(" "),
      ]);
      await runAsServerUser(join(bin, "createdb"), [
        "--host",
        sockets,
        "--port",
        String(port),
        "--username",
        "postgres",
        MIGRATED_TEMPLATE,
      ]);
      const stopNow = () => {
        if (!existsSync(data)) return;
        execFileSync(...asServerUser(pgCtl, ["stop", "--pgdata", data, "--mode", "immediate", "--wait"]), {
          stdio: "ignore",
        });
        rmSync(dir, { recursive: true, force: true });
      };
      return {
        adminUrl: `postgres://postgres@127.0.0.1:${port}/postgres`,
        migratedTemplateUrl: `postgres://postgres@127.0.0.1:${port}/${MIGRATED_TEMPLATE}`,
        port,
        dataDir: data,
        restart: () => runAsServerUser(pgCtl, ["restart", "--pgdata", data, "--log", log, "--mode", "fast", "--wait"]),
        // Immediate: nothing in it is worth a checkpoint.
        stopNow,
        stop: async () => stopNow(),
      };
    } catch (error) {
      const tail = existsSync(log) ? readFileSync(log, "utf8").slice(-2000) : "";
      // Another run's server may have taken the port between the pick and the bind: pick again.
      if (attempt < START_ATTEMPTS && tail.includes("could not bind")) continue;
      throw new Error(`the test PostgreSQL did not start:\n${tail}`, { cause: error });
    }
  }
}
