// The fault run's invariants, read from the outside: what the API answered, the database afterwards
// and the SMSC's own record of every submit_sm it accepted.
import type { Database } from "better-sqlite3";
import type { RecordedSubmit } from "#tests/support/smpp-server.ts";

/** Reads rows with `?` parameters from the database under check, SQLite's or PostgreSQL's (aliases quoted: PostgreSQL folds bare ones). */
export type Rows = <Row>(text: string, ...params: unknown[]) => Promise<Row[]>;

/** Rows from a SQLite file opened by the caller (e.g. a restored backup). */
export const sqliteRows =
  (db: Database): Rows =>
  async <Row>(text: string, ...params: unknown[]) =>
    db.prepare(text).all(...params) as Row[];

export type PlannedSend = { index: number; user: number; to: string; body: string; key: string };
export type SendOutcome = { status: number; messageId?: number; attempts: number; replayed: boolean; error?: string };
export type FaultUser = { id: number; granted: number };
export type InboundSent = { from: string; body: string; acknowledged: boolean };
export type PageVisit = { path: string; at: number; status: number };
export type StripeFacts = {
  orderId: number;
  intentId: string;
  userId: number;
  credits: number;
  webhookStatuses: number[];
};

type MessageRow = {
  id: number;
  userId: number;
  to: string;
  body: string;
  segments: number;
  credits: number;
  status: string;
  error: string | null;
  apiRef: string | null;
};

const FINAL_OK = new Set(["delivered", "failed", "unknown"]);

type CarrierFailure = "undelivered" | "expired" | "rejected";
const CARRIER_RECEIPTS = { undelivered: "UNDELIV", expired: "EXPIRED", rejected: "REJECTD" } as const;
// By the number's last two digits (the send's index mod 100 in the fault run: the first customer's).
const CARRIER_FAILS_ENDING: Record<string, CarrierFailure> = { "12": "undelivered", "32": "expired", "52": "rejected" };

/** What the fault run's SMSC answers for a number: a few numbers fail at the carrier, the rest are delivered. */
export function carrierFailureOf(to: string): CarrierFailure | null {
  return CARRIER_FAILS_ENDING[to.slice(-2)] ?? null;
}

/** The fault run's SMSC's receipt for a submit (TestSmsc's receiptFor). */
export function carrierReceiptFor(destination: string) {
  const failure = carrierFailureOf(destination);
  return failure ? CARRIER_RECEIPTS[failure] : "DELIVRD";
}

/** A message in flight at a kill reached the SMSC at most this long before it (an answer takes far less). */
const UNKNOWN_WINDOW_MS = 10_000;

/** At most this many examples per kind of violation, so one bug does not print 10,000 lines. */
const EXAMPLES = 5;

/** The named checks, in report order; `npm test` counts each as one test. */
export const CHECKS = {
  api: "API: every request answered 201 or 402; each accepted one has exactly its one message, none other exists",
  final:
    "none lost: every message delivered (or undelivered, expired, rejected as the SMSC's receipts say), or failed with a reason, or unknown because a worker was killed while it was in flight",
  smsc: "SMSC: no part submitted twice; every part of a known message, to its number, with its text",
  credits:
    "credits: balance == grants - debits + refunds for every user; one debit per message; refunds only for parts the SMSC never took",
  webhooks:
    "webhooks: every status change of the first customer's messages delivered at least once, signed; none that did not happen; one payload per webhook-id",
  stripe: "Stripe: 5 concurrent webhook deliveries acknowledged; the order confirmed once with exactly one grant",
  inbound:
    "inbound: every two-part SMS whose parts came over different binds stored once, joined, its retransmitted part not again",
  pages: "pages: every page request through the proxy answered below 500, except while a fault was under way",
  settled: "settled: every message final and every webhook delivered in time, the outbox empty",
  run: "run: every fault happened, no process exited on its own",
} as const;
export type CheckName = keyof typeof CHECKS;

export class Findings {
  readonly problems = new Map<CheckName, Map<string, string[]>>();
  stats: Record<string, unknown> = {};

  fail(check: CheckName, kind: string, example = "") {
    const kinds = this.problems.get(check) ?? new Map<string, string[]>();
    this.problems.set(check, kinds);
    kinds.set(kind, [...(kinds.get(kind) ?? []), example]);
  }

  /** One line per check: passed, or each kind of violation with a count and a few examples. */
  results(): { check: CheckName; name: string; passed: boolean; details: string[] }[] {
    return (Object.keys(CHECKS) as CheckName[]).map((check) => {
      const kinds = [...(this.problems.get(check) ?? new Map<string, string[]>()).entries()];
      const details = kinds.map(([kind, examples]) => {
        const shown = examples.filter(Boolean).slice(0, EXAMPLES);
        return `${kind}${examples.length > 1 ? ` (${examples.length}x)` : ""}${shown.length ? `: ${shown.join("; ")}` : ""}`;
      });
      return { check, name: CHECKS[check], passed: kinds.length === 0, details };
    });
  }
}

function readMessages(db: Rows): Promise<MessageRow[]> {
  return db<MessageRow>(
    `select id, user_id as "userId", to_phone as "to", body, segments, credits, status, error, api_ref as "apiRef"
     from sms_messages order by id`,
  );
}

/** Reads the database and the SMSC's log after the run; every violation goes to `findings`. */
export async function checkInvariants(input: {
  db: Rows;
  plan: PlannedSend[];
  outcomes: SendOutcome[];
  users: FaultUser[];
  submits: RecordedSubmit[];
  stripe: StripeFacts;
  /** When the worker was SIGKILLed and its SMSC sessions then, and how many messages one worker has in flight at most. */
  kills: { at: number; sessions: number[] }[];
  inFlight: number;
  /** The final status the SMSC's receipts give a number other than delivered (default: none). */
  carrierFailure?: (to: string) => string | null;
  findings: Findings;
}): Promise<void> {
  const { db, plan, outcomes, users, submits, stripe, kills, inFlight, carrierFailure, findings } = input;

  const messages = await readMessages(db);
  const byRef = new Map<string, MessageRow[]>();
  for (const m of messages) {
    const key = `${m.userId}|${m.apiRef}`;
    byRef.set(key, [...(byRef.get(key) ?? []), m]);
  }

  // 1. The API: every request answered for good; each accepted one has exactly its one message.
  let accepted = 0;
  let refused = 0;
  for (const send of plan) {
    const outcome = outcomes[send.index];
    const userId = users[send.user].id;
    const rows = byRef.get(`${userId}|${send.key}`) ?? [];
    if (outcome.status === 201) {
      accepted += 1;
      if (rows.length !== 1)
        findings.fail("api", "an accepted request has not exactly one message", `${send.key}: ${rows.length} rows`);
      else if (rows[0].id !== outcome.messageId)
        findings.fail(
          "api",
          "the message is not the one the API answered with",
          `${send.key}: answered ${outcome.messageId}, stored ${rows[0].id}`,
        );
      else if (rows[0].to !== send.to || rows[0].body !== send.body)
        findings.fail("api", "the stored message differs from the request", `${send.key} (message ${rows[0].id})`);
    } else if (outcome.status === 402) {
      refused += 1;
      if (rows.length !== 0)
        findings.fail("api", "a request refused for credits stored a message", `${send.key}: message ${rows[0].id}`);
    } else {
      findings.fail(
        "api",
        "a request never got a final answer (201 or 402)",
        `${send.key}: last status ${outcome.status} ${outcome.error ?? ""} after ${outcome.attempts} tries`,
      );
    }
  }
  if (messages.length !== accepted)
    findings.fail(
      "api",
      "messages that no accepted request asked for",
      `${messages.length} messages for ${accepted} accepted requests`,
    );

  await checkMessagesAndCredits({ db, messages, users, submits, stripe, kills, inFlight, carrierFailure, findings });
  findings.stats = {
    requests: plan.length,
    accepted,
    refusedForCredits: refused,
    retriedRequests: outcomes.filter((o) => o.attempts > 1).length,
    replayedAnswers: outcomes.filter((o) => o.replayed).length,
    ...findings.stats,
  };
}

/**
 * The invariants that need no record of the requests: every part at the SMSC once and for a
 * message we have, every message final, the ledger exactly what happened, nothing left for a
 * reconciler. Also checked after a backup is restored (tests/integration/backup-restore.test.ts).
 */
export async function checkMessagesAndCredits(input: {
  db: Rows;
  /** Read from the database when not given. */
  messages?: MessageRow[];
  users: FaultUser[];
  submits: RecordedSubmit[];
  /** The Stripe order of the fault run, when there is one. */
  stripe?: StripeFacts;
  kills: { at: number; sessions: number[] }[];
  inFlight: number;
  carrierFailure?: (to: string) => string | null;
  findings: Findings;
}): Promise<void> {
  const { db, users, submits, stripe, kills, inFlight, findings } = input;
  const carrierFailure = input.carrierFailure ?? (() => null);
  const messages = input.messages ?? (await readMessages(db));
  const byId = new Map(messages.map((m) => [m.id, m]));

  // 2. The SMSC's record: each part at most once, to the right number, and only for messages we have.
  const partsSeen = new Map<number, Map<number, RecordedSubmit>>();
  let duplicates = 0;
  for (const submit of submits) {
    const messageId = submit.userMessageReference ?? -1;
    const message = byId.get(messageId);
    if (!message) {
      findings.fail(
        "smsc",
        "the SMSC got a message the database does not have",
        `user_message_reference ${submit.userMessageReference}`,
      );
      continue;
    }
    const part = submit.concat?.sequence ?? 1;
    const parts = partsSeen.get(messageId) ?? new Map<number, RecordedSubmit>();
    partsSeen.set(messageId, parts);
    if (parts.has(part)) {
      duplicates += 1;
      findings.fail("smsc", "a part was submitted twice", `message ${messageId} part ${part}`);
    }
    parts.set(part, submit);
    if (`+${submit.destination}` !== message.to)
      findings.fail("smsc", "a part went to the wrong number", `message ${messageId}: ${submit.destination}`);
    if ((submit.concat?.total ?? 1) !== message.segments)
      findings.fail("smsc", "a part says the wrong total", `message ${messageId}`);
  }
  const textOf = (parts: Map<number, RecordedSubmit>) =>
    [...parts.entries()]
      .sort(([a], [b]) => a - b)
      .map(([, s]) => s.text)
      .join("");

  // 3. Every message final: delivered (every part seen, the text intact), failed with a reason, the
  // carrier's failure where the SMSC's receipts give one (also whole at the SMSC), or unknown: in flight when a worker was killed, so nobody recorded the SMSC's answer. Such a message
  // is not sent again (never twice); whether the SMSC got it only its log can tell.
  const counts: Record<string, number> = {};
  const unknownAt = { smsc: 0, partly: 0, not: 0 };
  for (const m of messages) {
    counts[m.status] = (counts[m.status] ?? 0) + 1;
    const parts = partsSeen.get(m.id) ?? new Map();
    const carrierSays = carrierFailure(m.to);
    if (!FINAL_OK.has(m.status) && m.status !== carrierSays) {
      findings.fail(
        m.status === "queued" || m.status === "submitting" || m.status === "submitted" ? "settled" : "final",
        `a message is stuck or ended ${m.status}`,
        `message ${m.id}: ${m.status} ${m.error ?? ""}`,
      );
      continue;
    }
    if (m.status === "delivered" && carrierSays)
      findings.fail("final", "delivered, but the SMSC's receipts say otherwise", `message ${m.id}: ${carrierSays}`);
    if (m.status === "delivered" || (carrierSays && m.status === carrierSays)) {
      if (parts.size !== m.segments)
        findings.fail(
          "smsc",
          "a delivered (or carrier-failed) message the SMSC did not get whole",
          `message ${m.id}: ${parts.size}/${m.segments} parts`,
        );
      else if (textOf(parts) !== m.body)
        findings.fail("smsc", "the SMSC got other text than the message's", `message ${m.id}`);
    }
    if (m.status !== "delivered" && !m.error)
      findings.fail("final", "a failed or unknown message without a reason", `message ${m.id}: ${m.status}`);
    if (m.status === "unknown") {
      if (parts.size === m.segments) unknownAt.smsc += 1;
      else if (parts.size > 0) unknownAt.partly += 1;
      else unknownAt.not += 1;
      // Its parts came over a killed worker's connection just before the kill (not, e.g., over one the SMSC dropped).
      const killed = (p: RecordedSubmit) =>
        kills.some((k) => k.sessions.includes(p.session) && p.receivedAt > k.at - UNKNOWN_WINDOW_MS);
      const other = [...parts.values()].find((p) => !killed(p));
      if (other)
        findings.fail(
          "final",
          "unknown, but it was not in flight at a worker kill",
          `message ${m.id} part ${other.concat?.sequence ?? 1} (SMSC session ${other.session})`,
        );
    }
    if (m.status === "failed" && parts.size === m.segments)
      findings.fail("final", "a failed message the SMSC accepted whole", `message ${m.id}: ${m.error}`);
  }

  const unknown = counts.unknown ?? 0;
  if (unknown > kills.length * inFlight)
    findings.fail(
      "final",
      "more messages unknown than the killed workers had in flight",
      `${unknown} after ${kills.length} kills of ${inFlight} each`,
    );

  // 4. Credits: the cached balance is the ledger's sum, and the ledger is what happened: the grants,
  // one debit per message, a refund only for what the SMSC never accepted of a failed message.
  const ledger = await db<{ userId: number; kind: string; amount: number; key: string }>(
    'select user_id as "userId", kind, amount, key from credit_ledger',
  );
  const entries = new Map(ledger.map((e) => [e.key, e]));
  const balances: Record<
    number,
    { balance: number; grants: number; debits: number; refunds: number; adjustments: number }
  > = {};
  for (const user of users) {
    const own = ledger.filter((e) => e.userId === user.id);
    const sum = (kind: string) => own.filter((e) => e.kind === kind).reduce((s, e) => s + e.amount, 0);
    const [row] = await db<{ balance: number }>("select credit_balance as balance from users where id = ?", user.id);
    const totals = {
      balance: row.balance,
      grants: sum("grant"),
      debits: -sum("debit"),
      refunds: sum("refund"),
      adjustments: sum("adjustment"),
    };
    balances[user.id] = totals;
    if (totals.balance !== own.reduce((s, e) => s + e.amount, 0))
      findings.fail("credits", "balance != sum of the ledger", `user ${user.id}: ${JSON.stringify(totals)}`);
    if (totals.balance !== totals.grants - totals.debits + totals.refunds + totals.adjustments)
      findings.fail("credits", "balance != grants - debits + refunds", `user ${user.id}`);
    if (totals.balance < 0) findings.fail("credits", "a negative balance", `user ${user.id}: ${totals.balance}`);
    const expectedGrants = user.granted + (user.id === stripe?.userId ? stripe.credits : 0);
    if (totals.grants !== expectedGrants)
      findings.fail(
        "credits",
        "grants differ from what was granted",
        `user ${user.id}: ${totals.grants} != ${expectedGrants}`,
      );
    if (totals.adjustments !== 0)
      findings.fail("credits", "an adjustment nobody made", `user ${user.id}: ${totals.adjustments}`);
    const ownMessages = messages.filter((m) => m.userId === user.id);
    const charged = ownMessages.reduce((s, m) => s + m.credits, 0);
    if (totals.debits !== charged)
      findings.fail(
        "credits",
        "debits differ from the messages' credits",
        `user ${user.id}: ${totals.debits} != ${charged}`,
      );
    if (own.filter((e) => e.kind === "debit").length !== ownMessages.length)
      findings.fail("credits", "not one debit per message", `user ${user.id}`);
  }
  for (const m of messages) {
    const debit = entries.get(`msg:${m.id}:debit`);
    if (!debit || debit.amount !== -m.credits || debit.userId !== m.userId)
      findings.fail("credits", "a message without its debit", `message ${m.id}`);
    const refund = entries.get(`msg:${m.id}:refund`)?.amount ?? 0;
    const acceptedParts = partsSeen.get(m.id)?.size ?? 0;
    const due = m.status === "failed" ? Math.round((m.credits * (m.segments - acceptedParts)) / m.segments) : 0;
    if (refund !== due)
      findings.fail(
        "credits",
        "a refund that is not what the SMSC left unsent",
        `message ${m.id} (${m.status}, ${acceptedParts}/${m.segments} parts at the SMSC): refunded ${refund}, due ${due}`,
      );
  }

  // 5. The Stripe order: confirmed once, one grant, every delivery of the webhook acknowledged.
  if (stripe) {
    const [order] = await db<{ status: string; paymentId: string | null }>(
      'select status, payment_id as "paymentId" from orders where id = ?',
      stripe.orderId,
    );
    if (order?.status !== "Confirmed" || order.paymentId !== stripe.intentId)
      findings.fail("stripe", "the Stripe order is not confirmed by its payment", JSON.stringify(order));
    const grants = ledger.filter((e) => e.kind === "grant" && e.key === `payment:${stripe.intentId}`);
    if (grants.length !== 1 || grants[0].amount !== stripe.credits || grants[0].userId !== stripe.userId)
      findings.fail("stripe", "the Stripe payment was not granted exactly once", JSON.stringify(grants));
    if (!stripe.webhookStatuses.every((s) => s === 200))
      findings.fail("stripe", "a webhook delivery was not acknowledged", stripe.webhookStatuses.join(","));
  }

  // 6. Nothing left behind for a reconciler.
  const [{ n: outbox }] = await db<{ n: number }>("select count(*) as n from sms_outbox");
  if (outbox !== 0) findings.fail("settled", "the outbox is not empty", `${outbox} rows`);
  const [{ n: pendingReceipts }] = await db<{ n: number }>("select count(*) as n from sms_pending_receipts");

  findings.stats = {
    messages: messages.length,
    parts: messages.reduce((s, m) => s + m.segments, 0),
    statuses: counts,
    unknownAtSmsc: unknownAt,
    smscAcceptedSubmits: submits.length,
    duplicateParts: duplicates,
    pendingReceiptsLeft: pendingReceipts,
    outbox,
    balances,
  };
}

/** Each inbound SMS the SMSC sent (two parts and a retransmission) is one joined message; no part is left unjoined. */
export async function checkInbound(db: Rows, sent: InboundSent[], findings: Findings): Promise<void> {
  const stored = await db<{ from: string; body: string; parts: number }>(
    "select from_phone as \"from\", body, parts from inbound_messages where body like 'Fault inbound %'",
  );
  const byFrom = new Map<string, { body: string; parts: number }[]>();
  for (const row of stored) byFrom.set(row.from, [...(byFrom.get(row.from) ?? []), row]);
  for (const { from, body, acknowledged } of sent) {
    const rows = byFrom.get(from) ?? [];
    if (!acknowledged) findings.fail("inbound", "the gateway never acknowledged a part", from);
    if (rows.length !== 1)
      findings.fail("inbound", "an inbound SMS not stored exactly once", `${from}: ${rows.length}`);
    else if (rows[0].body !== body || rows[0].parts !== 2)
      findings.fail("inbound", "an inbound SMS not joined", `${from}: ${rows[0].parts} parts, ${rows[0].body}`);
  }
  const [{ n: unjoined }] = await db<{ n: number }>("select count(*) as n from inbound_parts");
  if (unjoined !== 0) findings.fail("inbound", "parts left unjoined", `${unjoined}`);
  if (sent.length === 0) findings.fail("inbound", "no inbound SMS was sent");
  findings.stats.inbound = { sent: sent.length, stored: stored.length, unjoined };
}

/** Pages answer while the faults go on; a 5xx or no answer only while one is under way (plus a few seconds). */
export function checkPages(visits: PageVisit[], faults: { from: number; to: number }[], findings: Findings): void {
  const GRACE_MS = 5_000;
  const duringFault = (at: number) => faults.some((f) => at >= f.from - GRACE_MS && at <= f.to + GRACE_MS);
  let failedDuringFaults = 0;
  for (const visit of visits) {
    if (visit.status > 0 && visit.status < 500) continue;
    if (duringFault(visit.at)) failedDuringFaults += 1;
    else findings.fail("pages", "a page failed while no fault was under way", `${visit.path}: ${visit.status}`);
  }
  if (visits.length === 0) findings.fail("pages", "no page was requested");
  findings.stats.pages = { requests: visits.length, failedDuringFaults };
}
