// A loopback SMSC for tests and benchmarks, built on the smpp package's server side. It records what
// arrives on the wire, answers with configurable statuses, drops connections on demand and sends
// delivery receipts.
import type { AddressInfo } from "node:net";
import smpp, { type PDU, type Session } from "smpp";

export const SMPP_STATUS = smpp.errors;

export type ReceiptStat = "DELIVRD" | "UNDELIV" | "EXPIRED" | "REJECTD" | "ENROUTE" | "UNKNOWN";

export type RecordedSubmit = {
  session: number;
  /** The provider message id this SMSC answered with (empty when refused). */
  messageId: string;
  /** The command_status it answered with. */
  status: number;
  source: string;
  sourceTon: number;
  sourceNpi: number;
  destination: string;
  destTon: number;
  destNpi: number;
  esmClass: number;
  dataCoding: number;
  registeredDelivery: number;
  userMessageReference: number | undefined;
  /** short_message exactly as on the wire: UDH (when present) and payload. */
  shortMessage: Buffer;
  udh: Buffer | null;
  payload: Buffer;
  concat: { reference: number; total: number; sequence: number } | null;
  /** The payload decoded by the smpp package (GSM 03.38 for data_coding 0, UTF-16BE for 8). */
  text: string;
  /** When it arrived (epoch ms). */
  receivedAt: number;
};

export type TestSmscOptions = {
  systemId?: string;
  password?: string;
  /** Delay before a receipt goes out; 0 = on the next tick. */
  receiptDelayMs?: number;
  /** The receipt for an accepted submit, or null for none. Default DELIVRD. */
  receiptFor?: (submit: RecordedSubmit) => ReceiptStat | null;
  /** Also carry receipted_message_id and message_state TLVs (default true); false = text only. */
  receiptTlvs?: boolean;
  /** Holds every submit_sm_resp this long (receipts can then overtake it). */
  responseDelayMs?: number;
  /** Holds an accepted submit's submit_sm_resp this long instead (answers some, not others). */
  responseDelayFor?: (submit: RecordedSubmit) => number;
  /** What makes two submits "the same message"; counted in `counters.duplicates`. */
  duplicateKey?: (submit: RecordedSubmit) => string;
  /** Keep every accepted submit in `accepted` (turn off for long benchmarks: counters only). */
  record?: boolean;
  /**
   * Like a real SMSC, send a receipt again when it was not acknowledged with ESME_ROK: after this
   * delay when refused, and on the next bound session when its connection closed first. 0 = never.
   */
  redeliverMs?: number;
  /**
   * Mixes inbound traffic in: after every this many accepted submits, the phone of the last one
   * texts back (a deliver_sm to the submit's sender, "Inbound <n>"). 0 = none.
   */
  inboundEvery?: number;
  /**
   * Receipts and inbound SMS go out on the bound connections in turn, not the submitting one, as an
   * SMSC with several binds of one account may: they cross binds (and workers). Default false.
   */
  spreadOverBinds?: boolean;
};

/** An inbound SMS as a phone's SMSC would deliver it; the bytes are put on the wire as given. */
export type InboundPdu = {
  command?: "deliver_sm" | "data_sm";
  /** Digits of an international number (TON 1), unless `sourceTon` says otherwise. */
  source: string;
  sourceTon?: number;
  destination: string;
  destTon?: number;
  dataCoding?: number;
  esmClass?: number;
  /** short_message as on the wire, user data header included (deliver_sm only). */
  shortMessage?: Buffer;
  /** Optional parameters by the package's names: message_payload, sar_msg_ref_num, ... */
  tlvs?: Record<string, unknown>;
};

type QueuedReceipt = { submit: RecordedSubmit; stat: ReceiptStat; dueAt: number; session: Session };
type SessionState = { id: number; bound: boolean; dead: boolean; lastBody: Buffer | null; unacked: Set<QueuedReceipt> };

const MESSAGE_STATE: Record<ReceiptStat, number> = {
  ENROUTE: 1,
  DELIVRD: 2,
  EXPIRED: 3,
  UNDELIV: 5,
  UNKNOWN: 7,
  REJECTD: 8,
};

export function defaultDuplicateKey(s: RecordedSubmit): string {
  return `${s.destination}|${s.userMessageReference ?? "-"}|${s.concat?.sequence ?? 1}|${s.payload.toString("hex")}`;
}

/** short_message of a raw submit_sm body (after command_length): the bytes, not a decoding of them. */
function rawShortMessage(body: Buffer): Buffer {
  let offset = 12; // command_id, command_status, sequence_number
  const skipCString = () => {
    offset = body.indexOf(0, offset) + 1;
  };
  skipCString(); // service_type
  offset += 2; // source_addr_ton, source_addr_npi
  skipCString();
  offset += 2; // dest_addr_ton, dest_addr_npi
  skipCString();
  offset += 3; // esm_class, protocol_id, priority_flag
  skipCString(); // schedule_delivery_time
  skipCString(); // validity_period
  offset += 4; // registered_delivery, replace_if_present_flag, data_coding, sm_default_msg_id
  const length = body[offset];
  return body.subarray(offset + 1, offset + 1 + length);
}

function splitUdh(shortMessage: Buffer, esmClass: number) {
  if (!(esmClass & 0x40) || shortMessage.length === 0) return { udh: null, payload: shortMessage, concat: null };
  const udh = shortMessage.subarray(0, shortMessage[0] + 1);
  let concat: RecordedSubmit["concat"] = null;
  for (let i = 1; i < udh.length; i += 2 + udh[i + 1]) {
    if (udh[i] === 0x00 && udh[i + 1] === 3)
      concat = { reference: udh[i + 2], total: udh[i + 3], sequence: udh[i + 4] };
    if (udh[i] === 0x08 && udh[i + 1] === 4)
      concat = { reference: udh.readUInt16BE(i + 2), total: udh[i + 4], sequence: udh[i + 5] };
  }
  return { udh, payload: shortMessage.subarray(udh.length), concat };
}

function decodeText(payload: Buffer, dataCoding: number): string {
  if (dataCoding === 0x08) return Buffer.from(payload).swap16().toString("utf16le");
  return smpp.encodings.ASCII.decode(payload);
}

function smppDate(date: Date): string {
  const iso = date.toISOString();
  return iso.slice(2, 4) + iso.slice(5, 7) + iso.slice(8, 10) + iso.slice(11, 13) + iso.slice(14, 16);
}

export class TestSmsc {
  readonly counters = {
    connections: 0,
    binds: 0,
    bindFailures: 0,
    submitsSeen: 0,
    accepted: 0,
    refused: 0,
    /** Accepted submits whose duplicateKey was accepted before. */
    duplicates: 0,
    /** Receipts sent again because the first try was refused or its connection closed. */
    receiptsRedelivered: 0,
    /** submit_sm that arrived on a connection after it was dropped, never answered. */
    ignored: 0,
    dropped: 0,
    receiptsSent: 0,
    receiptsAcked: 0,
    receiptsRefused: 0,
    enquireLinks: 0,
    unbinds: 0,
    /** Inbound SMS (deliver_sm / data_sm) sent, by sendInbound or inboundEvery. */
    inboundSent: 0,
    /** Inbound SMS the gateway answered with ESME_ROK (stored), or with an error. */
    inboundAcked: 0,
    inboundRefused: 0,
  };
  /** Accepted submits in arrival order (when `record` is on). */
  readonly accepted: RecordedSubmit[] = [];
  readonly options: Required<Omit<TestSmscOptions, "receiptFor" | "responseDelayFor">> &
    Pick<TestSmscOptions, "receiptFor" | "responseDelayFor">;
  private readonly server;
  private readonly sessions = new Map<Session, SessionState>();
  private readonly seenKeys = new Set<string>();
  private responses: number[] = [];
  private nacks: number[] = [];
  private dropCountdown: number | null = null;
  private nextSession = 1;
  /** The last connection nextBound() picked. */
  private turn = 0;
  private nextMessageId = 0x10000;
  private readonly receiptQueue: QueuedReceipt[] = [];
  private receiptTimer?: NodeJS.Timeout;
  private receiptTimerAt = 0;
  port = 0;

  private constructor(options: TestSmscOptions) {
    this.options = {
      systemId: "smsgw",
      password: "secret",
      receiptDelayMs: 0,
      receiptTlvs: true,
      responseDelayMs: 0,
      duplicateKey: defaultDuplicateKey,
      record: true,
      redeliverMs: 0,
      inboundEvery: 0,
      spreadOverBinds: false,
      ...options,
    };
    this.server = smpp.createServer((session) => this.onSession(session));
  }

  static async start(options: TestSmscOptions = {}): Promise<TestSmsc> {
    const smsc = new TestSmsc(options);
    await new Promise<void>((resolve) => smsc.server.listen(0, "127.0.0.1", () => resolve()));
    smsc.port = (smsc.server.address() as AddressInfo).port;
    return smsc;
  }

  /** SMPP_URL for this server, with the right (or given) credentials. */
  url(systemId = this.options.systemId, password = this.options.password): string {
    return `smpp://${encodeURIComponent(systemId)}:${encodeURIComponent(password)}@127.0.0.1:${this.port}`;
  }

  /** The next submits get these command statuses, in order; then ESME_ROK again. */
  respondWith(...statuses: number[]): void {
    this.responses.push(...statuses);
  }

  /** The next submits are answered with a generic_nack of these command statuses, in order. */
  nackWith(...statuses: number[]): void {
    this.nacks.push(...statuses);
  }

  /** After `accepted` more submits are accepted (and answered), the connection is dropped. */
  dropAfter(accepted: number): void {
    this.dropCountdown = accepted;
  }

  /** Drops every connection now, without answering what is in flight. */
  dropAll(): void {
    for (const session of this.sessions.keys()) this.drop(session);
  }

  get boundSessions(): number {
    return this.boundSessionIds.length;
  }

  /** The `session` numbers (as in RecordedSubmit) of the connections bound now. */
  get boundSessionIds(): number[] {
    return [...this.sessions.values()].filter((s) => s.bound && !s.dead).map((s) => s.id);
  }

  /** Sends a receipt for an accepted message id now, e.g. a late ENROUTE after DELIVRD. */
  sendReceipt(messageId: string, stat: ReceiptStat): void {
    const submit = this.accepted.find((s) => s.messageId === messageId);
    if (!submit) throw new Error(`No accepted submit with id ${messageId}`);
    const session = [...this.sessions.entries()].find(([, s]) => s.bound && !s.dead)?.[0];
    if (!session) throw new Error("No bound session to send a receipt on");
    this.deliverReceipt(session, { submit, stat, dueAt: Date.now(), session });
  }

  /**
   * Sends an inbound SMS on a bound connection and resolves to the command_status the gateway
   * answered with (or null when the connection closed first).
   */
  sendInbound(
    inbound: InboundPdu,
    session = this.options.spreadOverBinds ? this.nextBound() : this.firstBound(),
  ): Promise<number | null> {
    if (!session) throw new Error("No bound session to send an inbound SMS on");
    const destTon = inbound.destTon ?? (/^\d+$/.test(inbound.destination) ? 1 : 5);
    const fields = {
      source_addr_ton: inbound.sourceTon ?? 1,
      source_addr_npi: 1,
      source_addr: inbound.source,
      dest_addr_ton: destTon,
      dest_addr_npi: destTon === 5 ? 0 : 1,
      destination_addr: inbound.destination,
      esm_class: inbound.esmClass ?? 0,
      data_coding: inbound.dataCoding ?? 0,
      ...(inbound.command === "data_sm" ? {} : { short_message: inbound.shortMessage ?? Buffer.alloc(0) }),
      ...inbound.tlvs,
    };
    this.counters.inboundSent += 1;
    return new Promise((resolve) => {
      const closed = () => resolve(null);
      session.once("close", closed);
      const answered = (resp: PDU) => {
        session.off("close", closed);
        if (resp.command_status === 0) this.counters.inboundAcked += 1;
        else this.counters.inboundRefused += 1;
        resolve(resp.command_status);
      };
      const written =
        inbound.command === "data_sm" ? session.data_sm(fields, answered) : session.deliver_sm(fields, answered);
      if (!written) resolve(null);
    });
  }

  /** sendInbound on the bound connection numbered `id` (one of boundSessionIds): a peer that spreads its PDUs over binds. */
  sendInboundOn(id: number, inbound: InboundPdu): Promise<number | null> {
    const session = [...this.sessions.entries()].find(([, s]) => s.id === id && s.bound && !s.dead)?.[0];
    if (!session) throw new Error(`No bound session ${id} to send an inbound SMS on`);
    return this.sendInbound(inbound, session);
  }

  async stop(): Promise<void> {
    clearTimeout(this.receiptTimer);
    for (const session of this.sessions.keys()) session.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private onSession(session: Session) {
    const state: SessionState = {
      id: this.nextSession++,
      bound: false,
      dead: false,
      lastBody: null,
      unacked: new Set(),
    };
    this.sessions.set(session, state);
    this.counters.connections += 1;
    // The library hands over decoded PDUs only; keep the last raw body read to record the bytes.
    const socket = session.socket;
    const read = socket.read.bind(socket);
    socket.read = ((size?: number) => {
      const chunk = read(size) as Buffer | null;
      if (chunk && size !== 4) state.lastBody = chunk;
      return chunk;
    }) as typeof socket.read;

    // sendInbound waits for "close" once per inbound PDU in flight: many at a time is normal here.
    session.setMaxListeners(0);
    session.on("error", () => session.destroy());
    session.on("close", () => {
      this.sessions.delete(session);
      for (const item of state.unacked) this.redeliver(item, 0);
      state.unacked.clear();
    });
    session.on("bind_transceiver", (pdu: PDU) => {
      if (pdu.system_id !== this.options.systemId || pdu.password !== this.options.password) {
        this.counters.bindFailures += 1;
        session.send(pdu.response({ command_status: smpp.errors.ESME_RBINDFAIL }));
        session.close();
        return;
      }
      state.bound = true;
      this.counters.binds += 1;
      session.send(pdu.response({ system_id: "test-smsc" }));
      this.scheduleReceipts(0);
    });
    session.on("enquire_link", (pdu: PDU) => {
      this.counters.enquireLinks += 1;
      session.send(pdu.response());
    });
    session.on("unbind", (pdu: PDU) => {
      this.counters.unbinds += 1;
      state.bound = false;
      session.send(pdu.response());
      session.close();
    });
    session.on("data_sm_resp", () => undefined);
    session.on("deliver_sm_resp", (pdu: PDU) => {
      if (pdu.command_status === 0) this.counters.receiptsAcked += 1;
      else this.counters.receiptsRefused += 1;
    });
    session.on("submit_sm", (pdu: PDU) => this.onSubmit(session, state, pdu));
  }

  private onSubmit(session: Session, state: SessionState, pdu: PDU) {
    if (state.dead) {
      this.counters.ignored += 1;
      return;
    }
    this.counters.submitsSeen += 1;
    const shortMessage = Buffer.from(rawShortMessage(state.lastBody ?? Buffer.alloc(0)));
    const esmClass = pdu.esm_class ?? 0;
    const dataCoding = pdu.data_coding ?? 0;
    const { udh, payload, concat } = splitUdh(shortMessage, esmClass);
    const nack = this.nacks.shift();
    if (nack !== undefined) {
      this.counters.refused += 1;
      this.respond(
        session,
        new smpp.PDU("generic_nack", { sequence_number: pdu.sequence_number, command_status: nack }),
      );
      return;
    }
    const status = this.responses.shift() ?? 0;
    const submit: RecordedSubmit = {
      session: state.id,
      messageId: status === 0 ? (this.nextMessageId++).toString(16) : "",
      status,
      source: pdu.source_addr ?? "",
      sourceTon: Number(pdu.source_addr_ton),
      sourceNpi: Number(pdu.source_addr_npi),
      destination: pdu.destination_addr ?? "",
      destTon: Number(pdu.dest_addr_ton),
      destNpi: Number(pdu.dest_addr_npi),
      esmClass,
      dataCoding,
      registeredDelivery: pdu.registered_delivery ?? 0,
      userMessageReference: pdu.user_message_reference,
      shortMessage,
      udh,
      payload,
      concat,
      text: decodeText(payload, dataCoding),
      receivedAt: Date.now(),
    };
    if (status !== 0) {
      this.counters.refused += 1;
      this.respond(session, pdu.response({ command_status: status }));
      return;
    }
    this.counters.accepted += 1;
    const key = this.options.duplicateKey(submit);
    if (this.seenKeys.has(key)) this.counters.duplicates += 1;
    this.seenKeys.add(key);
    if (this.options.record) this.accepted.push(submit);

    const stat = this.options.receiptFor ? this.options.receiptFor(submit) : "DELIVRD";
    if (stat && submit.registeredDelivery & 0x01) {
      this.receiptQueue.push({ submit, stat, dueAt: Date.now() + this.options.receiptDelayMs, session });
      this.scheduleReceipts(this.options.receiptDelayMs);
    }
    this.respond(session, pdu.response({ message_id: submit.messageId }), this.options.responseDelayFor?.(submit));
    const { inboundEvery } = this.options;
    if (inboundEvery > 0 && this.counters.accepted % inboundEvery === 0) {
      void this.sendInbound(
        {
          source: submit.destination,
          destination: submit.source,
          shortMessage: Buffer.from(`Inbound ${this.counters.inboundSent + 1}`),
        },
        session,
      );
    }
    if (this.dropCountdown !== null && --this.dropCountdown <= 0) {
      this.dropCountdown = null;
      this.drop(session);
    }
  }

  private respond(session: Session, resp: PDU, delayMs = this.options.responseDelayMs) {
    if (delayMs > 0) setTimeout(() => session.send(resp), delayMs);
    else session.send(resp);
  }

  /** Stops reading this connection; what was answered reaches the client, the rest is never seen. */
  private drop(session: Session) {
    const state = this.sessions.get(session);
    if (!state || state.dead) return;
    state.dead = true;
    state.bound = false;
    this.counters.dropped += 1;
    session.socket.end();
    setTimeout(() => session.destroy(), 50);
  }

  private scheduleReceipts(delayMs: number) {
    // A redelivery can be due later than a fresh receipt: the earliest one sets the timer.
    if (this.receiptTimer && this.receiptTimerAt <= Date.now() + delayMs) return;
    clearTimeout(this.receiptTimer);
    this.receiptTimerAt = Date.now() + delayMs;
    this.receiptTimer = setTimeout(() => {
      this.receiptTimer = undefined;
      this.flushReceipts();
    }, delayMs);
  }

  private flushReceipts() {
    const now = Date.now();
    while (this.receiptQueue.length > 0 && this.receiptQueue[0].dueAt <= now) {
      const item = this.receiptQueue[0];
      // The submitting connection when it is still up, otherwise any bound one; none: wait for a bind.
      const own = this.sessions.get(item.session);
      const session = this.options.spreadOverBinds
        ? this.nextBound()
        : own?.bound && !own.dead
          ? item.session
          : this.firstBound();
      if (!session) return;
      this.receiptQueue.shift();
      this.deliverReceipt(session, item);
    }
    if (this.receiptQueue.length > 0) this.scheduleReceipts(Math.max(0, this.receiptQueue[0].dueAt - now));
  }

  private firstBound(): Session | undefined {
    return [...this.sessions.entries()].find(([, s]) => s.bound && !s.dead)?.[0];
  }

  /** The bound connections in turn (spreadOverBinds). */
  private nextBound(): Session | undefined {
    const bound = [...this.sessions.entries()].filter(([, s]) => s.bound && !s.dead).map(([session]) => session);
    if (bound.length === 0) return undefined;
    this.turn = (this.turn + 1) % bound.length;
    return bound[this.turn];
  }

  private redeliver(item: QueuedReceipt, delayMs: number) {
    if (this.options.redeliverMs === 0) return;
    this.counters.receiptsRedelivered += 1;
    // Its own session is gone or refused it: any bound one will do (flushReceipts picks).
    this.receiptQueue.push({ ...item, dueAt: Date.now() + delayMs });
    this.receiptQueue.sort((a, b) => a.dueAt - b.dueAt);
    this.scheduleReceipts(delayMs);
  }

  private deliverReceipt(session: Session, item: QueuedReceipt) {
    const { submit, stat } = item;
    const state = this.sessions.get(session);
    const date = smppDate(new Date());
    const err = stat === "DELIVRD" || stat === "ENROUTE" ? "000" : "001";
    const text = `id:${submit.messageId} sub:001 dlvrd:${stat === "DELIVRD" ? "001" : "000"} submit date:${date} done date:${date} stat:${stat} err:${err} text:${submit.text.slice(0, 20).replace(/[^\x20-\x7e]/g, "?")}`;
    this.counters.receiptsSent += 1;
    const sent: QueuedReceipt = { ...item, session };
    state?.unacked.add(sent);
    const acknowledged = (resp: PDU) => {
      if (!state?.unacked.delete(sent) || resp.command_status === 0) return;
      this.redeliver(sent, this.options.redeliverMs);
    };
    const written = session.deliver_sm(
      {
        source_addr: submit.destination,
        destination_addr: submit.source,
        esm_class: 0x04,
        data_coding: 0,
        short_message: Buffer.from(text, "ascii"),
        ...(this.options.receiptTlvs
          ? { receipted_message_id: submit.messageId, message_state: MESSAGE_STATE[stat] }
          : {}),
      },
      acknowledged,
    );
    if (!written && state?.unacked.delete(sent)) this.redeliver(sent, 0);
  }
}
