// One account's sends all write its balance row and its rollup counts (decision 131). Many at once,
// with the worker recording outcomes meanwhile, must all be answered, each debited once, and the
// balance must stay its ledger's sum: on SQLite one writer at a time gives that; on PostgreSQL the send
// path waits on the balance row (READ COMMITTED) and the rollup's changes are appended, never a hot row.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { usesPostgres } from "#app/db/client.server.ts";
import { foldRollupChanges } from "#app/db/rollup-counts.server.ts";
import { getBalance } from "#app/modules/credits/ledger.server.ts";
import { lastLocalDays } from "#app/modules/insight/periods.ts";
import { countsByDay } from "#app/modules/insight/rollup.server.ts";
import { clock } from "#app/utils/clock.server.ts";
import { apiCustomer, callApi } from "#tests/support/api.ts";
import { sqlCount, sqlRow } from "#tests/support/database.ts";
import { type SmppGateway, startSmppGateway } from "#tests/support/smpp-gateway.ts";
import { waitFor } from "#tests/support/wait.ts";

let gateway: SmppGateway;
beforeAll(async () => {
  gateway = await startSmppGateway();
});
afterAll(async () => {
  await gateway.stop();
});

/** Runs `count` calls of `work`, `concurrency` at a time; their results in order. */
async function inFlight<T>(count: number, concurrency: number, work: (i: number) => Promise<T>): Promise<T[]> {
  const results: T[] = [];
  let next = 0;
  const lane = async () => {
    for (let i = next++; i < count; i = next++) results[i] = await work(i);
  };
  await Promise.all(Array.from({ length: concurrency }, lane));
  return results;
}

/** The account's ledger sum and cached balance, which must agree. */
async function ledgerAndBalance(userId: number) {
  const { sum } = (await sqlRow<{ sum: number }>(
    "select coalesce(sum(amount), 0) as sum from credit_ledger where user_id = ?",
    userId,
  ))!;
  return { ledger: Number(sum), balance: await getBalance(userId) };
}

async function todaysCounts(userId: number) {
  const [today] = await countsByDay(userId, lastLocalDays(1, "UTC", clock.now()));
  return today;
}

describe("one account's sends at once", () => {
  it("600 API sends, 64 in flight while the worker delivers: every one queued, each debited once", async () => {
    const customer = await apiCustomer(600);
    const answers = await inFlight(600, 64, (i) =>
      callApi("POST", "/api/v1/messages", {
        key: customer.key,
        json: { to: `+1202555${String(1000 + i).padStart(4, "0")}`, body: `hot ${i}` },
      }),
    );
    expect(answers.map((answer) => answer.status).filter((status) => status !== 201)).toEqual([]);
    expect(new Set(answers.map((answer) => answer.json.id)).size).toBe(600);
    expect(await ledgerAndBalance(customer.id)).toEqual({ ledger: 0, balance: 0 });
    await waitFor(async () => ((await todaysCounts(customer.id)).delivered === 600 ? true : undefined), {
      timeout: 60_000,
      what: async () => `600 delivered in the rollup (${JSON.stringify(await todaysCounts(customer.id))})`,
    });
    expect(await todaysCounts(customer.id)).toMatchObject({ pending: 0, delivered: 600, failed: 0, credits: 600 });
  }, 120_000);

  it("32 batches at once against a balance for half of them: never below zero, the ledger equals the balance", async () => {
    const customer = await apiCustomer(16 * 5);
    const answers = await Promise.all(
      Array.from({ length: 32 }, (_, b) =>
        callApi("POST", "/api/v1/messages/batch", {
          key: customer.key,
          json: {
            body: `batch ${b}`,
            messages: Array.from({ length: 5 }, (_, i) => ({ to: `+1202556${String(b * 10 + i).padStart(4, "0")}` })),
          },
        }),
      ),
    );
    expect(answers.map((answer) => answer.status)).toEqual(Array(32).fill(200));
    const queued = answers.reduce((sum, answer) => sum + (answer.json.queued as number), 0);
    expect(queued).toBe(80);
    expect(await ledgerAndBalance(customer.id)).toEqual({ ledger: 0, balance: 0 });
    // Each batch decided from the balance the one before it left: its balance is what it saw remain.
    expect(answers.map((answer) => answer.json.balance).sort((a, b) => a - b)).toEqual([
      ...Array(16).fill(0),
      ...Array.from({ length: 16 }, (_, i) => i * 5),
    ]);
  });

  it("one idempotency key sent 10 times at once queues and charges once; the others replay its answer", async () => {
    const customer = await apiCustomer(10);
    const request = {
      key: customer.key,
      headers: { "idempotency-key": "hot-batch" },
      json: { body: "once", messages: [{ to: "+12025557001" }, { to: "+12025557002" }] },
    };
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => callApi("POST", "/api/v1/messages/batch", request)),
    );
    expect(answers.map((answer) => answer.status)).toEqual(Array(10).fill(200));
    expect(answers.filter((answer) => answer.headers["Idempotent-Replayed"] === "true")).toHaveLength(9);
    for (const answer of answers) expect(answer.json.results).toEqual(answers[0]!.json.results);
    expect(await ledgerAndBalance(customer.id)).toEqual({ ledger: 8, balance: 8 });
  });

  it("the reconciler's fold keeps every count: the dashboards read the same before and after", async () => {
    const customer = await apiCustomer(3);
    for (let i = 0; i < 3; i++)
      expect(
        (await callApi("POST", "/api/v1/messages", { key: customer.key, json: { to: "+12025557010", body: `f${i}` } }))
          .status,
      ).toBe(201);
    const before = await waitFor(async () => {
      const counts = await todaysCounts(customer.id);
      return counts.delivered === 3 ? counts : undefined;
    });
    expect(before).toMatchObject({ pending: 0, delivered: 3, credits: 3 });
    await foldRollupChanges();
    expect(await todaysCounts(customer.id)).toEqual(before);
    if (usesPostgres())
      expect(await sqlCount("select count(*) as n from message_rollup_changes where user_id = ?", customer.id)).toBe(0);
  });
});
