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
  insertMessage: sqlText<[number | null, string, string, string, string, number, string, number]>({
    sqlite: `insert into inbound_messages (user_id, from_phone, to_address, body, encoding, parts, dedupe_key, received_at)
   values (?, ?, ?, ?, ?, ?, ?, ?)`,
    postgres: `insert into inbound_messages (user_id, from_phone, to_address, body, encoding, parts, dedupe_key, received_at)
   values ($1, $2, $3, $4, $5, $6, $7, $8) returning id`,
  }),
  insertOutbox: sqlText<[number, number]>("insert into inbound_outbox (message_id, due_at) values (?, ?)"),
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

/**
 * The account an inbound message belongs to: the owner of the sender it was sent to; on the shared
 * default sender, the one account that wrote to that phone from it within 30 days (none, or two
 * and more: nobody, so no account reads another's reply); otherwise nobody
 * (docs/decisions/051-who-owns-an-inbound-message.md).
 */
async function ownerOf(from: string, to: string, now: number): Promise<number | null> {
  const sender = await findSenderByAddress(to);
  if (sender) return sender.userId;
  if (!isSharedSenderAddress(to)) return null;
  const writers = await sharedSenderWriters(from, now, 2);
  return writers.length === 1 ? writers[0] : null;
}

type Whole = { from: string; to: string; dataCoding: number; payload: Buffer; parts: number; dedupeKey: string };

/** The whole message this PDU completes (itself when not concatenated), or null when parts are missing. */
async function wholeMessage(sms: InboundSms, now: number): Promise<Whole | null> {
  const { from, to, concat } = sms;
  if (!concat) {
    const hash = createHash("sha256").update(`${from}|${to}|${sms.dataCoding}|`).update(sms.payload).digest("hex");
    return { ...sms, parts: 1, dedupeKey: `text:${hash}` };
  }
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
  const { text, encoding } = decodeInboundText(whole.payload, whole.dataCoding);
  const userId = await ownerOf(whole.from, whole.to, now);
  const id = Number(
    (await queries.insertMessage.run(userId, whole.from, whole.to, text, encoding, whole.parts, whole.dedupeKey, now))
      .lastInsertRowid,
  );
  await queries.insertOutbox.run(id, now);
  await noteMessageReceived(userId, {
    id,
    from: whole.from,
    to: whole.to,
    body: text,
    encoding,
    parts: whole.parts,
    receivedAt: now,
  });
  return id;
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
    for (const sms of messages) {
      const id = await storeInbound(sms, now);
      if (id !== null) stored.push(id);
    }
    return stored;
  });
  if (ids.length > 0) void enqueueAfterCommit(`${ids.length} inbound messages`, () => enqueueTogether(ids));
}

/** Drops the parts of concatenated messages that never completed. */
export async function purgeStaleParts(now = clock.now()): Promise<number> {
  return await withTx(async () => (await queries.deleteStaleParts.run(now - PARTS_TTL_MS)).changes);
}
