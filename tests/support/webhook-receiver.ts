// A real HTTP receiver on loopback that verifies every delivery with the standardwebhooks package,
// as an integrator's server would. `answer` decides each reply (default 200); it may take its time,
// or drop the connection without a reply.
import { createEndpoint } from "#app/modules/webhooks/endpoints.server.ts";
import { createTestUser } from "#tests/support/requests.ts";
import { grantCredits } from "#tests/support/sms.ts";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";

export type Received = {
  id: string;
  headers: IncomingHttpHeaders;
  body: { type: string; timestamp: string; data: Record<string, unknown> };
  verified: boolean;
  /** When it came (epoch ms). */
  at: number;
};

export type Reply = { status: number; body?: string; headers?: Record<string, string> } | { drop: true };

/** A delivery whose body and verification are worked out on first use (then kept). */
function received(raw: string, headers: IncomingHttpHeaders, secret: string): Received {
  let body: Received["body"] | undefined;
  let verified: boolean | undefined;
  return {
    id: String(headers["webhook-id"]),
    headers,
    at: Date.now(),
    get body() {
      return (body ??= JSON.parse(raw) as Received["body"]);
    },
    get verified() {
      if (verified === undefined) {
        try {
          new Webhook(secret).verify(raw, headers as Record<string, string>);
          verified = true;
        } catch {
          verified = false;
        }
      }
      return verified;
    },
  };
}

export class WebhookReceiver {
  readonly received: Received[] = [];
  /** When the last delivery came (epoch ms). */
  lastAt = 0;
  /** The secret deliveries are verified with; set it after the endpoint is created. */
  secret = "";
  answer: (delivery: Received, nth: number) => Reply | Promise<Reply> = () => ({ status: 200, body: "ok" });
  private readonly tries = new Map<string, number>();
  private readonly server: Server;
  private constructor(server: Server) {
    this.server = server;
  }

  /**
   * `verifyLater`: each delivery is parsed and verified when first read rather than as it comes (with
   * the secret of that moment), so a benchmark's receiver takes no CPU from the gateway it measures.
   */
  static async start({ verifyLater = false } = {}): Promise<WebhookReceiver> {
    const server = createServer();
    const receiver = new WebhookReceiver(server);
    server.on("request", (req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        void (async () => {
          const raw = Buffer.concat(chunks).toString("utf8");
          const delivery = received(raw, req.headers, receiver.secret);
          if (!verifyLater) void delivery.verified;
          receiver.received.push(delivery);
          receiver.lastAt = delivery.at;
          // Counted per id: a scan of every delivery so far made the benchmark's receiver quadratic.
          const nth = (receiver.tries.get(delivery.id) ?? 0) + 1;
          receiver.tries.set(delivery.id, nth);
          const reply = await receiver.answer(delivery, nth);
          if ("drop" in reply) return void res.socket?.destroy();
          res.writeHead(reply.status, reply.headers);
          res.end(reply.body ?? "");
        })();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    return receiver;
  }

  url(path = "/hook"): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}${path}`;
  }

  ofType(type: string): Received[] {
    return this.received.filter((r) => r.body.type === type);
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }
}

/** A customer with credits and one endpoint for `events` at the receiver's `path`, whose secret the receiver verifies with. */
export async function customerWithEndpoint(
  receiver: WebhookReceiver,
  events: Parameters<typeof createEndpoint>[1]["events"],
  path: string,
) {
  const user = await createTestUser();
  await grantCredits(user.id, 20);
  const { endpoint, secret } = await createEndpoint(user.id, { url: receiver.url(path), events, enabled: true });
  receiver.secret = secret;
  return { user, endpoint, secret };
}
