// Several upstreams as one transport: each message goes to the first upstream of its route and
// moves on to the next only when that one provably did not take it (decision 138).
import {
  type ClaimMessages,
  type OutgoingSms,
  type Receipt,
  type ReceiptSink,
  type SmsTransport,
  type SubmitAttempt,
  type SubmitOutcome,
  totalCapacity,
  type UpstreamConfig,
} from "#app/modules/messaging/transport-types.ts";
import { anotherUpstreamMayTake } from "#app/modules/sms/transports/smpp-status.server.ts";
import { DEFAULT_UPSTREAMS, ENV_UPSTREAM_ID } from "#app/modules/sms/transports/upstream-config.ts";
import type { UpstreamState } from "#app/modules/health/heartbeat.server.ts";
import { UpstreamStats } from "#app/modules/sms/transports/upstream-stats.server.ts";

/** A session of an upstream that can tell whether it is up (SMPP binds and the simulator can). */
export type UpstreamBind = { readonly bindStatus?: { bound: boolean } };

/** One upstream's transport and its sessions. */
export type UpstreamTransport = { config: UpstreamConfig; transport: SmsTransport; binds: UpstreamBind[] };

/** The routed transports of this process, for its heartbeat and metrics (upstreamStates). */
const openRoutedTransports = new Set<RoutedTransport>();

/**
 * SMSC message ids are unique per SMSC only: those of an upstream other than the environment's are
 * kept as "<upstream id>:<id>", so that a receipt matches the part its own upstream accepted.
 */
export function storedProviderId(upstream: string, smscMessageId: string): string {
  return upstream === ENV_UPSTREAM_ID ? smscMessageId : `${upstream}:${smscMessageId}`;
}

/** The receipt sink of one upstream: its receipts' ids kept the way its acks are (storedProviderId). */
export function upstreamReceiptSink(upstream: string, sink: ReceiptSink): ReceiptSink {
  if (upstream === ENV_UPSTREAM_ID) return sink;
  return (receipts: Receipt[]) =>
    sink(receipts.map((receipt) => ({ ...receipt, providerId: storedProviderId(upstream, receipt.providerId) })));
}

/** A message on its way along its route: which upstream it tries now, and what it met so far. */
type Journey = { sms: OutgoingSms; route: string[]; at: number; attempts: SubmitAttempt[] };

type Step = "final" | "next" | "unknown";

// An upstream with no bind up for this long (the SMPP transport's connect wait) is passed over at once.
const DOWN_AFTER_MS = 10_000;

/**
 * What follows an upstream's outcome. A message moves on only when this upstream provably did not
 * take it: nothing was written (no bind up), or every part was refused with a status that faults
 * the carrier, not the message. Written and never answered, it may have it: on a route with
 * another upstream it is `unknown`, since a retry could land elsewhere.
 */
function stepAfter(outcome: SubmitOutcome, journey: Journey): Step {
  if (outcome.kind !== "temporary" && outcome.kind !== "permanent") return "final";
  const attempts = outcome.attempts ?? [];
  if (outcome.acks.length > 0 || attempts.some((a) => a.commandStatus === 0)) return "final";
  if (attempts.some((a) => a.commandStatus === null)) return journey.route.length > 1 ? "unknown" : "final";
  if (journey.at + 1 >= journey.route.length) return "final";
  return attempts.every((a) => anotherUpstreamMayTake(a.commandStatus!)) ? "next" : "final";
}

/** The outcome as the caller records it: every attempt of the journey, and the ids as they are stored. */
function reported(outcome: SubmitOutcome, upstream: string, journey: Journey, step: Step): SubmitOutcome {
  if (outcome.kind === "not-claimed") return outcome;
  // The usual case, the environment's upstream on the first try, as it came.
  if (step === "final" && journey.at === 0 && upstream === ENV_UPSTREAM_ID) return outcome;
  const acks = outcome.acks.map((ack) => ({ ...ack, providerId: storedProviderId(upstream, ack.providerId) }));
  const attempts = journey.attempts;
  if (step === "unknown" && outcome.kind !== "accepted") {
    const reason = `No answer from upstream ${upstream} (${outcome.reason}); not sent elsewhere, as it may have it`;
    return { kind: "unknown", reason, acks, attempts };
  }
  return { ...outcome, acks, attempts };
}

export class RoutedTransport implements SmsTransport {
  readonly name: string;
  private readonly upstreams: Map<string, UpstreamTransport & { stats: UpstreamStats; downSince?: number }>;
  private readonly now: () => number;

  constructor(upstreams: UpstreamTransport[], now: () => number = Date.now) {
    this.now = now;
    this.upstreams = new Map(upstreams.map((u) => [u.config.id, { ...u, stats: new UpstreamStats(now) }]));
    this.name = upstreams.length === 1 ? upstreams[0].transport.name : "routed";
    openRoutedTransports.add(this);
  }

  get capacity(): number | undefined {
    return totalCapacity([...this.upstreams.values()].map((upstream) => upstream.transport));
  }

  async submitMany(messages: OutgoingSms[], claim: ClaimMessages): Promise<Map<number, SubmitOutcome>> {
    const outcomes = new Map<number, SubmitOutcome>();
    // A message is claimed once per try: on the next upstream it is already the caller's.
    const claimed = new Set<number>();
    const claimOnce: ClaimMessages = async (ids) => {
      const fresh = ids.filter((id) => !claimed.has(id));
      if (fresh.length > 0) for (const id of await claim(fresh)) claimed.add(id);
      return new Set(ids.filter((id) => claimed.has(id)));
    };
    let journeys: Journey[] = [];
    for (const sms of messages) {
      const route = [...new Set(sms.upstreams ?? DEFAULT_UPSTREAMS)].filter((id) => this.upstreams.has(id));
      if (route.length > 0) journeys.push({ sms, route, at: 0, attempts: [] });
      else outcomes.set(sms.id, { kind: "temporary", reason: "No upstream of its route is configured", acks: [] });
    }
    while (journeys.length > 0) {
      const byUpstream = new Map<string, Journey[]>();
      for (const journey of journeys) {
        const id = journey.route[journey.at];
        const group = byUpstream.get(id);
        if (group) group.push(journey);
        else byUpstream.set(id, [journey]);
      }
      const moving: Journey[] = [];
      await Promise.all(
        [...byUpstream].map(async ([id, allOfGroup]) => {
          const upstream = this.upstreams.get(id)!;
          // Down for longer than a bind takes to come back: a message with another upstream after it goes
          // there at once (nothing written here), instead of every batch waiting the connect timeout.
          const passing = this.isDown(upstream) ? allOfGroup.filter((j) => j.at + 1 < j.route.length) : [];
          const group = allOfGroup.filter((journey) => !passing.includes(journey));
          for (const journey of passing) {
            upstream.stats.record({ kind: "temporary", reason: "No bind up", acks: [], attempts: [] });
            upstream.stats.failedOver += 1;
            moving.push({ ...journey, at: journey.at + 1 });
          }
          if (group.length === 0) return;
          const results = await upstream.transport.submitMany(
            group.map((journey) => journey.sms),
            claimOnce,
          );
          for (const journey of group) {
            const outcome = results.get(journey.sms.id)!;
            upstream.stats.record(outcome);
            if ("attempts" in outcome && outcome.attempts) journey.attempts.push(...outcome.attempts);
            const step = stepAfter(outcome, journey);
            if (step === "next") {
              upstream.stats.failedOver += 1;
              moving.push({ ...journey, at: journey.at + 1 });
            } else outcomes.set(journey.sms.id, reported(outcome, id, journey, step));
          }
        }),
      );
      journeys = moving;
    }
    return outcomes;
  }

  /** Each upstream's binds and what its submits met lately. */
  states(): UpstreamState[] {
    return [...this.upstreams.values()].map(({ config, binds, stats }) =>
      stats.state(config.id, config.name, {
        binds: binds.length,
        bindsUp: binds.filter((bind) => bind.bindStatus?.bound).length,
      }),
    );
  }

  /** Whether none of the upstream's binds has been up for DOWN_AFTER_MS (a simulator never is). */
  private isDown(upstream: UpstreamTransport & { stats: UpstreamStats; downSince?: number }): boolean {
    const unbound = upstream.binds.length > 0 && upstream.binds.every((bind) => bind.bindStatus?.bound === false);
    if (!unbound) {
      upstream.downSince = undefined;
      return false;
    }
    upstream.downSince ??= this.now();
    return this.now() - upstream.downSince >= DOWN_AFTER_MS;
  }

  async close(): Promise<void> {
    openRoutedTransports.delete(this);
    await Promise.all([...this.upstreams.values()].map((upstream) => upstream.transport.close()));
  }
}

/** This process's upstreams: binds up, submits per second, error rate, last error (none in a web-only process). */
export function upstreamStates(): UpstreamState[] {
  return [...openRoutedTransports].flatMap((transport) => transport.states());
}
