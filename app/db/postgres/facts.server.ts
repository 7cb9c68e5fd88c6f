// What `npm run doctor` asks a PostgreSQL server (decision 128): its version and clock, the
// connection budget, and whether order search's trigram extension is there.
import { openPool } from "#app/db/postgres/pool.server.ts";

export type PostgresFacts = {
  /** server_version_num, e.g. 150010 for 15.10. */
  version: number;
  /** The server's clock minus this machine's, in ms (measured at the middle of the round trip). */
  clockOffsetMs: number;
  maxConnections: number;
  /** Connections kept for superusers (and replication), which the app cannot use. */
  reservedConnections: number;
  /** Connections open now, from every client. */
  openConnections: number;
  trigram: "installed" | "available" | "missing";
};

export async function readPostgresFacts(url: string): Promise<PostgresFacts> {
  const pool = openPool(url, { max: 1, connectionTimeoutMillis: 5_000 });
  try {
    const sent = Date.now();
    const { rows } = await pool.query<{
      version: number;
      now: number;
      max: number;
      reserved: number;
      open: number;
      installed: boolean;
      available: boolean;
    }>(`select current_setting('server_version_num')::int as version,
      (extract(epoch from clock_timestamp()) * 1000)::float8 as now,
      current_setting('max_connections')::int as max,
      current_setting('superuser_reserved_connections')::int as reserved,
      (select count(*) from pg_stat_activity where backend_type = 'client backend')::int as open,
      exists (select 1 from pg_extension where extname = 'pg_trgm') as installed,
      exists (select 1 from pg_available_extensions where name = 'pg_trgm') as available`);
    const received = Date.now();
    const facts = rows[0]!;
    return {
      version: facts.version,
      clockOffsetMs: Math.round(facts.now - (sent + received) / 2),
      maxConnections: facts.max,
      reservedConnections: facts.reserved,
      openConnections: facts.open,
      trigram: facts.installed ? "installed" : facts.available ? "available" : "missing",
    };
  } finally {
    await pool.end();
  }
}
