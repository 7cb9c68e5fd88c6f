// `npm run bench -- --failover`: issue 33's failover target. A second loopback SMSC is added as an
// admin's upstream (its password sealed as the upstreams screen stores it) and "*" routes to
// [the environment's, the second]; N messages go through the API to destinations no other route
// covers, the environment's SMSC is killed once it has taken half of them, and the phase waits for
// every message to settle. Counted from both SMSCs' accepted submits and the database: lost (taken
// by neither, not `unknown`), duplicated (taken by both, or twice by one), and `unknown` (written to
// the killed SMSC, never answered: decision 138 keeps them there, they are not lost).
import type { ChildProcess } from "node:child_process";
import { storeNewApiKey } from "#app/modules/api-keys/keys.server.ts";
import { createUser } from "#app/modules/auth/users.server.ts";
import { book } from "#app/modules/credits/ledger.server.ts";
import { createUpstream } from "#app/modules/routing/upstreams.server.ts";
import { sqlCount, sqlRow, sqlRows } from "#tests/support/database.ts";
import { waitFor } from "#tests/support/wait.ts";
import { runLoad, sendRequest } from "./http-load.ts";
import { type BenchSmsc, forkSmsc } from "./smsc-client.ts";

/** Every failover message's text starts with this: the SMSCs keep those texts, and only those. */
export const FAILOVER_TEXT = "Failover message ";

export type FailoverSetup = { second: BenchSmsc; upstreamId: string; userId: number; key: string };

/** Before the app starts: the second SMSC, its upstream row, and the account that sends the phase. */
export async function prepareFailover(
  env: NodeJS.ProcessEnv,
  children: ChildProcess[],
  password: string,
  messages: number,
): Promise<FailoverSetup> {
  const second = await forkSmsc({ ...env, BENCH_INBOUND_EVERY: "0", BENCH_KEEP_TEXTS: FAILOVER_TEXT }, children);
  const smscUrl = new URL(second.url);
  const upstream = await createUpstream({
    name: "second",
    kind: "smpp",
    url: `${smscUrl.protocol}//${smscUrl.host}`,
    systemId: decodeURIComponent(smscUrl.username),
    password: decodeURIComponent(smscUrl.password),
    binds: 1,
    window: 1000,
    tps: 0,
    sourceAddr: null,
    enabled: true,
  });
  const user = await createUser({ email: "failover@bench.test", fullName: "Failover Bench", password });
  await book({ userId: user.id, kind: "grant", amount: messages * 2, key: "bench-grant-failover" });
  const { key } = await storeNewApiKey(user.id);
  return { second, upstreamId: upstream.id, userId: user.id, key };
}

export type FailoverResult = {
  messages: number;
  e2e_per_s: number;
  /** Accepted submits of the phase's messages at each SMSC (the killed one is the environment's). */
  taken_by_smsc: { env: number; second: number };
  /** Messages with an accepted submit attempt, by upstream id, as the database has them. */
  taken_by_upstream: Record<string, number>;
  lost: number;
  duplicated: number;
  unknown: number;
  /** Of the unknown, how many the killed SMSC had in fact accepted before it died. */
  unknown_taken_by_killed: number;
  /** Accepted by the killed SMSC, whose receipt died with it (left `submitted`). */
  awaiting_receipt_from_killed: number;
  failed: number;
};

type PhaseOptions = { port: number; connections: number; total: number; first: BenchSmsc; setup: FailoverSetup };

/** The phase: send, kill the first SMSC once it took half, wait for every message to settle, count. */
export async function runFailoverPhase({
  port,
  connections,
  total,
  first,
  setup,
}: PhaseOptions): Promise<FailoverResult> {
  const { second, userId, key, upstreamId } = setup;
  await waitFor(async () => (await second.stats()).bound >= 1, {
    timeout: 60_000,
    interval: 100,
    what: "a bind to the second SMSC",
  });
  const request = (i: number) => {
    // +33 6 10 00 00 00 onwards: numbers no seeded route covers, so "*" routes them.
    return sendRequest(port, key, {
      to: `+3361${String(i % 10_000_000).padStart(7, "0")}`,
      body: `${FAILOVER_TEXT}${i}`,
    });
  };
  const acceptedBefore = (await first.stats()).counters.accepted;
  const load = runLoad({ port, connections, total, request });
  await waitFor(async () => (await first.stats()).counters.accepted - acceptedBefore >= total / 2, {
    timeout: 300_000,
    interval: 5,
    what: "the first SMSC taking half the failover messages",
  });
  await first.kill();
  const accepted = (await load).statuses.get(201) ?? 0;
  // Settled: none waiting to be sent, and every one the second SMSC took has its receipt.
  await waitFor(
    async () =>
      (await sqlCount(
        `select count(*) as n from sms_messages m where m.user_id = ? and (m.status in ('queued', 'submitting')
           or (m.status = 'submitted' and exists (select 1 from sms_submit_attempts a
             where a.message_id = m.id and a.outcome = 'accepted' and a.upstream = ?)))`,
        userId,
        upstreamId,
      )) === 0,
    { timeout: 300_000, interval: 50, what: "every failover message settled" },
  );
  const [firstTexts, secondTexts] = await Promise.all([first.texts(), second.texts()]);
  const byFirst = new Set(firstTexts);
  const bySecond = new Set(secondTexts);
  const rows = await sqlRows<{ body: string; status: string }>(
    "select body, status from sms_messages where user_id = ?",
    userId,
  );
  const span = (await sqlRow<{ first: number; last: number; done: number }>(
    `select min(created_at) as first, max(done_at) as last, sum(case when done_at is not null then 1 else 0 end) as done
     from sms_messages where user_id = ?`,
    userId,
  ))!;
  const taken = await sqlRows<{ upstream: string; n: number }>(
    `select a.upstream, count(distinct a.message_id) as n from sms_submit_attempts a join sms_messages m on m.id = a.message_id
     where m.user_id = ? and a.outcome = 'accepted' group by a.upstream`,
    userId,
  );
  const count = (pick: (row: { body: string; status: string }) => boolean) => rows.filter(pick).length;
  return {
    messages: accepted,
    e2e_per_s: Math.round(span.done / ((span.last - span.first) / 1000)),
    taken_by_smsc: { env: firstTexts.length, second: secondTexts.length },
    taken_by_upstream: Object.fromEntries(taken.map((row) => [row.upstream, Number(row.n)])),
    lost:
      accepted -
      rows.length +
      count((row) => !byFirst.has(row.body) && !bySecond.has(row.body) && row.status !== "unknown"),
    duplicated:
      count((row) => byFirst.has(row.body) && bySecond.has(row.body)) +
      (firstTexts.length - byFirst.size) +
      (secondTexts.length - bySecond.size),
    unknown: count((row) => row.status === "unknown"),
    unknown_taken_by_killed: count((row) => row.status === "unknown" && byFirst.has(row.body)),
    awaiting_receipt_from_killed: count((row) => row.status === "submitted" && byFirst.has(row.body)),
    failed: count((row) => ["failed", "rejected", "undelivered", "expired"].includes(row.status)),
  };
}

/** The table's line for the phase. */
export function failoverText(result: FailoverResult, upstreamId: string): string {
  const viaDb = Object.entries(result.taken_by_upstream)
    .map(([upstream, n]) => `${upstream === upstreamId ? "second" : upstream} ${n}`)
    .join(", ");
  return (
    `${result.messages} messages, e2e ${result.e2e_per_s}/s; taken by the killed SMSC ${result.taken_by_smsc.env}, ` +
    `by the second ${result.taken_by_smsc.second} (database: ${viaDb}); ${result.lost} lost, ${result.duplicated} duplicated; ` +
    `${result.unknown} unknown (${result.unknown_taken_by_killed} of them taken by the killed SMSC), ` +
    `${result.awaiting_receipt_from_killed} taken by it whose receipt died with it, ${result.failed} failed`
  );
}
