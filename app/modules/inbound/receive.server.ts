// Inbound SMS in: stored (parts joined, retransmissions dropped, an owner found) before the transport
// acknowledges the PDU, then processed by a job (keywords, replies) through an outbox row.
import { createHash } from "node:crypto";
import { withTx, withTxWithoutStalling } from "#app/db/client.server.ts";
import { noteMessageReceived } from "#app/modules/webhooks/account-events.server.ts";
import { sqlText, statements } from "#app/db/statements.server.ts";
import { enqueueAfterCommit } from "#app/queue/enqueue-after-commit.server.ts";
import { addSmsInboundJobs } from "#app/queue/jobs/sms-inbound.server.ts";
import { clock } from "#app/utils/clock.server.ts";
import { Coalescer } from "#app/utils/coalescer.server.ts";
import { decodeInboundText } from "#app/modules/inbound/text.server.ts";
import { findSenderByAddress, isSharedSenderAddress } from "#app/modules/senders/senders.server.ts";
import type { InboundSms } from "#app/modules/messaging/transport-types.ts";

/** A PDU seen again within this long (its acknowledgement was lost) is the same message. */
const DEDUPE_WINDOW_MS = 10 * 60_000;
/** An inbound to the shared sender belongs to the one account that wrote to that phone within this long. */
export const SHARED_REPLY_WINDOW_MS = 30 * 24 * 3_600_000;
/** Parts of a message whose other parts never came are dropped after this. */
const PARTS_TTL_MS = 24 * 3_600_000;

const queries = statements({
  recent: sqlText<[string, number], { id: number }>(
    "select id from inbound_messages where dedupe_key = ? and received_at >= ? limit 1",
  ),
  insertPart: sqlText<[string, number, number, string, string, number, Buffer, number]>(
    `insert into inbound_parts (concat_key, sequence, total, from_phone, to_address, data_coding, payload, received_at)
   values (?, ?, ?, ?, ?, ?, ?, ?) on conflict do nothing`,
  ),
  parts: sqlText<[string], { payload: Buffer; dataCoding: number }>(
    "select payload, data_coding as dataCoding from inbound_parts where concat_key = ? order by sequence",
  ),
  deleteParts: sqlText<[string]>("delete from inbound_parts where concat_key = ?"),
  deleteStaleParts: sqlText<[number]>("delete from inbound_parts where received_at < ?"),
  // A batch's single-part messages (storeSingles): their keys seen within the window, one statement.
  recentKeys: sqlText<[string, number], { key: string }>({
    sqlite: `select dedupe_key as key from inbound_messages
   where dedupe_key in (select value from jsonb_each(?)) and received_at >= ?`,
    postgres: `select dedupe_key as key from inbound_messages
   where dedupe_key = any(array(select value from jsonb_array_elements_text($1::jsonb))) and received_at >= $2`,
  }),
  // Each phone's first and last account that wrote to it from the shared sender in the window: the
  // owner when they are the same (sharedSenderWriters' question for many phones, without a DISTINCT).
  writersOf: sqlText<[string, number, number], { phone: string; first: number; last: number }>({
    sqlite: `select to_phone as phone, min(user_id) as first, max(user_id) as last from sms_messages
   where to_phone in (select value from jsonb_each(?)) and created_at >= ? and created_at <= ?
     and from_address is null and source <> 'keyword'
   group by to_phone`,
    postgres: `select to_phone as phone, min(user_id) as first, max(user_id) as last from sms_messages
   where to_phone = any(array(select value from jsonb_array_elements_text($1::jsonb))) and created_at >= $2
     and created_at <= $3 and from_address is null and source <> 'keyword'
   group by to_phone`,
  }),
  // Each row an array [user id, from, to, body, encoding, parts, dedupe key]; ids ascend in row order.
  insertMessages: sqlText<[number, string], { id: number }>({
    sqlite: `insert into inbound_messages (user_id, from_phone, to_address, body, encoding, parts, dedupe_key, received_at)
   select value ->> 0, value ->> 1, value ->> 2, value ->> 3, value ->> 4, value ->> 5, value ->> 6, ?
   from jsonb_each(?) order by key
   returning id`,
    postgres: `insert into inbound_messages (user_id, from_phone, to_address, body, encoding, parts, dedupe_key, received_at)
   select (m.value ->> 0)::bigint, m.value ->> 1, m.value ->> 2, m.value ->> 3, m.value ->> 4, (m.value ->> 5)::int,
     m.value ->> 6, $1::bigint
   from jsonb_array_elements($2::jsonb) with ordinality m(value, key) order by m.key
   returning id`,
  }),
  insertOutboxes: sqlText<[number, string]>({
    sqlite: "insert into inbound_outbox (message_id, due_at) select value, ? from jsonb_each(?)",
    postgres: `insert into inbound_outbox (message_id, due_at)
   select value::bigint, $1::bigint from jsonb_array_elements_text($2::jsonb)`,
  }),
  // Automatic keyword answers are the gateway's, not an account writing to the phone.
  sharedWriters: sqlText<[string, number, number, number], { userId: number }>(
    `select distinct user_id as userId from sms_messages
   where to_phone = ? and created_at >= ? and created_at <= ? and from_address is null and source <> 'keyword'
   limit ?`,
  ),
});

/**
 * The accounts that wrote to `phone` from the shared sender in the window before `at`, at most
 * `limit` of them (two tell "exactly one" from "several").
 */
export async function sharedSenderWriters(phone: string, at: number, limit: number): Promise<number[]> {
  return (await queries.sharedWriters.all(phone, at - SHARED_REPLY_WINDOW_MS, at, limit)).map((row) => row.userId);
}

type Whole = { from: string; to: string; dataCoding: number; payload: Buffer; parts: number; dedupeKey: string };

/** A message that came in one PDU; a retransmission has the same key. */
function singleWhole(sms: InboundSms): Whole {
  const { from, to, dataCoding, payload } = sms;
  const hash = createHash("sha256").update(`${from}|${to}|${dataCoding}|`).update(payload).digest("hex");
  return { from, to, dataCoding, payload, parts: 1, dedupeKey: `text:${hash}` };
}

/** The whole message this PDU completes (itself when not concatenated), or null when parts are missing. */
async function wholeMessage(sms: InboundSms, now: number): Promise<Whole | null> {
  const { from, to, concat } = sms;
  if (!concat) return singleWhole(sms);
  const concatKey = `${from}|${to}|${concat.reference}|${concat.total}`;
  const dedupeKey = `concat:${concatKey}`;
  // A part sent again after its message was joined must not start a new one.
  if (await queries.recent.get(dedupeKey, now - DEDUPE_WINDOW_MS)) return null;
  await queries.insertPart.run(concatKey, concat.sequence, concat.total, from, to, sms.dataCoding, sms.payload, now);
  const parts = await queries.parts.all(concatKey);
  if (parts.length < concat.total) return null;
  await queries.deleteParts.run(concatKey);
  const payload = Buffer.concat(parts.map((p) => p.payload));
  return { from, to, dataCoding: parts[0].dataCoding, payload, parts: parts.length, dedupeKey };
}

/** Stores the PDU's message (or part); the new message's id, or null (a part, or a retransmission). */
async function storeInbound(sms: InboundSms, now: number): Promise<number | null> {
  const whole = await wholeMessage(sms, now);
  if (!whole || (whole.parts === 1 && (await queries.recent.get(whole.dedupeKey, now - DEDUPE_WINDOW_MS)))) return null;
  const [userId] = await ownersOf([whole], now);
  return (await insertWholes([{ whole, userId }], now))[0];
}

/**
 * Stores single-part messages a statement each for the batch, not each message: their keys seen
 * before (or earlier in the batch) dropped, their owners found, then their rows and outbox rows.
 */
async function storeSingles(wholes: Whole[], now: number): Promise<number[]> {
  if (wholes.length === 0) return [];
  const seen = new Set(
    (
      await queries.recentKeys.all(JSON.stringify([...new Set(wholes.map((w) => w.dedupeKey))]), now - DEDUPE_WINDOW_MS)
    ).map((row) => row.key),
  );
  const fresh = wholes.filter((whole) => !seen.has(whole.dedupeKey) && seen.add(whole.dedupeKey));
  const owners = await ownersOf(fresh, now);
  return await insertWholes(
    fresh.map((whole, i) => ({ whole, userId: owners[i] })),
    now,
  );
}

/**
 * The account each inbound message belongs to: the owner of the sender it was sent to; on the shared
 * default sender, the one account that wrote to that phone from it within 30 days (none, or two
 * and more: nobody, so no account reads another's reply); otherwise nobody
 * (docs/decisions/051-who-owns-an-inbound-message.md). A sender look-up per address, one query for
 * the shared sender's phones.
 */
async function ownersOf(wholes: Whole[], now: number): Promise<(number | null)[]> {
  const senders = new Map<string, number | null>();
  for (const { to } of wholes) {
    if (!senders.has(to)) senders.set(to, (await findSenderByAddress(to))?.userId ?? null);
  }
  const shared = wholes.filter(({ to }) => senders.get(to) === null && isSharedSenderAddress(to)).map((w) => w.from);
  const writers =
    shared.length === 0
      ? new Map<string, number>()
      : new Map(
          (await queries.writersOf.all(JSON.stringify([...new Set(shared)]), now - SHARED_REPLY_WINDOW_MS, now))
            .filter((row) => row.first === row.last)
            .map((row) => [row.phone, row.first]),
        );
  return wholes.map(
    ({ from, to }) => senders.get(to) ?? (isSharedSenderAddress(to) ? (writers.get(from) ?? null) : null),
  );
}

/** The messages' rows and outbox rows, two statements for all; their ids, in order. */
async function insertWholes(rows: { whole: Whole; userId: number | null }[], now: number): Promise<number[]> {
  if (rows.length === 0) return [];
  const decoded = rows.map(({ whole }) => decodeInboundText(whole.payload, whole.dataCoding));
  const json = rows.map(({ whole, userId }, i) => [
    userId,
    whole.from,
    whole.to,
    // A lone surrogate travels in JSON as an escape SQLite would store as three bytes: stored as one
    // replacement character, as a bound parameter stores it.
    decoded[i].text.toWellFormed(),
    decoded[i].encoding,
    whole.parts,
    whole.dedupeKey,
  ]);
  const ids = (await queries.insertMessages.all(now, JSON.stringify(json))).map((row) => row.id).sort((a, b) => a - b);
  await queries.insertOutboxes.run(now, JSON.stringify(ids));
  for (const [i, { whole, userId }] of rows.entries()) {
    const { text, encoding } = decoded[i];
    await noteMessageReceived(userId, {
      id: ids[i],
      from: whole.from,
      to: whole.to,
      body: text,
      encoding,
      parts: whole.parts,
      receivedAt: now,
    });
  }
  return ids;
}

// Messages stored within this window share one job (as sends do, see send.server.ts).
const ENQUEUE_WINDOW_MS = 10;
let inboundJobs: Coalescer<number[], void> | undefined;

function enqueueTogether(inboundIds: number[]): Promise<void> {
  inboundJobs ??= new Coalescer<number[], void>({
    windowMs: ENQUEUE_WINDOW_MS,
    run: async (lists) => {
      await addSmsInboundJobs(lists.flat());
      return lists.map(() => undefined);
    },
  });
  return inboundJobs.add(inboundIds);
}

/** For process shutdown, before the queues close: the processing jobs still gathering are added. */
export async function shutdownInboundJobs(): Promise<void> {
  await inboundJobs?.shutdown();
}

/**
 * A transport's InboundSink: stores the messages in one transaction (resolving once they are safe,
 * so their PDUs can be acknowledged), then adds their processing job.
 */
export async function receiveInbound(messages: InboundSms[]): Promise<void> {
  const ids = await withTxWithoutStalling(async () => {
    const now = clock.now();
    const stored: number[] = [];
    // Single-part messages are stored together; a part of a concatenated one, in arrival order
    // after those before it, one at a time (it may join a message or be seen again).
    let singles: Whole[] = [];
    for (const sms of messages) {
      if (!sms.concat) {
        singles.push(singleWhole(sms));
        continue;
      }
      stored.push(...(await storeSingles(singles, now)));
      singles = [];
      const id = await storeInbound(sms, now);
      if (id !== null) stored.push(id);
    }
    stored.push(...(await storeSingles(singles, now)));
    return stored;
  });
  if (ids.length > 0) void enqueueAfterCommit(`${ids.length} inbound messages`, () => enqueueTogether(ids));
}

/** Drops the parts of concatenated messages that never completed. */
export async function purgeStaleParts(now = clock.now()): Promise<number> {
  return await withTx(async () => (await queries.deleteStaleParts.run(now - PARTS_TTL_MS)).changes);
}
