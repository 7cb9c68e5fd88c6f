// The benchmark's webhook phase: an account with one endpoint subscribed to message.delivered on a
// loopback receiver (every signature verified once the phase is over), sending the API phase's load again.
import { storeNewApiKey } from "#app/modules/api-keys/keys.server.ts";
import { createUser } from "#app/modules/auth/users.server.ts";
import { book } from "#app/modules/credits/ledger.server.ts";
import { createEndpoint } from "#app/modules/webhooks/endpoints.server.ts";
import { WebhookReceiver } from "#tests/support/webhook-receiver.ts";

export type WebhookPhase = { userId: number; key: string; receiver: WebhookReceiver };

/** Before the app starts: the account, its key and its endpoint (WEBHOOK_ALLOW_PRIVATE=1 lets it be loopback). */
export async function prepareWebhookPhase(password: string, credits: number): Promise<WebhookPhase> {
  const user = await createUser({ email: "hooks@bench.test", fullName: "Webhook Bench", password });
  await book({ userId: user.id, kind: "grant", amount: credits, key: "bench-grant-hooks" });
  const { key } = await storeNewApiKey(user.id);
  // Verified after the phase: the receiver (an integrator's server, elsewhere in real life) shares
  // this machine's two cores with the gateway.
  const receiver = await WebhookReceiver.start({ verifyLater: true });
  const { secret } = await createEndpoint(user.id, {
    url: receiver.url("/bench"),
    events: ["message.delivered"],
    enabled: true,
  });
  receiver.secret = secret;
  return { userId: user.id, key, receiver };
}

/**
 * Distinct message.delivered events received (by webhook-id), those failing verification, when the
 * last came, and how many came from `from` to `by` (epoch ms: while a phase's SMS were being delivered).
 */
export function receivedEvents(phase: WebhookPhase, from = 0, by = Infinity) {
  const ids = new Set<string>();
  const messages = new Set<unknown>();
  let unverified = 0;
  let early = 0;
  for (const delivery of phase.receiver.received) {
    if (delivery.at >= from && delivery.at <= by && !ids.has(delivery.id)) early += 1;
    ids.add(delivery.id);
    messages.add(delivery.body.data.id);
    if (!delivery.verified) unverified += 1;
  }
  return { events: ids.size, messages: messages.size, unverified, lastAt: phase.receiver.lastAt, early };
}
