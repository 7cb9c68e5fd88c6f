import type {
  ClaimMessages,
  OutgoingSms,
  SmsTransport,
  SubmitOutcome,
} from "#app/modules/messaging/transport-types.ts";

/**
 * SMPP_BINDS sessions of one worker as one transport: a job's messages are dealt out over the
 * binds in turn, each bind with its own window (the rate limit is shared by all of them anyway).
 */
export class MultiBindTransport implements SmsTransport {
  readonly name: string;
  private readonly binds: SmsTransport[];

  constructor(binds: SmsTransport[]) {
    this.binds = binds;
    this.name = binds[0].name;
  }

  async submitMany(messages: OutgoingSms[], claim: ClaimMessages): Promise<Map<number, SubmitOutcome>> {
    const shares: OutgoingSms[][] = this.binds.map(() => []);
    messages.forEach((sms, i) => shares[i % shares.length].push(sms));
    const outcomes = new Map<number, SubmitOutcome>();
    const results = await Promise.all(
      shares.map((share, i) => (share.length > 0 ? this.binds[i].submitMany(share, claim) : new Map())),
    );
    for (const result of results) for (const [id, outcome] of result) outcomes.set(id, outcome);
    return outcomes;
  }

  async close(): Promise<void> {
    await Promise.all(this.binds.map((bind) => bind.close()));
  }
}
