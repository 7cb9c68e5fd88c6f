import { randomUUID } from "node:crypto";
import smpp from "smpp";
import { log } from "#app/utils/log.server.ts";
import { encodeGsm7, splitMessage } from "#app/modules/messaging/segments.ts";
import type {
  ClaimMessages,
  InboundSink,
  OutgoingSms,
  PartAck,
  ReceiptSink,
  SmsTransport,
  SubmitAttempt,
  SubmitOutcome,
} from "#app/modules/messaging/transport-types.ts";

/** Numbers that make the simulator misbehave on purpose (documented in docs/features/sending-sms.md). */
export const SIMULATOR_NUMBERS = {
  /** The submit is refused: the message fails and its credits come back. */
  rejected: "+12025550199",
  /** Accepted, then an UNDELIV receipt. */
  undelivered: "+12025550198",
  /** Accepted, and no receipt ever comes: the message stays Sent. */
  noReceipt: "+12025550197",
  /** A congested carrier: the message waits in the queue for 10 x SIMULATOR_DLR_MS, then is delivered. */
  slow: "+12025550196",
} as const;

const SLOW_FACTOR = 10;
/** A message with this word gets an answer from the phone after its receipt, so the demo shows the inbox. */
const ASKS_FOR_A_REPLY = /\breply\b/i;

/** The simulated phone's answer to a message that asked for one. */
export function simulatedReplyText(body: string): string {
  const quoted = body.length > 40 ? `${body.slice(0, 39)}…` : body;
  return `Got it, thanks! (simulated answer to "${quoted}")`;
}

/** The command_status a failing simulated upstream answers: an SMSC-side error, so another may take it. */
const FAILING_STATUS = smpp.errors.ESME_RSYSERR;

/**
 * No network: accepts every message and reports it delivered after `dlrMs`; told `failing`, it
 * refuses every submit as a broken carrier would, before accepting it.
 */
export class SimulatorTransport implements SmsTransport {
  readonly name = "simulator";
  /** Its one simulated bind, up until it closes. */
  readonly bindStatus = { bound: true, window: 0, inFlight: 0 };
  private readonly upstream: string;
  private readonly failing: boolean;
  private readonly dlrMs: number;
  private readonly onReceipts: ReceiptSink;
  private readonly onInbound?: InboundSink;
  private readonly replyFrom: string;
  /** Receipts (and replies) still to come, each with what reports it. */
  private readonly timers = new Map<NodeJS.Timeout, () => Promise<void>>();
  private readonly waits = new Set<() => void>();
  private closed = false;

  /** `replyFrom`: the address simulated answers are sent to (the gateway's default sender). */
  constructor(options: {
    dlrMs: number;
    onReceipts: ReceiptSink;
    onInbound?: InboundSink;
    replyFrom?: string;
    upstream?: string;
    failing?: boolean;
  }) {
    this.upstream = options.upstream ?? "env";
    this.failing = options.failing ?? false;
    this.dlrMs = options.dlrMs;
    this.onReceipts = options.onReceipts;
    this.onInbound = options.onInbound;
    this.replyFrom = options.replyFrom ?? "SMSGateway";
  }

  async submitMany(messages: OutgoingSms[], claim: ClaimMessages): Promise<Map<number, SubmitOutcome>> {
    const outcomes = new Map<number, SubmitOutcome>();
    const slow = messages.filter((sms) => sms.to === SIMULATOR_NUMBERS.slow);
    const now = messages.filter((sms) => sms.to !== SIMULATOR_NUMBERS.slow);
    await Promise.all([
      this.submitGroup(now, claim, outcomes),
      slow.length > 0
        ? this.wait(this.dlrMs * SLOW_FACTOR).then((waited) => this.submitGroup(slow, claim, outcomes, waited))
        : null,
    ]);
    return outcomes;
  }

  private async submitGroup(
    messages: OutgoingSms[],
    claim: ClaimMessages,
    outcomes: Map<number, SubmitOutcome>,
    running = true,
  ) {
    if (messages.length === 0) return;
    if (this.closed || !running) {
      for (const sms of messages)
        outcomes.set(sms.id, { kind: "temporary", reason: "The simulator stopped", acks: [] });
      return;
    }
    const claimed = await claim(messages.map((sms) => sms.id));
    for (const sms of messages) outcomes.set(sms.id, claimed.has(sms.id) ? this.accept(sms) : { kind: "not-claimed" });
  }

  /** Each part's submit_sm answered with `commandStatus`. */
  private attempts(sms: OutgoingSms, commandStatus: number, acks: PartAck[] = []): SubmitAttempt[] {
    return sms.parts.map((part, i) => ({
      upstream: this.upstream,
      bind: 1,
      part,
      commandStatus,
      smscMessageId: acks[i]?.providerId ?? null,
    }));
  }

  private accept(sms: OutgoingSms): SubmitOutcome {
    if (this.failing) {
      const reason = "SMSC busy: the simulated upstream is told to fail (ESME_RSYSERR)";
      return { kind: "temporary", reason, acks: [], attempts: this.attempts(sms, FAILING_STATUS) };
    }
    if (sms.to === SIMULATOR_NUMBERS.rejected) {
      const reason = "Rejected by the carrier (simulated): invalid destination";
      return { kind: "permanent", reason, acks: [], attempts: this.attempts(sms, smpp.errors.ESME_RINVDSTADR) };
    }
    const acks = sms.parts.map((part) => ({ part, providerId: `sim-${randomUUID()}` }));
    if (sms.to !== SIMULATOR_NUMBERS.noReceipt) {
      const undelivered = sms.to === SIMULATOR_NUMBERS.undelivered;
      const receipts = acks.map((ack) => ({
        providerId: ack.providerId,
        status: undelivered ? ("undelivered" as const) : ("delivered" as const),
        error: undelivered ? "001" : null,
      }));
      // Like a real SMSC's, a receipt that could not be stored is lost here: the message stays Sent.
      this.later(this.dlrMs, async () => {
        const stored = this.onReceipts(receipts).catch((error) => log("error", "sms", "receipt not stored", error));
        await stored;
        if (!undelivered && ASKS_FOR_A_REPLY.test(sms.body)) await this.reply(sms);
      });
    }
    const attempts = this.attempts(sms, 0, acks);
    return { kind: "accepted", acks, takenBy: { upstream: this.upstream, bind: 1 }, attempts };
  }

  /** The phone answers, as an SMSC would deliver it: an inbound SMS to the sender it came from. */
  private async reply(sms: OutgoingSms) {
    const text = simulatedReplyText(sms.body);
    const gsm = splitMessage(text).encoding === "GSM-7";
    const payload = gsm ? Buffer.from(encodeGsm7(text)) : Buffer.from(text, "utf16le").swap16();
    try {
      await this.onInbound?.([{ from: sms.to, to: this.replyFrom, dataCoding: gsm ? 0 : 8, payload, concat: null }]);
    } catch (error) {
      log("error", "sms", "simulated reply not stored", error);
    }
  }

  private later(ms: number, run: () => Promise<void>) {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      void run();
    }, ms);
    this.timers.set(timer, run);
  }

  /** Resolves true after `ms`, or false at once when the simulator closes. */
  private wait(ms: number): Promise<boolean> {
    return new Promise((resolve) => {
      const cancel = () => {
        clearTimeout(timer);
        resolve(false);
      };
      const timer = setTimeout(() => {
        this.waits.delete(cancel);
        resolve(true);
      }, ms);
      this.waits.add(cancel);
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    this.bindStatus.bound = false;
    for (const cancel of this.waits) cancel();
    this.waits.clear();
    // Receipts not reported yet are reported now, as a real SMSC redelivers them on the next bind: a
    // worker that replaces its transport (an admin edited an upstream) loses none.
    const pending = [...this.timers];
    this.timers.clear();
    for (const [timer] of pending) clearTimeout(timer);
    await Promise.all(pending.map(([, run]) => run()));
  }
}
