// One attempt of a webhook delivery: claim it, sign it (Standard Webhooks), POST it to a checked
// address, record the answer, and schedule the next attempt or give up.
import { Agent, type Dispatcher } from "undici";
import { eq } from "drizzle-orm";
import { withTxWithoutStalling, type Tx } from "#app/db/client.server.ts";
import { users } from "#app/db/schema/core.ts";
import { sqlText, statements } from "#app/db/statements.server.ts";
import { enqueueAfterCommit } from "#app/queue/enqueue-after-commit.server.ts";
import { addWebhookJobs, type DeliveryAttempt } from "#app/queue/jobs/webhooks.server.ts";
import { clock } from "#app/utils/clock.server.ts";
import { getEnv } from "#app/utils/env.server.ts";
import { queueMail } from "#app/modules/mail/outbox.server.ts";
import { endpointSecret, getCallbackSecret } from "#app/modules/webhooks/endpoints.server.ts";
import { webhookDisabledMail } from "#app/modules/webhooks/mails.server.ts";
import { forgetSubscriptions } from "#app/modules/webhooks/subscriptions.server.ts";
import { parseWebhookUrl, refusedLiteral, safeLookup } from "#app/modules/webhooks/targets.server.ts";
import { WebhookSigner } from "#app/modules/webhooks/signer.server.ts";

const WEBHOOK_TIMEOUT_MS = 10_000;
/** The most of an answer kept in the delivery log. */
const ANSWER_LIMIT = 1024;
/** An endpoint failing this long without a success is turned off and its owner told. */
const DISABLE_AFTER_MS = 3 * 24 * 3600_000;
const MAX_DELAY_MS = 3600_000;
// While an attempt runs, the row is due this much later, so the reconciler leaves it to its job.
const ATTEMPT_LEASE_MS = WEBHOOK_TIMEOUT_MS + 5_000;

type DeliveryRow = {
  id: number;
  userId: number;
  eventId: string;
  payload: string;
  endpointId: number | null;
  url: string | null;
  status: string;
  attempts: number;
  seriesStart: number;
  endpointUrl: string | null;
  endpointEnabled: number | null;
  secretCiphertext: string | null;
  failingSince: number | null;
  /** 1 when an admin has disabled the owner's account: nothing is pushed for it. */
  ownerDisabled: number;
};

/**
 * "Still pending", for the updates that pick their rows by id or endpoint. Written as a subquery so the
 * planner can neither match it to the partial index of pending deliveries nor estimate it from statistics
 * taken before a backlog: with the literal, PostgreSQL read every pending delivery to update a job's 25
 * (decision 144).
 */
const STILL_PENDING = "webhook_deliveries.status = (select 'pending')";

/** The statements' texts, exported for the plan test (tests/integration/postgres-webhook-plans.test.ts). */
export const deliveryStatements = {
  deliveries: sqlText<[string], DeliveryRow>({
    sqlite: `select d.id, e.user_id as userId, d.event_id as eventId, e.payload, d.endpoint_id as endpointId, d.url,
     d.status, d.attempts, d.created_at as seriesStart, p.url as endpointUrl, p.enabled as endpointEnabled,
     p.secret_ciphertext as secretCiphertext, p.failing_since as failingSince,
     (select disabled_at is not null from users where users.id = e.user_id) as ownerDisabled
   from webhook_deliveries d join webhook_events e on e.id = d.event_id
   left join webhook_endpoints p on p.id = d.endpoint_id
   where d.id in (select value from jsonb_each(?))`,
    postgres: `select d.id, e.user_id as "userId", d.event_id as "eventId", e.payload, d.endpoint_id as "endpointId", d.url,
     d.status, d.attempts, d.created_at as "seriesStart", p.url as "endpointUrl", p.enabled as "endpointEnabled",
     p.secret_ciphertext as "secretCiphertext", p.failing_since as "failingSince",
     (select disabled_at is not null from users where users.id = e.user_id) as "ownerDisabled"
   from webhook_deliveries d join webhook_events e on e.id = d.event_id
   left join webhook_endpoints p on p.id = d.endpoint_id
   where d.id = any(array(select value::bigint from jsonb_array_elements_text($1::jsonb)))`,
  }),
  // A job's attempts are claimed, and their answers recorded, by one UPDATE each (PostgreSQL: UPDATE ... FROM
  // jsonb_array_elements($3) in place of jsonb_each); a delivery still pending after the attempts read wins.
  // The rows are found by id (PostgreSQL: `id = any(...)` leads the plan) and tested with STILL_PENDING.
  claimAttempts: sqlText<[number, number, string], { id: number }>({
    sqlite: `update webhook_deliveries set attempts = attempts + 1, last_attempt_at = ?, next_attempt_at = ?
   from jsonb_each(?) j
   where webhook_deliveries.id = j.value ->> '$.id' and ${STILL_PENDING}
     and webhook_deliveries.attempts = j.value ->> '$.attempts'
   returning webhook_deliveries.id`,
    postgres: `update webhook_deliveries set attempts = attempts + 1, last_attempt_at = $1, next_attempt_at = $2
   from jsonb_array_elements($3::jsonb) j
   where webhook_deliveries.id = any(array(select (value ->> 'id')::bigint from jsonb_array_elements($3::jsonb)))
     and webhook_deliveries.id = (j.value ->> 'id')::bigint and ${STILL_PENDING}
     and webhook_deliveries.attempts = (j.value ->> 'attempts')::bigint
   returning webhook_deliveries.id`,
  }),
  recordAnswers: sqlText<[string]>({
    sqlite: `update webhook_deliveries set status = j.value ->> '$.status', next_attempt_at = j.value ->> '$.nextAt',
     last_status_code = j.value ->> '$.statusCode', last_duration_ms = j.value ->> '$.durationMs',
     last_answer = j.value ->> '$.answer', delivered_at = j.value ->> '$.deliveredAt'
   from jsonb_each(?) j
   where webhook_deliveries.id = j.value ->> '$.id' and ${STILL_PENDING}`,
    postgres: `update webhook_deliveries set status = j.value ->> 'status', next_attempt_at = (j.value ->> 'nextAt')::bigint,
     last_status_code = (j.value ->> 'statusCode')::bigint, last_duration_ms = (j.value ->> 'durationMs')::bigint,
     last_answer = j.value ->> 'answer', delivered_at = (j.value ->> 'deliveredAt')::bigint
   from jsonb_array_elements($1::jsonb) j
   where webhook_deliveries.id = any(array(select (value ->> 'id')::bigint from jsonb_array_elements($1::jsonb)))
     and webhook_deliveries.id = (j.value ->> 'id')::bigint and ${STILL_PENDING}`,
  }),
  // Only while pending: a delivery dropped mid-attempt (past its account's cap) stays dropped.
  recordAnswer: sqlText<[string, number, number | null, number | null, string, number | null, number]>(
    `update webhook_deliveries set status = ?, next_attempt_at = ?, last_status_code = ?, last_duration_ms = ?,
     last_answer = ?, delivered_at = ? where id = ? and ${STILL_PENDING}`,
  ),
  endpointAnswered: sqlText<[number]>(
    "update webhook_endpoints set failing_since = null where id = ? and failing_since is not null",
  ),
  endpointFailed: sqlText<[number, number]>(
    "update webhook_endpoints set failing_since = ? where id = ? and failing_since is null",
  ),
  disableEndpoint: sqlText<[string, number, number]>({
    sqlite:
      "update webhook_endpoints set enabled = 0, disabled_reason = ?, updated_at = ? where id = ? and enabled = 1",
    postgres: `update webhook_endpoints set enabled = false, disabled_reason = $1, updated_at = $2 where id = $3 and enabled`,
  }),
  giveUpEndpoint: sqlText<[string, number]>(
    `update webhook_deliveries set status = 'failed', last_answer = ? where endpoint_id = ? and ${STILL_PENDING}`,
  ),
};
const queries = statements(deliveryStatements);

export type Answer = { ok: boolean; statusCode: number | null; durationMs: number; answer: string };

/** Doubling from WEBHOOK_RETRY_DELAY_MS, at most an hour, with 10 % jitter: retries of many events spread out. */
function retryDelayMs(attempts: number): number {
  const base = Math.min(getEnv().WEBHOOK_RETRY_DELAY_MS * 2 ** Math.max(0, attempts - 1), MAX_DELAY_MS);
  return Math.round(base * (0.9 + Math.random() * 0.2));
}

// Kept alive: a busy endpoint's deliveries reuse connections (each new one is still looked up and
// checked). undici rather than node:http: half the CPU per POST (decision 099); it follows no redirect.
const agent = new Agent({ connections: 50, connect: { lookup: safeLookup, timeout: WEBHOOK_TIMEOUT_MS } });

/** At most ANSWER_LIMIT bytes of an answer: the rest is not read (the connection is dropped rather than drained). */
async function readAnswer(body: Dispatcher.ResponseData["body"]): Promise<string> {
  const chunks: Buffer[] = [];
  let kept = 0;
  try {
    for await (const chunk of body as AsyncIterable<Buffer>) {
      chunks.push(chunk);
      kept += chunk.length;
      if (kept >= ANSWER_LIMIT) break;
    }
  } catch {
    // An answer cut off midway: what came is kept.
  }
  return Buffer.concat(chunks).subarray(0, ANSWER_LIMIT).toString("utf8");
}

/**
 * POSTs the body to `url` through the checked lookup: no redirect followed, 10 s in all (`timeoutMs`), at most
 * 1 KB of the answer read. Never throws: a refusal or network error is a failed Answer.
 */
export async function postWebhook(
  url: string,
  body: string,
  headers: Record<string, string>,
  timeoutMs = WEBHOOK_TIMEOUT_MS,
): Promise<Answer> {
  const started = performance.now();
  const answered = (answer: Omit<Answer, "durationMs">): Answer => ({
    ...answer,
    durationMs: Math.round(performance.now() - started),
  });
  let target: URL;
  try {
    target = parseWebhookUrl(url);
  } catch (error) {
    return answered({ ok: false, statusCode: null, answer: `Not sent: ${(error as Error).message}` });
  }
  const literal = refusedLiteral(target);
  if (literal) return answered({ ok: false, statusCode: null, answer: `Not sent: ${literal}` });
  const timeout = new AbortController();
  const timer = setTimeout(() => timeout.abort(), timeoutMs);
  try {
    const response = await agent.request({
      origin: target.origin,
      path: `${target.pathname}${target.search}`,
      method: "POST",
      headers: { ...headers, "content-type": "application/json", "user-agent": "smsgw-webhooks/1" },
      body,
      signal: timeout.signal,
    });
    const { statusCode } = response;
    let answer = await readAnswer(response.body);
    if (timeout.signal.aborted) throw timeout.signal.reason;
    if (statusCode >= 300 && statusCode < 400)
      answer = `Redirect to ${response.headers.location ?? "(no location)"} not followed`;
    return answered({ ok: statusCode >= 200 && statusCode < 300, statusCode, answer });
  } catch (error) {
    if (timeout.signal.aborted)
      return answered({ ok: false, statusCode: null, answer: `No answer within ${timeoutMs / 1000} s` });
    return answered({ ok: false, statusCode: null, answer: `Not delivered: ${(error as Error).message}` });
  } finally {
    clearTimeout(timer);
  }
}

/** The Standard Webhooks headers for one attempt: the event's id, this attempt's time, the signature. */
function signedHeaders(signer: WebhookSigner, eventId: string, payload: string, at: Date): Record<string, string> {
  return {
    "webhook-id": eventId,
    "webhook-timestamp": String(Math.floor(at.getTime() / 1000)),
    "webhook-signature": signer.sign(eventId, at, payload),
  };
}

/**
 * The claim and record transactions write only compare-and-set updates (a delivery still pending at the
 * attempts read, an endpoint's failing_since if clear): READ COMMITTED on PostgreSQL, so a reconciler's
 * burst of one endpoint's jobs waits on its row in turn instead of refusing each other (decision 131).
 */
const GUARDED_WRITES = { readCommitted: true };

export type AttemptResults = { delivered: number; retrying: number; failed: number; skipped: number };

// A job's POSTs in flight at once; with the queue's concurrency, what the agent's sockets allow.
const POSTS_PER_JOB = 5;

/** `run` over the items, at most `limit` at a time; the results in order. */
async function inTurns<T, R>(items: T[], limit: number, run: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await run(items[i]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
  return results;
}

type Attempt = { row: DeliveryRow; answer: Answer; nextAt: number };

/**
 * What a run of answers does to an endpoint, as they would one by one: a success clears its
 * failing_since, a failure sets it if clear, and a failure 3 days into a run turns it off.
 */
async function noteEndpointAnswers(tx: Tx, row: DeliveryRow, url: string, oks: boolean[], at: number): Promise<void> {
  const endpointId = row.endpointId!;
  if (oks.some(Boolean)) await queries.endpointAnswered.run(endpointId);
  if (oks.every(Boolean)) return;
  if (!oks[oks.length - 1]) await queries.endpointFailed.run(at, endpointId);
  const since = row.failingSince ?? at;
  if (!row.endpointEnabled || at - since < DISABLE_AFTER_MS) return;
  const reason = `Turned off on ${new Date(at).toISOString().slice(0, 10)}: no successful delivery for 3 days`;
  if ((await queries.disableEndpoint.run(reason, at, endpointId)).changes === 0) return;
  await queries.giveUpEndpoint.run("Given up: the endpoint was turned off after failing for 3 days", endpointId);
  const owner = await tx.select({ email: users.email }).from(users).where(eq(users.id, row.userId)).get();
  if (owner)
    await queueMail(tx, { userId: row.userId, kind: "webhook_disabled", to: owner.email, ...webhookDisabledMail(url) });
  forgetSubscriptions();
}

/** Records a job's answers, inside its transaction; each delivery's new status. */
async function recordAttempts(tx: Tx, attempts: Attempt[], urlOf: (row: DeliveryRow) => string, at: number) {
  const giveUpFrom = at - getEnv().WEBHOOK_RETRY_HOURS * 3600_000;
  const statuses = attempts.map(({ row, answer }) =>
    answer.ok ? ("delivered" as const) : row.seriesStart <= giveUpFrom ? ("failed" as const) : ("pending" as const),
  );
  await queries.recordAnswers.run(
    JSON.stringify(
      attempts.map(({ row, answer, nextAt }, i) => ({
        id: row.id,
        status: statuses[i],
        nextAt,
        statusCode: answer.statusCode,
        durationMs: answer.durationMs,
        answer: answer.answer,
        deliveredAt: answer.ok ? at : null,
      })),
    ),
  );
  const byEndpoint = new Map<number, Attempt[]>();
  for (const attempt of attempts)
    if (attempt.row.endpointId !== null)
      byEndpoint.set(attempt.row.endpointId, [...(byEndpoint.get(attempt.row.endpointId) ?? []), attempt]);
  for (const ofEndpoint of byEndpoint.values()) {
    const [{ row }] = ofEndpoint;
    await noteEndpointAnswers(
      tx,
      row,
      urlOf(row),
      ofEndpoint.map(({ answer }) => answer.ok),
      at,
    );
  }
  return statuses;
}

/**
 * Runs one attempt of each of a job's deliveries (one target's): one read, one transaction claiming
 * them, the POSTs, one transaction recording the answers, one Redis call for the retries. `attempt`
 * is the attempts made before (the job's), so a delivery of a stale job is skipped.
 */
export async function deliverWebhooks(batch: DeliveryAttempt[]): Promise<AttemptResults> {
  const results: AttemptResults = { delivered: 0, retrying: 0, failed: 0, skipped: 0 };
  const expected = new Map(batch.map((d) => [d.deliveryId, d.attempt]));
  const rows = (await queries.deliveries.all(JSON.stringify([...expected.keys()]))).filter(
    (row) => row.status === "pending" && row.attempts === expected.get(row.id),
  );
  const now = clock.now();
  // Test events too: a turned-off endpoint is sent nothing (decision 107); nor is a disabled account's endpoint (decision 104).
  const turnedOff = (row: DeliveryRow) =>
    Boolean(row.ownerDisabled) || (row.endpointId !== null && !row.endpointEnabled);
  const claimed = await withTxWithoutStalling(async () => {
    for (const row of rows.filter(turnedOff)) {
      const why = row.ownerDisabled ? "the account is disabled" : "the endpoint is turned off";
      await queries.recordAnswer.run("failed", now, null, null, `Not sent: ${why}`, null, row.id);
    }
    const toClaim = rows.filter((row) => !turnedOff(row)).map((row) => ({ id: row.id, attempts: row.attempts }));
    if (toClaim.length === 0) return [];
    const won = new Set(
      (await queries.claimAttempts.all(now, now + ATTEMPT_LEASE_MS, JSON.stringify(toClaim))).map((row) => row.id),
    );
    return rows.filter((row) => won.has(row.id));
  }, GUARDED_WRITES);
  results.failed = rows.filter(turnedOff).length;
  results.skipped = batch.length - claimed.length - results.failed;
  if (claimed.length === 0) return results;
  // A job's deliveries share a target: its secret is opened once.
  const signers = new Map<string, WebhookSigner>();
  const signerOf = async (row: DeliveryRow) => {
    const target = row.endpointId === null ? `callback ${row.userId}` : `endpoint ${row.endpointId}`;
    let signer = signers.get(target);
    if (!signer) {
      const secret =
        row.endpointId === null
          ? await getCallbackSecret(row.userId)
          : endpointSecret(row.endpointId, row.secretCiphertext!);
      signers.set(target, (signer = new WebhookSigner(secret)));
    }
    return signer;
  };
  const urlOf = (row: DeliveryRow) => (row.endpointId === null ? row.url! : row.endpointUrl!);
  const answers = await inTurns(claimed, POSTS_PER_JOB, async (row) =>
    postWebhook(urlOf(row), row.payload, signedHeaders(await signerOf(row), row.eventId, row.payload, clock.date())),
  );
  const at = clock.now();
  const attempts = claimed.map((row, i) => ({ row, answer: answers[i], nextAt: at + retryDelayMs(row.attempts + 1) }));
  const statuses = await withTxWithoutStalling((tx) => recordAttempts(tx, attempts, urlOf, at), GUARDED_WRITES);
  const retries = attempts.filter((_, i) => statuses[i] === "pending");
  for (const status of statuses) if (status !== "pending") results[status] += 1;
  results.retrying = retries.length;
  if (retries.length === 0) return results;
  // Each retry its own job: the jitter spreads them, and the reconciler re-adds the same job ids.
  await enqueueAfterCommit(`webhook retries ${retries.length}`, () =>
    addWebhookJobs(
      retries.map(({ row, nextAt }) => ({
        deliveries: [{ deliveryId: row.id, attempt: row.attempts + 1 }],
        delayMs: nextAt - clock.now(),
      })),
    ),
  );
  return results;
}
