// A local HTTP server standing in for api.stripe.com: just enough PaymentIntents (with cancel),
// Checkout Sessions (with expire), refunds and disputes for our adapter, with Stripe's idempotency
// (same key, same answer) and its refusals (a settled intent cannot be cancelled, a cancelled one
// cannot be paid).
import { randomBytes } from "node:crypto";
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";

type Obj = Record<string, unknown>;

/** Stripe's form encoding (`a[b][0][c]=1`) into nested objects; numeric keys stay object keys. */
function parseForm(body: string): Obj {
  const root: Obj = {};
  for (const [key, value] of new URLSearchParams(body)) {
    const path = key.split(/\[|\]\[|\]/).filter(Boolean);
    let node = root;
    path.forEach((part, i) => {
      if (i === path.length - 1) node[part] = value;
      else node = (node[part] ??= {}) as Obj;
    });
  }
  return root;
}

const readBody = (req: IncomingMessage) =>
  new Promise<string>((done) => {
    let body = "";
    req.on("data", (chunk) => (body += chunk));
    req.on("end", () => done(body));
  });

const id = (prefix: string) => `${prefix}_${randomBytes(8).toString("hex")}`;

export type RecordedRequest = { method: string; path: string; idempotencyKey: string | undefined; body: Obj };

export async function startFakeStripe() {
  const intents = new Map<string, Obj>();
  const sessions = new Map<string, Obj>();
  const answered = new Map<string, { status: number; body: string }>();
  const requests: RecordedRequest[] = [];
  const charges = new Map<string, Obj>();

  const unexpectedState = (message: string) => ({
    status: 400,
    body: { error: { type: "invalid_request_error", code: "payment_intent_unexpected_state", message } },
  });

  function createIntent(params: Obj): Obj {
    const intentId = id("pi");
    const intent: Obj = {
      id: intentId,
      object: "payment_intent",
      amount: Number(params.amount),
      amount_received: 0,
      currency: params.currency,
      status: "requires_payment_method",
      client_secret: `${intentId}_secret_${randomBytes(6).toString("hex")}`,
      metadata: params.metadata ?? {},
      last_payment_error: null,
    };
    intents.set(intentId, intent);
    return intent;
  }

  function route(method: string, path: string, params: Obj): { status: number; body: Obj } {
    const [, , resource, ...rest] = path.split("/");
    if (resource === "payment_intents") {
      if (method === "POST" && rest.length === 0) return { status: 200, body: createIntent(params) };
      const intent = intents.get(rest[0]);
      if (method === "GET" && intent && rest.length === 1) return { status: 200, body: intent };
      if (method === "POST" && intent && rest[1] === "cancel") {
        if (["succeeded", "processing", "canceled"].includes(intent.status as string)) {
          return unexpectedState(`You cannot cancel this PaymentIntent because it has a status of ${intent.status}.`);
        }
        Object.assign(intent, { status: "canceled", cancellation_reason: params.cancellation_reason ?? null });
        return { status: 200, body: intent };
      }
    }
    if (resource === "checkout" && rest[0] === "sessions") {
      if (method === "POST" && rest.length === 1) {
        const sessionId = id("cs_test");
        const session: Obj = {
          id: sessionId,
          object: "checkout.session",
          url: `https://checkout.stripe.com/c/pay/${sessionId}`,
          status: "open",
          payment_status: "unpaid",
          payment_intent: null,
          metadata: params.metadata ?? {},
          client_reference_id: params.client_reference_id,
          success_url: String(params.success_url).replace("{CHECKOUT_SESSION_ID}", sessionId),
          cancel_url: params.cancel_url,
          line_items_params: params.line_items,
          payment_intent_data: params.payment_intent_data,
        };
        sessions.set(sessionId, session);
        return { status: 200, body: session };
      }
      const session = sessions.get(rest[1]);
      if (method === "GET" && session && rest.length === 2) return { status: 200, body: session };
      if (method === "POST" && session && rest[2] === "expire") {
        if (session.status !== "open") {
          return {
            status: 400,
            body: {
              error: {
                type: "invalid_request_error",
                message: `Only Checkout Sessions with a status of open can be expired.`,
              },
            },
          };
        }
        Object.assign(session, { status: "expired" });
        return { status: 200, body: session };
      }
    }
    return {
      status: 404,
      body: { error: { type: "invalid_request_error", code: "resource_missing", message: `No such object: ${path}` } },
    };
  }

  const server = createServer((req, res) => {
    void (async () => {
      const body = parseForm(await readBody(req));
      const path = new URL(req.url ?? "/", "http://stripe.local").pathname;
      const idempotencyKey = req.headers["idempotency-key"] as string | undefined;
      requests.push({ method: req.method ?? "GET", path, idempotencyKey, body });
      const replay = idempotencyKey ? answered.get(idempotencyKey) : undefined;
      const answer =
        replay ??
        (({ status, body: out }) => ({ status, body: JSON.stringify(out) }))(route(req.method ?? "GET", path, body));
      if (idempotencyKey && !replay) answered.set(idempotencyKey, answer);
      res.writeHead(answer.status, { "Content-Type": "application/json", "Request-Id": id("req") });
      res.end(answer.body);
    })();
  });
  await new Promise<void>((ready) => server.listen(0, "127.0.0.1", ready));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    intents,
    sessions,
    /** What the card network would do: the intent succeeds (optionally with other facts). */
    succeed(intentId: string, overrides: Obj = {}) {
      const intent = intents.get(intentId)!;
      if (intent.status === "canceled") throw new Error(`PaymentIntent ${intentId} was cancelled: it cannot be paid`);
      Object.assign(intent, { status: "succeeded", amount_received: intent.amount, ...overrides });
      return intent;
    },
    /** The intent's charge (made on first use), as `charge.*` events carry it. */
    chargeOf(intentId: string) {
      const intent = intents.get(intentId)!;
      let charge = charges.get(intentId);
      if (!charge) {
        charge = {
          id: id("ch"),
          object: "charge",
          amount: intent.amount,
          amount_refunded: 0,
          currency: intent.currency,
          payment_intent: intentId,
          refunded: false,
          metadata: {},
        };
        charges.set(intentId, charge);
      }
      return charge;
    },
    /** A refund from Stripe's dashboard: the charge's running refunded total grows. */
    refund(intentId: string, amountCents?: number) {
      const charge = this.chargeOf(intentId);
      const refunded = Math.min(
        Number(charge.amount),
        Number(charge.amount_refunded) + (amountCents ?? Number(charge.amount)),
      );
      Object.assign(charge, { amount_refunded: refunded, refunded: refunded === charge.amount });
      return { ...charge };
    },
    /** The card holder disputes the charge. */
    dispute(intentId: string, amountCents?: number) {
      const charge = this.chargeOf(intentId);
      return {
        id: id("dp"),
        object: "dispute",
        amount: amountCents ?? charge.amount,
        charge: charge.id,
        currency: charge.currency,
        payment_intent: intentId,
        reason: "fraudulent",
        status: "needs_response",
      };
    },
    fail(intentId: string, message: string) {
      const intent = intents.get(intentId)!;
      Object.assign(intent, { status: "requires_payment_method", last_payment_error: { message } });
      return intent;
    },
    /** The customer paid on the hosted Checkout page. */
    completeSession(sessionId: string) {
      const session = sessions.get(sessionId)!;
      if (session.status !== "open")
        throw new Error(`Checkout Session ${sessionId} is ${session.status}: it cannot be paid`);
      const lines = Object.values(
        (session.line_items_params ?? {}) as Record<
          string,
          { quantity: string; price_data: { unit_amount: string; currency: string } }
        >,
      );
      const amount = lines.reduce((sum, l) => sum + Number(l.quantity) * Number(l.price_data.unit_amount), 0);
      const intent = createIntent({
        amount,
        currency: lines[0].price_data.currency,
        metadata: (session.payment_intent_data as { metadata: Obj }).metadata,
      });
      this.succeed(intent.id as string);
      Object.assign(session, { status: "complete", payment_status: "paid", payment_intent: intent.id });
      return session;
    },
    close: () => new Promise<void>((done) => server.close(() => done())),
  };
}
