import smpp, { type PDU, type Session, type ShortMessage } from "smpp";
import { Coalescer } from "#app/utils/coalescer.server.ts";
import type { SharedRate } from "#app/modules/sms/transports/fleet-rate.server.ts";
import { type BindLease, fleetBindLease } from "#app/modules/sms/transports/bind-leases.server.ts";
import { log } from "#app/utils/log.server.ts";
import {
  type Answered,
  emptyMessageIdResps,
  readHotPdusByHand,
  submitSm,
} from "#app/modules/sms/transports/smpp-pdu.server.ts";
import { inboundOf } from "#app/modules/sms/transports/smpp-inbound.server.ts";
import { encodeGsm7, gsmSeptetOf, splitMessage, type SplitMessage } from "#app/modules/messaging/segments.ts";
import {
  type ClaimMessages,
  type InboundSink,
  type InboundSms,
  type OutgoingSms,
  type PartAck,
  type SubmitAttempt,
  type Receipt,
  type ReceiptSink,
  receiptStatus,
  type SmsTransport,
  type SenderSource,
  type SubmitOutcome,
} from "#app/modules/messaging/transport-types.ts";

export type SmppOptions = {
  /** smpp://system_id:password@host:port (ssmpp:// for TLS). */
  url: string;
  /** Credentials kept apart from the URL (an upstream's sealed password); they win over the URL's. */
  systemId?: string;
  password?: string;
  /** Which upstream this bind belongs to, and its number there (1-based), for the submit attempts it reports. */
  upstream?: string;
  bind?: number;
  sourceAddr: string;
  /** Segments per second at most; 0 = no cap. */
  tps: number;
  /** Takes the tokens from a limit shared with other processes instead of counting `tps` alone. */
  sharedRate?: SharedRate;
  /** submit_sm in flight at most. */
  window: number;
  onReceipts: ReceiptSink;
  /** Stores inbound SMS; without it they are acknowledged and dropped. */
  onInbound?: InboundSink;
  enquireLinkMs?: number;
  /** A submit_sm or enquire_link left unanswered this long means the link is dead. */
  responseTimeoutMs?: number;
  /** How long a submit waits for a bound session before it gives up (and is retried later). */
  connectWaitMs?: number;
  reconnectMinMs?: number;
  reconnectMaxMs?: number;
  /** How long all submits pause after ESME_RTHROTTLED. */
  throttlePauseMs?: number;
  /** SMPP_MAX_BINDS: the fleet's cap on sessions; this one opens only holding one of its slots. */
  maxBinds?: number;
  /** How often a session without a slot looks for a free one. */
  leaseRetryMs?: number;
};

export type SmppEndpoint = { host: string; port: number; tls: boolean; systemId: string; password: string };

export function parseSmppUrl(url: string): SmppEndpoint {
  const u = new URL(url);
  const tls = u.protocol === "ssmpp:";
  if (!tls && u.protocol !== "smpp:")
    throw new Error(`SMPP_URL must start with smpp:// or ssmpp://, got ${u.protocol}`);
  return {
    host: u.hostname,
    port: Number(u.port || (tls ? 3550 : 2775)),
    tls,
    systemId: decodeURIComponent(u.username),
    password: decodeURIComponent(u.password),
  };
}

const STATUS_NAMES = new Map(Object.entries(smpp.errors).map(([name, value]) => [value, name]));
// Statuses that say "not now" rather than "never": the message is retried with backoff.
const TEMPORARY_STATUSES = new Set(
  ["ESME_RTHROTTLED", "ESME_RMSGQFUL", "ESME_RSYSERR", "ESME_RX_T_APPN", "ESME_RINVBNDSTS"].map((n) => smpp.errors[n]),
);
const ESME_ROK = 0;
const ESME_RTHROTTLED = smpp.errors.ESME_RTHROTTLED;
const ESME_RX_T_APPN = smpp.errors.ESME_RX_T_APPN;

function describeStatus(status: number): string {
  return `${STATUS_NAMES.get(status) ?? "unknown status"} (0x${status.toString(16).padStart(8, "0")})`;
}

const DATA_CODING = { "GSM-7": 0x00, "UCS-2": 0x08 } as const;
const SHARED_RATE_RETRY_MS = 500;
// Receipts are stored in batches: at most this long after the first, or this many at once.
const RECEIPT_FLUSH_MS = 10;
const RECEIPT_BATCH_MAX = 1_000;
const ESM_UDHI = 0x40;
// esm_class message type bits: SMSC delivery receipt, or an intermediate delivery notification.
const ESM_TYPE_MASK = 0x3c;
const ESM_RECEIPT_TYPES = new Set([0x04, 0x20]);
// message_state TLV values of SMPP 3.4 section 5.2.28, for receipts without a stat: text.
const MESSAGE_STATES: Record<number, string> = { 2: "DELIVRD", 3: "EXPIRED", 5: "UNDELIV", 8: "REJECTD" };

/** The message body of one part: UCS-2 is UTF-16BE without a byte order mark. */
function encodePart(text: string, split: SplitMessage): Buffer {
  if (split.encoding === "GSM-7") {
    const septets = encodeGsm7(text);
    return Buffer.from(septets.buffer, septets.byteOffset, septets.length);
  }
  return Buffer.from(text, "utf16le").swap16();
}

/** Concatenation UDH with an 8-bit reference: IEI 0x00, length 3, reference, total, sequence. */
export function concatUdh(reference: number, total: number, sequence: number): Buffer {
  return Buffer.from([0x05, 0x00, 0x03, reference & 0xff, total, sequence]);
}

function sourceAddress(addr: string) {
  if (/^\+\d+$/.test(addr)) return { source_addr_ton: 1, source_addr_npi: 1, source_addr: addr.slice(1) };
  if (/^\d+$/.test(addr)) return { source_addr_ton: 0, source_addr_npi: 1, source_addr: addr };
  return { source_addr_ton: 5, source_addr_npi: 0, source_addr: addr };
}

/** A sender's own TON/NPI; SMPP carries numbers without their "+". */
function senderSource(from: SenderSource) {
  return { source_addr_ton: from.ton, source_addr_npi: from.npi, source_addr: from.address.replace(/^\+/, "") };
}

/** The library decodes data_coding 0 text as GSM; receipts are ASCII, so map the septets back. */
function receiptText(pdu: PDU): string {
  const field: ShortMessage | undefined = pdu.message_payload ?? pdu.short_message;
  const message = field && typeof field === "object" && !Buffer.isBuffer(field) ? field.message : field;
  if (message === undefined) return "";
  if (Buffer.isBuffer(message)) return message.toString("latin1");
  const coding = (pdu.data_coding ?? 0) & 0x0f;
  if (coding !== 0 && coding !== 1) return message;
  return Array.from(message, (c) => String.fromCharCode(gsmSeptetOf(c) ?? 0x3f)).join("");
}

const RECEIPT_FIELDS = {
  id: /(?:^|\s)id:(\S+)/i,
  stat: /(?:^|\s)stat:(\S+)/i,
  err: /(?:^|\s)err:(\S+)/i,
};
const DELIVERED_STATE = 2;

/** A delivery receipt's provider id, stat and err, or null when the deliver_sm is not a receipt. */
export function parseReceipt(pdu: PDU): Receipt | null {
  if (!ESM_RECEIPT_TYPES.has((pdu.esm_class ?? 0) & ESM_TYPE_MASK)) return null;
  // The usual case, delivered with both TLVs, needs nothing from the text.
  if (pdu.receipted_message_id && pdu.message_state === DELIVERED_STATE) {
    return { providerId: pdu.receipted_message_id, status: "delivered", error: null };
  }
  const text = receiptText(pdu);
  const field = (name: keyof typeof RECEIPT_FIELDS) => RECEIPT_FIELDS[name].exec(text)?.[1];
  const providerId = pdu.receipted_message_id || field("id");
  const stat =
    field("stat") ?? (pdu.message_state !== undefined ? MESSAGE_STATES[pdu.message_state] : undefined) ?? "UNKNOWN";
  if (!providerId) return null;
  const status = receiptStatus(stat);
  const err = field("err");
  return { providerId, status, error: status === "delivered" || !err || /^0+$/.test(err) ? null : err };
}

/** A part's outcome from its submit_sm_resp. */
function answerOf(part: number, resp: PDU): PartResult {
  if (resp.command_status === ESME_ROK && resp.message_id) return { part, ok: true, providerId: resp.message_id };
  const temporary = TEMPORARY_STATUSES.has(resp.command_status);
  const reason = `${temporary ? "SMSC busy" : "Rejected by the SMSC"}: ${describeStatus(resp.command_status)}`;
  return { part, ok: false, status: resp.command_status, temporary, reason };
}

/** The submit_sm a part's result says was written: its answer's status, or null when none came. */
function attemptOf(r: PartResult, bind: BindLabel): SubmitAttempt[] {
  if (r.ok) return [{ ...bind, part: r.part, commandStatus: ESME_ROK, smscMessageId: r.providerId }];
  if (r.unwritten) return [];
  return [{ ...bind, part: r.part, commandStatus: r.status ?? null, smscMessageId: null }];
}

/** A message's outcome from its parts' answers (in part order): accepted, or the first refusal, a permanent one first. */
function outcomeOf(results: PartResult[], bind: BindLabel): SubmitOutcome {
  const acks: PartAck[] = [];
  for (const r of results) if (r.ok) acks.push({ part: r.part, providerId: r.providerId });
  const attempts = results.flatMap((r) => attemptOf(r, bind));
  const failures = results.filter((r) => !r.ok);
  if (failures.length === 0) return { kind: "accepted", acks, takenBy: bind, attempts };
  const permanent = failures.find((f) => !f.temporary);
  if (permanent) return { kind: "permanent", reason: permanent.reason, acks, attempts };
  return { kind: "temporary", reason: failures[0].reason, acks, attempts };
}

/** Runs `write` with the session's socket corked, so what it sends goes out in one system call. */
function corked<T>(session: Session, write: () => T): T {
  session.socket.cork();
  try {
    return write();
  } finally {
    process.nextTick(() => session.socket.uncork());
  }
}

/** A refusal's `status` is its command_status; none: no answer came, or (`unwritten`) it never left. */
type PartResult =
  | { part: number; ok: true; providerId: string }
  | { part: number; ok: false; temporary: boolean; reason: string; status?: number; unwritten?: boolean };

type BindLabel = { upstream: string; bind: number };

/** A claimed group's parts: one deadline (from the last written), done when the last is answered. */
type SentGroup = {
  outcomes: Map<number, SubmitOutcome>;
  unanswered: number;
  timer?: NodeJS.Timeout;
  /** Where its last message was written (a rebind between two of them moves the deadline there). */
  session?: Session;
  done: () => void;
};
const endGroup = (group: SentGroup) => {
  clearTimeout(group.timer);
  group.done();
};
/** The outcome of a message that could not leave because no session was bound; the queue retries it. */
const notConnected = (): SubmitOutcome => ({ kind: "temporary", reason: "Not connected to the SMSC", acks: [] });

/** A message of a group: its parts' answers in part order, its outcome once the last comes. */
type SentMessage = { sms: OutgoingSms; results: PartResult[]; unanswered: number; group: SentGroup };
type InFlight = { part: number; index: number; message: SentMessage; settled: boolean };

type Waiter = { parts: number; resolve: (session: Session | null) => void; timer?: NodeJS.Timeout };

/**
 * The parts sent together: half the window and at most a tenth of a second of the rate limit. The
 * next group is claimed while one is with the SMSC, so a distant carrier's bind stays full.
 */
const groupParts = (window: number, tps: number) =>
  Math.max(1, Math.min(Math.ceil(window / 2), tps > 0 ? Math.ceil(tps / 10) : window));

/** A deliver_sm receipt waiting to be stored, and how to answer it once it is. */
type ReceivedReceipt = { receipt: Receipt; session: Session; request: Answered };
type ReceivedInbound = { sms: InboundSms; session: Session; request: Answered };

/** The SMPP transports of this process, for its heartbeat and metrics (smppBindStatus). */
export const openSmppTransports = new Set<SmppTransport>();

/**
 * SMPP 3.4 client: one bind_transceiver session, kept alive with enquire_link, rebound with backoff
 * when it drops. Submits go in groups: a group waits for a bound session, its rate-limit tokens and
 * for the parts on the wire and those claimed to fit the window (so at most one group goes beyond
 * it); then the caller's claim runs, and each claimed message leaves, in order, as soon as the window
 * has room for its parts. So the next group is claimed while the window is full, no slot is held
 * through a claim, and a slot freed by one answer is used at once (decision 020).
 */
export class SmppTransport implements SmsTransport {
  readonly name = "smpp";
  private readonly endpoint: SmppEndpoint;
  private readonly options: Required<
    Omit<SmppOptions, "sharedRate" | "onInbound" | "maxBinds" | "systemId" | "password" | "upstream" | "bind">
  > &
    Pick<SmppOptions, "sharedRate" | "onInbound" | "maxBinds">;
  /** Which upstream and bind this is, in the attempts it reports. */
  readonly label: BindLabel;
  private readonly lease?: BindLease;
  private waitingForLease = false;
  private takingTokens = false;
  private session: Session | null = null;
  private bound = false;
  private closing = false;
  private reconnectAttempt = 0;
  private reconnectTimer?: NodeJS.Timeout;
  private enquireTimer?: NodeJS.Timeout;
  private readonly inFlight = new WeakMap<Session, Set<InFlight>>();
  private readonly defaultSource: ReturnType<typeof sourceAddress>;
  /** Parts on the wire, at most the window. */
  private inFlightCount = 0;
  /** Parts being claimed, or claimed and waiting in `windowWaiters`; with those on the wire, at most one group beyond the window. */
  private claimedCount = 0;
  private readonly groupParts: number;
  private readonly waiters: Waiter[] = [];
  private readonly windowWaiters: Waiter[] = [];
  private tokens: number;
  private tokensAt = Date.now();
  private pausedUntil = 0;
  private pumpTimer?: NodeJS.Timeout;
  private readonly receipts: Coalescer<ReceivedReceipt, void>;
  private readonly inbound: Coalescer<ReceivedInbound, void>;
  private readonly closed: Promise<void>;
  private markClosed!: () => void;

  constructor(options: SmppOptions) {
    const endpoint = parseSmppUrl(options.url);
    this.endpoint = {
      ...endpoint,
      systemId: options.systemId ?? endpoint.systemId,
      password: options.password ?? endpoint.password,
    };
    this.label = { upstream: options.upstream ?? "env", bind: options.bind ?? 1 };
    this.options = {
      enquireLinkMs: 30_000,
      responseTimeoutMs: 10_000,
      connectWaitMs: 10_000,
      reconnectMinMs: 250,
      reconnectMaxMs: 30_000,
      throttlePauseMs: 1_000,
      leaseRetryMs: 5_000,
      ...options,
    };
    if (options.maxBinds) this.lease = fleetBindLease(options.maxBinds, () => this.leaseLost());
    this.tokens = options.sharedRate ? 0 : options.tps;
    this.groupParts = groupParts(options.window, options.tps);
    this.defaultSource = sourceAddress(options.sourceAddr);
    this.receipts = new Coalescer({
      windowMs: RECEIPT_FLUSH_MS,
      maxBatch: RECEIPT_BATCH_MAX,
      run: (batch) => this.storeReceipts(batch),
    });
    // Inbound SMS too: one transaction per batch, so a burst does not queue for the write lock.
    this.inbound = new Coalescer({
      windowMs: RECEIPT_FLUSH_MS,
      maxBatch: RECEIPT_BATCH_MAX,
      run: (batch) => this.storeInbound(batch),
    });
    this.closed = new Promise((resolve) => (this.markClosed = resolve));
    readHotPdusByHand();
    openSmppTransports.add(this);
    this.connect();
  }

  /** The window and the one group claimed beyond it (see SmsTransport). */
  get capacity(): number {
    return this.options.window + this.groupParts;
  }

  /** Whether the session is bound now, and how much of its submit window is in use. */
  get bindStatus(): { bound: boolean; window: number; inFlight: number } {
    return { bound: this.bound, window: this.options.window, inFlight: this.inFlightCount };
  }

  /** Resolves once the session is bound (for tests and start-up checks). */
  ready(timeoutMs = this.options.connectWaitMs): Promise<boolean> {
    return this.acquire(0, timeoutMs).then((session) => session !== null);
  }

  async submitMany(messages: OutgoingSms[], claim: ClaimMessages): Promise<Map<number, SubmitOutcome>> {
    const outcomes = new Map<number, SubmitOutcome>();
    await Promise.all(this.groups(messages).map((group) => this.submitGroup(group, claim, outcomes)));
    return outcomes;
  }

  /** Groups of messages of at most `groupParts` parts together (a longer message goes alone). */
  private groups(messages: OutgoingSms[]): OutgoingSms[][] {
    const limit = this.groupParts;
    const groups: OutgoingSms[][] = [];
    let group: OutgoingSms[] = [];
    let parts = 0;
    for (const sms of messages) {
      if (group.length > 0 && parts + sms.parts.length > limit) {
        groups.push(group);
        group = [];
        parts = 0;
      }
      group.push(sms);
      parts += sms.parts.length;
    }
    if (group.length > 0) groups.push(group);
    return groups;
  }

  private async submitGroup(group: OutgoingSms[], claim: ClaimMessages, outcomes: Map<number, SubmitOutcome>) {
    if (!(await this.acquire(group.reduce((n, sms) => n + sms.parts.length, 0)))) {
      for (const sms of group) outcomes.set(sms.id, notConnected());
      return;
    }
    let claimed = new Set<number>();
    try {
      claimed = await claim(group.map((sms) => sms.id));
    } finally {
      const unclaimed = group.filter((sms) => !claimed.has(sms.id)).reduce((n, sms) => n + sms.parts.length, 0);
      if (unclaimed > 0) this.unclaim(unclaimed);
    }
    const sending = group.filter((sms) => claimed.has(sms.id));
    for (const sms of group) if (!claimed.has(sms.id)) outcomes.set(sms.id, { kind: "not-claimed" });
    if (sending.length === 0) return;
    // Claimed: each message leaves as soon as the window has room for its parts, after those claimed
    // before it, so a slot freed by one answer is used at once instead of waiting for a group's worth.
    await new Promise<void>((done, fail) => {
      const sent: SentGroup = { outcomes, unanswered: 0, done };
      for (const sms of sending) {
        sent.unanswered += sms.parts.length;
        const message: SentMessage = { sms, results: [], unanswered: sms.parts.length, group: sent };
        this.windowRoom(sms.parts.length)
          .then((session) => {
            if (!session) return this.notSent(message);
            // Messages granted together leave in one write instead of one system call each.
            corked(session, () => this.sendMessage(session, message));
            // No answer in time since the last of them left: the link is dead; closing it fails this
            // group's parts and every other in flight.
            if (sent.unanswered === 0) return;
            sent.session = session;
            if (sent.timer) sent.timer.refresh();
            else sent.timer = setTimeout(() => sent.session?.destroy(), this.options.responseTimeoutMs);
          })
          .catch(fail);
      }
    });
  }

  /** A claimed message that never left: the session went before the window had room for it. */
  private notSent(message: SentMessage) {
    const { group } = message;
    group.outcomes.set(message.sms.id, notConnected());
    group.unanswered -= message.unanswered;
    if (group.unanswered === 0) endGroup(group);
  }

  /** Every part of a claimed message at once. */
  private sendMessage(session: Session, message: SentMessage) {
    const { sms } = message;
    const split = splitMessage(sms.body);
    const total = split.parts.length;
    const multipart = total > 1;
    const source = sms.from ? senderSource(sms.from) : this.defaultSource;
    const destination = sms.to.startsWith("+") ? sms.to.slice(1) : sms.to;
    const entries = this.inFlight.get(session) ?? new Set<InFlight>();
    this.inFlight.set(session, entries);
    for (const [index, part] of sms.parts.entries()) {
      const body = encodePart(split.parts[part - 1], split);
      const entry: InFlight = { part, index, message, settled: false };
      entries.add(entry);
      const pdu = submitSm({
        ...source,
        dest_addr_ton: 1,
        dest_addr_npi: 1,
        destination_addr: destination,
        esm_class: multipart ? ESM_UDHI : 0,
        registered_delivery: 1,
        data_coding: DATA_CODING[split.encoding],
        short_message: multipart ? Buffer.concat([concatUdh(sms.id, total, part), body]) : body,
        user_message_reference: sms.id & 0xffff,
      });
      const written = session.send(pdu, (resp) => {
        if (resp.command_status === ESME_RTHROTTLED) this.pause(this.options.throttlePauseMs);
        this.settle(entries, entry, answerOf(part, resp));
      });
      if (!written)
        this.settle(entries, entry, {
          part,
          ok: false,
          temporary: true,
          reason: "Connection to the SMSC lost",
          unwritten: true,
        });
    }
  }

  /** A part's answer (or its loss): frees its window slot; the last of a message sets its outcome, the last of a group ends it. */
  private settle(entries: Set<InFlight>, entry: InFlight, result: PartResult) {
    if (entry.settled) return;
    entry.settled = true;
    entries.delete(entry);
    this.release(1);
    const { message } = entry;
    message.results[entry.index] = result;
    const { group } = message;
    if (--message.unanswered === 0) group.outcomes.set(message.sms.id, outcomeOf(message.results, this.label));
    if (--group.unanswered === 0) endGroup(group);
  }

  // --- capacity: bound session, rate limit and room to claim in arrival order, then window room ---

  /** A bound session, the parts' rate-limit tokens and room to claim them (counted in `claimedCount`). */
  private acquire(parts: number, waitMs = this.options.connectWaitMs): Promise<Session | null> {
    if (this.closing) return Promise.resolve(null);
    return new Promise((resolve) => {
      this.waiters.push({ parts, resolve, timer: undefined });
      this.pump(waitMs);
    });
  }

  /** For claimed parts: room in the window, after the groups claimed before them. */
  private windowRoom(parts: number): Promise<Session | null> {
    if (this.closing) return Promise.resolve(null);
    return new Promise((resolve) => {
      this.windowWaiters.push({ parts, resolve, timer: undefined });
      this.pump();
    });
  }

  private allWaiters(): Waiter[] {
    return [...this.windowWaiters, ...this.waiters];
  }

  /** Parts granted room to claim that were not claimed (someone else has them). */
  private unclaim(parts: number) {
    this.claimedCount -= parts;
    this.pump();
  }

  private release(parts: number) {
    this.inFlightCount -= parts;
    this.pump();
  }

  private pause(ms: number) {
    this.pausedUntil = Math.max(this.pausedUntil, Date.now() + ms);
  }

  private refill(now: number) {
    const { tps, sharedRate } = this.options;
    if (tps === 0 || sharedRate) return;
    this.tokens = Math.min(tps, this.tokens + ((now - this.tokensAt) * tps) / 1000);
    this.tokensAt = now;
  }

  private pump(waitMs = this.options.connectWaitMs) {
    clearTimeout(this.pumpTimer);
    this.pumpTimer = undefined;
    if (!this.bound || !this.session) {
      // Unbound: each waiter gives up after waitMs, so its job can be retried later.
      for (const waiter of this.allWaiters()) {
        waiter.timer ??= setTimeout(() => this.dropWaiter(waiter), waitMs);
      }
      return;
    }
    const now = Date.now();
    if (now < this.pausedUntil) return this.pumpLater(this.pausedUntil - now);
    const { tps, window } = this.options;
    // Claimed parts first, in order; a message longer than the window may go alone.
    while (this.windowWaiters.length > 0) {
      const head = this.windowWaiters[0];
      if (this.inFlightCount > 0 && this.inFlightCount + head.parts > window) break;
      this.windowWaiters.shift();
      clearTimeout(head.timer);
      this.claimedCount -= head.parts;
      this.inFlightCount += head.parts;
      head.resolve(this.session);
    }
    this.refill(now);
    while (this.waiters.length > 0) {
      const head = this.waiters[0];
      // While the parts on the wire and those claimed fit the window, one more group may be claimed.
      const taken = this.inFlightCount + this.claimedCount;
      if (taken > 0 && (taken > window || taken + head.parts > window + this.groupParts)) return;
      // A message longer than the per-second cap may go alone.
      const needed = Math.min(head.parts, tps);
      if (tps > 0 && this.tokens < needed) {
        if (this.options.sharedRate) return this.takeSharedTokens(needed - this.tokens);
        return this.pumpLater(Math.ceil(((needed - this.tokens) * 1000) / tps));
      }
      this.waiters.shift();
      clearTimeout(head.timer);
      if (tps > 0) this.tokens -= head.parts;
      this.claimedCount += head.parts;
      head.resolve(this.session);
    }
  }

  /** Fetches tokens from the shared limit (one request at a time), then grants what waits. */
  private takeSharedTokens(missing: number) {
    if (this.takingTokens) return;
    this.takingTokens = true;
    this.options.sharedRate!(Math.ceil(missing)).then(
      ({ granted, waitMs }) => {
        this.takingTokens = false;
        this.tokens += granted;
        if (granted > 0) this.pump();
        else this.pumpLater(waitMs);
      },
      () => {
        // Redis is unreachable: nothing is sent meanwhile, as with a dropped bind; try again shortly.
        this.takingTokens = false;
        this.pumpLater(SHARED_RATE_RETRY_MS);
      },
    );
  }

  private pumpLater(ms: number) {
    this.pumpTimer = setTimeout(() => this.pump(), Math.max(1, ms));
  }

  private dropWaiter(waiter: Waiter) {
    const claimed = this.windowWaiters.indexOf(waiter);
    if (claimed >= 0) {
      this.windowWaiters.splice(claimed, 1);
      this.claimedCount -= waiter.parts;
    }
    const index = this.waiters.indexOf(waiter);
    if (index >= 0) this.waiters.splice(index, 1);
    waiter.resolve(null);
  }

  // --- the session: connect, bind, keep alive, reconnect ---

  private connect() {
    if (this.lease) void this.connectHoldingLease(this.lease);
    else this.open();
  }

  /** Opens the session once it holds a slot of SMPP_MAX_BINDS; without one it looks again later. */
  private async connectHoldingLease(lease: BindLease) {
    const taken = await lease.take();
    if (this.closing) return lease.release();
    if (!taken) {
      if (!this.waitingForLease)
        log(
          "info",
          "smpp",
          `all ${this.options.maxBinds} sessions of SMPP_MAX_BINDS are open; this one waits for a slot`,
        );
      this.waitingForLease = true;
      this.reconnectTimer = setTimeout(() => this.connect(), this.options.leaseRetryMs * (0.8 + Math.random() * 0.4));
      return;
    }
    this.waitingForLease = false;
    this.open();
  }

  /** The slot lapsed (Redis lost it, or this process stalled): another may hold it now, so this session closes. */
  private leaseLost() {
    log("warn", "smpp", "lost its SMPP_MAX_BINDS slot; closing the session until it holds one again");
    this.session?.destroy();
  }

  private open() {
    const { host, port, tls, systemId, password } = this.endpoint;
    const session = smpp.connect({ host, port, tls });
    this.session = session;
    session.on(tls ? "secureConnect" : "connect", () => {
      session.bind_transceiver({ system_id: systemId, password, interface_version: 0x34 }, (resp) => {
        if (resp.command_status !== ESME_ROK) {
          log("error", "smpp", `bind_transceiver refused: ${describeStatus(resp.command_status)}`);
          session.destroy();
          return;
        }
        if (this.session !== session || this.closing) return;
        log("info", "smpp", `bound to ${host}:${port} as ${systemId}`);
        this.bound = true;
        this.reconnectAttempt = 0;
        // Waiting submits get their capacity now; only an unbound session makes them give up.
        for (const waiter of this.allWaiters()) {
          clearTimeout(waiter.timer);
          waiter.timer = undefined;
        }
        this.keepAlive(session);
        this.pump();
      });
    });
    session.on("deliver_sm", (pdu: PDU) => this.onDeliverSm(session, pdu));
    session.on("data_sm", (pdu: PDU) => this.onDeliverSm(session, pdu));
    session.on("enquire_link", (pdu: PDU) => session.send(pdu.response()));
    session.on("unbind", (pdu: PDU) => {
      session.send(pdu.response());
      session.close();
    });
    // A parse error leaves the library's reader stuck: start over with a new connection.
    session.on("error", (error: Error) => {
      log("warn", "smpp", `connection error: ${error.message}`);
      session.destroy();
    });
    session.on("close", () => this.onClose(session));
  }

  private keepAlive(session: Session) {
    clearInterval(this.enquireTimer);
    this.enquireTimer = setInterval(() => {
      const timer = setTimeout(() => session.destroy(), this.options.responseTimeoutMs).unref();
      if (!session.enquire_link({}, () => clearTimeout(timer))) clearTimeout(timer);
    }, this.options.enquireLinkMs);
  }

  private onClose(session: Session) {
    // Parts written but never answered count as not accepted: the SMSC takes a message over with
    // its submit_sm_resp, so they are retried (docs/decisions/020-never-send-twice-over-smpp.md).
    const entries = this.inFlight.get(session);
    for (const entry of entries ?? []) {
      this.settle(entries!, entry, {
        part: entry.part,
        ok: false,
        temporary: true,
        reason: "Connection to the SMSC lost",
      });
    }
    if (this.session !== session) return;
    this.session = null;
    this.bound = false;
    clearInterval(this.enquireTimer);
    if (this.closing) {
      this.markClosed();
      return;
    }
    const delay = Math.min(this.options.reconnectMaxMs, this.options.reconnectMinMs * 2 ** this.reconnectAttempt);
    this.reconnectAttempt += 1;
    log("warn", "smpp", `disconnected; reconnecting in ${delay} ms`);
    this.reconnectTimer = setTimeout(() => this.connect(), delay * (0.8 + Math.random() * 0.4));
    this.pump();
  }

  // --- delivery receipts: persisted in batches, acknowledged after they are stored ---

  private onDeliverSm(session: Session, pdu: PDU) {
    const receipt = parseReceipt(pdu);
    if (!receipt) {
      void this.inbound.add({
        sms: inboundOf(pdu),
        session,
        request: pdu,
      });
      return;
    }
    // Stored a few milliseconds later with the others that came meanwhile: one write per batch.
    this.receipts.post({
      receipt,
      session,
      request: pdu,
    });
  }

  /** Stores a batch, then answers every deliver_sm of it (never throws: a failure is answered). */
  private storeReceipts(batch: ReceivedReceipt[]): Promise<void[]> {
    return this.storeThenAnswer(batch, "receipts", () => this.options.onReceipts(batch.map((b) => b.receipt)));
  }

  /** Inbound SMS likewise; without a sink they are acknowledged and dropped. */
  private storeInbound(batch: ReceivedInbound[]): Promise<void[]> {
    return this.storeThenAnswer(batch, "inbound SMS", async () => this.options.onInbound?.(batch.map((b) => b.sms)));
  }

  private async storeThenAnswer(
    batch: (ReceivedReceipt | ReceivedInbound)[],
    what: string,
    store: () => Promise<void>,
  ): Promise<void[]> {
    let status = ESME_ROK;
    try {
      await store();
    } catch (error) {
      // Not stored: a temporary error makes the SMSC send them again later.
      log("error", "smpp", `could not store ${batch.length} ${what}`, error);
      status = ESME_RX_T_APPN;
    }
    const sessions = new Set(batch.map((b) => b.session));
    for (const session of sessions)
      session.send(
        emptyMessageIdResps(
          batch.flatMap((b) => (b.session === session ? [b.request] : [])),
          status,
        ),
      );
    return batch.map(() => undefined);
  }

  async close(): Promise<void> {
    if (this.closing) return this.closed;
    this.closing = true;
    openSmppTransports.delete(this);
    clearTimeout(this.reconnectTimer);
    clearTimeout(this.pumpTimer);
    for (const waiter of this.allWaiters()) {
      clearTimeout(waiter.timer);
      waiter.resolve(null);
    }
    this.waiters.length = 0;
    this.windowWaiters.length = 0;
    await this.receipts.shutdown();
    await this.inbound.shutdown();
    const session = this.session;
    if (!session) {
      this.markClosed();
      await this.lease?.release();
      return this.closed;
    }
    const force = setTimeout(() => session.destroy(), 2_000);
    if (!this.bound || !session.unbind({}, () => session.close())) session.destroy();
    await this.closed;
    clearTimeout(force);
    await this.lease?.release();
  }
}
