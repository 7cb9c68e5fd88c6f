// Reads the e2e server's database, to prove a refused request changed nothing. The server is shared
// by the journeys running in parallel, so this looks at one account's rows, not the whole database
// (tests/support/security.ts's databaseFingerprint does that for a test file's own database).
import { createHash } from "node:crypto";
import { getSqlite } from "#app/db/client.server.ts";
import { useServerData } from "#tests/e2e/server-data.ts";

async function database() {
  useServerData();
  return getSqlite();
}

/** One hash over the account's row and its rows in every table with a user_id column (sessions, ledger, contacts...). */
export async function accountFingerprint(email: string): Promise<string> {
  const sqlite = await database();
  const user = sqlite.prepare("select * from users where email = ?").get(email) as { id: number } | undefined;
  if (!user) throw new Error(`No user ${email}`);
  const tables = sqlite
    .prepare<[], { name: string }>(
      "select m.name from sqlite_master m where m.type = 'table' and exists (select 1 from pragma_table_info(m.name) where name = 'user_id') order by m.name",
    )
    .all()
    .map((t) => t.name);
  const hash = createHash("sha256").update(JSON.stringify(user));
  for (const table of tables) {
    const rows = sqlite
      .prepare(`select * from "${table}" where user_id = ?`)
      .raw()
      .all(user.id)
      .map((row) => JSON.stringify(row));
    hash.update(`\n${table}\n${rows.sort().join("\n")}`);
  }
  return hash.digest("hex");
}

/** Rows anywhere that carry this e-mail address: an account, or a support request. */
export async function rowsWithEmail(email: string): Promise<{ users: number; supportRequests: number }> {
  const sqlite = await database();
  const count = (table: string) =>
    (sqlite.prepare(`select count(*) as n from "${table}" where email = ?`).get(email) as { n: number }).n;
  return { users: count("users"), supportRequests: count("support_requests") };
}
