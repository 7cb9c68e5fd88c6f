// The webhook suites' set-up: a gateway on a test SMSC whose worker also runs the webhooks queue,
// and a real receiver on loopback that verifies every delivery (tests/support/webhook-receiver.ts).
import { afterAll, beforeAll } from "vitest";
import { webhooks } from "#worker/jobs/webhooks.ts";
import { type SmppGateway, startSmppGateway } from "#tests/support/smpp-gateway.ts";
import type { TestSmscOptions } from "#tests/support/smpp-server.ts";
import { customerWithEndpoint, WebhookReceiver } from "#tests/support/webhook-receiver.ts";

/** Starts both before the file's tests and stops them after; call at the top of a test file. */
export function useWebhookGateway(smsc?: TestSmscOptions) {
  // Read at the first getEnv(): the receiver is on loopback, and retries come quickly.
  process.env.WEBHOOK_ALLOW_PRIVATE = "1";
  process.env.WEBHOOK_RETRY_DELAY_MS = "50";
  const started: { gateway?: SmppGateway; receiver?: WebhookReceiver } = {};
  beforeAll(async () => {
    started.gateway = await startSmppGateway({ smsc, transport: { throttlePauseMs: 20 }, jobs: [webhooks] });
    started.receiver = await WebhookReceiver.start();
  });
  afterAll(async () => {
    await started.gateway?.stop();
    await started.receiver?.stop();
  });
  const receiver = () => started.receiver!;
  return {
    receiver,
    /** A customer with credits and an endpoint for `events` at the receiver's `path`. */
    customerWithEndpoint: (events: Parameters<typeof customerWithEndpoint>[1], path: string) =>
      customerWithEndpoint(receiver(), events, path),
  };
}
