import {
  type ClaimMessages,
  type OutgoingSms,
  type SmsTransport,
  type SubmitOutcome,
  totalCapacity,
} from "#app/modules/messaging/transport-types.ts";

/** A bind that can tell whether its session is up (an SMPP one can). */
type Bind = SmsTransport & { readonly bindStatus?: { bound: boolean } };

/**
 * SMPP_BINDS sessions of one worker as one transport: a job's messages are dealt out over the
 * binds that are up (all of them when none is), each bind with its own window (the rate limit is
 * shared by all of them anyway). A bind waiting for an SMPP_MAX_BINDS slot gets nothing meanwhile.
 */
export class MultiBindTransport implements SmsTransport {
  readonly name: string;
  private readonly binds: Bind[];

  constructor(binds: Bind[]) {
    this.binds = binds;
    this.name = binds[0].name;
  }

  get capacity(): number | undefined {
    return totalCapacity(this.binds);
  }

  async submitMany(messages: OutgoingSms[], claim: ClaimMessages): Promise<Map<number, SubmitOutcome>> {
    const up = this.binds.filter((bind) => bind.bindStatus?.bound);
    const binds = up.length > 0 ? up : this.binds;
    const shares: OutgoingSms[][] = binds.map(() => []);
    messages.forEach((sms, i) => shares[i % shares.length].push(sms));
    const outcomes = new Map<number, SubmitOutcome>();
    const results = await Promise.all(
      shares.map((share, i) => (share.length > 0 ? binds[i].submitMany(share, claim) : new Map())),
    );
    for (const result of results) for (const [id, outcome] of result) outcomes.set(id, outcome);
    return outcomes;
  }

  async close(): Promise<void> {
    await Promise.all(this.binds.map((bind) => bind.close()));
  }
}
