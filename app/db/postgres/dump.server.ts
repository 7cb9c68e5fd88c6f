// Backups of the PostgreSQL database with pg_dump and pg_restore (decision 130): one consistent
// snapshot, taken while the gateway runs, restored only while no host runs it.
import { execFile } from "node:child_process";
import { chmodSync, existsSync, renameSync, rmSync, statSync } from "node:fs";
import { promisify } from "node:util";
import { PRIVATE_FILE } from "#app/utils/env.server.ts";

const run = promisify(execFile);

/**
 * The environment that points pg_dump and pg_restore at `url`, with the password out of their
 * command line (which other users of the machine can read).
 */
function connection(url: string): { dbname: string; env: NodeJS.ProcessEnv } {
  const parsed = new URL(url);
  const password = decodeURIComponent(parsed.password);
  parsed.password = "";
  return { dbname: parsed.href, env: { ...process.env, ...(password ? { PGPASSWORD: password } : {}) } };
}

async function tool(name: "pg_dump" | "pg_restore", args: string[], env: NodeJS.ProcessEnv) {
  try {
    return await run(name, args, { env, maxBuffer: 64 * 1024 * 1024 });
  } catch (error) {
    const { code, stderr } = error as NodeJS.ErrnoException & { stderr?: string };
    if (code === "ENOENT")
      throw new Error(`${name} is not installed (Debian: apt install postgresql-client)`, { cause: error });
    throw new Error(`${name} failed: ${(stderr ?? (error as Error).message).trim()}`, { cause: error });
  }
}

export type DumpCheck = { ok: true; tables: number } | { ok: false; problem: string };

/** Whether `file` is a pg_dump archive of this app's database: readable, with its tables and migrations. */
export async function verifyDump(file: string): Promise<DumpCheck> {
  let listing: string;
  try {
    listing = (await tool("pg_restore", ["--list", file], process.env)).stdout;
  } catch (error) {
    return { ok: false, problem: (error as Error).message };
  }
  if (!/TABLE DATA drizzle __drizzle_migrations/.test(listing))
    return { ok: false, problem: "not a database of this app (no drizzle.__drizzle_migrations)" };
  return { ok: true, tables: listing.split("\n").filter((line) => / TABLE DATA /.test(line)).length };
}

/** Dumps the database at `url` into the new file `destination` (pg_dump's custom format, private), checked. */
export async function dumpPostgres(url: string, destination: string): Promise<{ bytes: number; tables: number }> {
  if (existsSync(destination)) throw new Error(`${destination} exists already; back up to a new file`);
  const partial = `${destination}.partial-${process.pid}`;
  const { dbname, env } = connection(url);
  try {
    await tool("pg_dump", ["--format=custom", "--no-owner", `--file=${partial}`, `--dbname=${dbname}`], env);
    chmodSync(partial, PRIVATE_FILE);
    const check = await verifyDump(partial);
    if (!check.ok) throw new Error(`the dump failed its check: ${check.problem}`);
    renameSync(partial, destination);
    return { bytes: statSync(destination).size, tables: check.tables };
  } catch (error) {
    rmSync(partial, { force: true });
    throw error;
  }
}

/** Replaces the database at `url` with the dump `file`, in one transaction: all of it or nothing. */
export async function restorePostgres(url: string, file: string): Promise<void> {
  const { dbname, env } = connection(url);
  await tool(
    "pg_restore",
    ["--clean", "--if-exists", "--no-owner", "--single-transaction", "--exit-on-error", `--dbname=${dbname}`, file],
    env,
  );
}
