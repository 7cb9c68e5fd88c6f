// The webhook deliveries' compare-and-set updates read only the rows they name on PostgreSQL, also when
// the table's statistics were taken before a backlog of pending deliveries built up (decision 144).
import { afterAll, beforeAll, expect, test } from "vitest";
import { openPool, type Pool } from "#app/db/postgres/pool.server.ts";
import { postgresSource, type StatementText } from "#app/db/statements.server.ts";
import { deliveryStatements } from "#app/modules/webhooks/deliver.server.ts";
import { freshDatabase } from "#tests/support/postgres.ts";

const BACKLOG = 5_000;
const NOW = 1_800_000_000_000;
let pool: Pool;
let pending: number[];
let prepared = 0;

beforeAll(async () => {
  pool = openPool(await freshDatabase({ migrated: true }));
  await pool.query("insert into users (id, email, full_name, password_hash) values (1, 'u@example.com', 'x', 'x')");
  await pool.query(
    `insert into webhook_endpoints (id, user_id, url, events, secret_ciphertext, updated_at)
     values (1, 1, 'https://a.example/hook', '*', 'x', 0), (2, 1, 'https://b.example/hook', '*', 'x', 0)`,
  );
  await pool.query(
    `insert into webhook_events (id, user_id, type, payload, created_at) values ('evt_1', 1, 'message.delivered', '{}', 0)`,
  );
  const deliveries = (endpoint: number, status: string, count: number) =>
    pool.query(
      `insert into webhook_deliveries (event_id, endpoint_id, status, attempts, next_attempt_at, created_at)
       select 'evt_1', $1, $2, 0, $3, $3 from generate_series(1, $4) returning id`,
      [endpoint, status, NOW, count],
    );
  // Analyzed while every delivery was delivered, as after a quiet spell; then a backlog the statistics do not know.
  await deliveries(1, "delivered", 2_000);
  await pool.query("analyze webhook_deliveries");
  pending = (await deliveries(1, "pending", BACKLOG)).rows.map((row: { id: number }) => Number(row.id));
  await deliveries(2, "pending", 3);
});

afterAll(async () => {
  await pool.end();
});

type PlanNode = {
  "Node Type": string;
  "Relation Name"?: string;
  "Actual Rows": number;
  "Actual Loops": number;
  "Rows Removed by Filter"?: number;
  "Rows Removed by Index Recheck"?: number;
  Plans?: PlanNode[];
};

/** The webhook_deliveries rows a plan's scans read: those they returned and those their filters removed. */
function deliveriesRead(node: PlanNode): number {
  const own =
    node["Relation Name"] === "webhook_deliveries" && node["Node Type"] !== "ModifyTable"
      ? (node["Actual Rows"] + (node["Rows Removed by Filter"] ?? 0) + (node["Rows Removed by Index Recheck"] ?? 0)) *
        node["Actual Loops"]
      : 0;
  return own + (node.Plans ?? []).reduce((sum, child) => sum + deliveriesRead(child), 0);
}

/** Runs the statement under EXPLAIN ANALYZE in a transaction rolled back, with each plan cache mode. */
async function rowsRead(text: StatementText, params: unknown[]): Promise<Record<string, number>> {
  const client = await pool.connect();
  const read: Record<string, number> = {};
  try {
    for (const mode of ["force_custom_plan", "force_generic_plan"]) {
      await client.query("begin");
      await client.query(`set local plan_cache_mode = ${mode}`);
      // A prepared statement, as the app runs it: the generic plan is the one it settles on.
      const { rows } = await client.query({
        name: `plan_${++prepared}`,
        text: `explain (analyze, format json) ${postgresSource(text)}`,
        values: params,
      });
      await client.query("rollback");
      read[mode] = deliveriesRead((rows[0] as { "QUERY PLAN": [{ Plan: PlanNode }] })["QUERY PLAN"][0].Plan);
    }
  } finally {
    client.release();
  }
  return read;
}

const both = (rows: number) => ({ force_custom_plan: rows, force_generic_plan: rows });

test("a job's claim and its answers read the job's deliveries, not every pending one", async () => {
  const job = pending.slice(0, 25);
  const claims = JSON.stringify(job.map((id) => ({ id, attempts: 0 })));
  expect(await rowsRead(deliveryStatements.claimAttempts.text, [NOW, NOW + 15_000, claims])).toEqual(both(25));
  const answers = JSON.stringify(
    job.map((id) => ({
      id,
      status: "delivered",
      nextAt: NOW,
      statusCode: 200,
      durationMs: 5,
      answer: "",
      deliveredAt: NOW,
    })),
  );
  expect(await rowsRead(deliveryStatements.recordAnswers.text, [answers])).toEqual(both(25));
});

test("one answer, and giving up an endpoint, read that delivery and that endpoint's", async () => {
  expect(
    await rowsRead(deliveryStatements.recordAnswer.text, ["delivered", NOW, 200, 5, "", NOW, pending[100]]),
  ).toEqual(both(1));
  expect(await rowsRead(deliveryStatements.giveUpEndpoint.text, ["Given up", 2])).toEqual(both(3));
});
