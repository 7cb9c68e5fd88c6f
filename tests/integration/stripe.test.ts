// The Stripe adapter against a local HTTP server standing in for Stripe's API, and webhooks
// signed with the SDK's own test helper. Stripe is configured before the app first reads its environment.
import { getEnv } from "#app/utils/env.server.ts";
import Stripe from "stripe";
import { afterAll, describe, expect, it } from "vitest";
import { startFakeStripe } from "#tests/support/fake-stripe.ts";
import { getDb } from "#app/db/client.server.ts";
import { packages } from "#app/db/schema/shop.ts";
import { seedDatabase } from "#app/modules/seed/seed.server.ts";
import { creditLedger } from "#app/db/schema/core.ts";
import { book, getBalance, getLedgerSum } from "#app/modules/credits/ledger.server.ts";
import { getCartCount } from "#app/modules/shop/cart.server.ts";
import { getOrder } from "#app/modules/shop/orders.server.ts";
import { contentSecurityPolicy } from "#app/web/csp.server.ts";
import * as payment from "#app/routes/shop/payment.tsx";
import * as paymentReturn from "#app/routes/shop/payment-return.tsx";
import * as webhook from "#app/routes/shop/stripe-webhook.tsx";
import * as orderDetails from "#app/routes/shop/order-details.tsx";
import { getToast } from "#app/web/toast.server.ts";
import { eq } from "drizzle-orm";
import { createTestUser, dataOf, locationOf, makeRequest, statusOf } from "#tests/support/requests.ts";
import { addToCart, call, placeOrder } from "#tests/support/shop.ts";

const fake = await startFakeStripe();
const WEBHOOK_SECRET = "whsec_test_secret";
process.env.STRIPE_SECRET_KEY = "sk_test_fake";
process.env.STRIPE_PUBLISHABLE_KEY = "pk_test_fake";
process.env.STRIPE_WEBHOOK_SECRET = WEBHOOK_SECRET;
process.env.STRIPE_API_BASE = fake.url;

type TestUser = Awaited<ReturnType<typeof createTestUser>>;

afterAll(() => fake.close());

await seedDatabase();
const [pack] = await getDb().select().from(packages).all();

async function pendingOrder(user: TestUser, quantity = 2) {
  await addToCart(user, pack.id, quantity);
  return (await getOrder(await placeOrder(user)))!;
}

async function createIntent(user: TestUser, orderId: number) {
  const result = await call(
    payment.action,
    makeRequest(`/payment?orderId=${orderId}`, { user, form: { intent: "stripe-intent" } }),
  );
  return result as { clientSecret: string };
}

const intentIdOf = (clientSecret: string) => clientSecret.split("_secret_")[0];

function webhookRequest(payload: string, signature: string | null) {
  const headers = new Headers({ "Content-Type": "application/json" });
  if (signature !== null) headers.set("Stripe-Signature", signature);
  return new Request("http://localhost/payment/webhook/stripe", { method: "POST", body: payload, headers });
}

function event(type: string, object: unknown) {
  return JSON.stringify({
    id: `evt_${Math.random().toString(36).slice(2)}`,
    object: "event",
    type,
    api_version: Stripe.API_VERSION,
    created: Math.floor(Date.now() / 1000),
    data: { object },
  });
}

const sign = (payload: string, timestamp = Math.floor(Date.now() / 1000), secret = WEBHOOK_SECRET) =>
  Stripe.webhooks.generateTestHeaderString({ payload, secret, timestamp });

describe("Stripe payments", () => {
  it("the payment page offers Stripe, and the page's policy lets Stripe.js, its frames and Checkout in", async () => {
    const user = await createTestUser();
    const order = await pendingOrder(user);
    const page = dataOf<{ stripe: { publishableKey: string } | null }>(
      await call(payment.loader, makeRequest(`/payment?orderId=${order.id}`, { user })),
    );
    expect(page.stripe).toEqual({ publishableKey: "pk_test_fake" });
    const csp = contentSecurityPolicy("n");
    expect(csp).toContain("script-src 'self' 'nonce-n' https://js.stripe.com https://*.js.stripe.com");
    expect(csp).toContain("frame-src https://js.stripe.com https://*.js.stripe.com https://hooks.stripe.com");
    expect(csp).toContain("connect-src 'self' https://api.stripe.com");
    expect(csp).toContain("form-action 'self' https://checkout.stripe.com");
  });

  it("creates one PaymentIntent per order, priced by the server, with an idempotency key from the order", async () => {
    const user = await createTestUser();
    const order = await pendingOrder(user);
    const [first, second] = await Promise.all([createIntent(user, order.id), createIntent(user, order.id)]);
    expect(second.clientSecret).toBe(first.clientSecret);
    const creates = fake.requests.filter(
      (r) =>
        r.method === "POST" &&
        r.path === "/v1/payment_intents" &&
        r.body.metadata &&
        (r.body.metadata as { orderId: string }).orderId === String(order.id),
    );
    // Each visit that found no stored intent yet created one (both, or only the first when it had
    // already stored its intent: timing decides), always with the order's key, so Stripe made one.
    expect(creates.length).toBeGreaterThanOrEqual(1);
    expect(creates.length).toBeLessThanOrEqual(2);
    expect(new Set(creates.map((r) => r.idempotencyKey))).toEqual(new Set([`order-${order.id}-payment-intent`]));
    expect(creates[0].body).toMatchObject({
      amount: String(2 * pack.priceCents),
      currency: "usd",
      automatic_payment_methods: { enabled: "true" },
    });
    const intentId = intentIdOf(first.clientSecret);
    expect((await getOrder(order.id))!.providerRef).toBe(intentId);
    // Later visits reuse the stored intent instead of making another.
    const before = fake.requests.length;
    expect((await createIntent(user, order.id)).clientSecret).toBe(first.clientSecret);
    expect(fake.requests.slice(before).map((r) => `${r.method} ${r.path}`)).toEqual([
      `GET /v1/payment_intents/${intentId}`,
    ]);
  });

  it("the return page confirms only what Stripe reports as paid, and grants once", async () => {
    const user = await createTestUser();
    const order = await pendingOrder(user);
    const intentId = intentIdOf((await createIntent(user, order.id)).clientSecret);
    const back = () =>
      call(
        paymentReturn.loader,
        makeRequest(`/payment/return?orderId=${order.id}&payment_intent=${intentId}`, { user }),
      );

    expect(locationOf(await back())).toBe(`/failed?orderId=${order.id}`);
    expect((await getOrder(order.id))!.status).toBe("Pending");

    fake.succeed(intentId);
    expect(locationOf(await back())).toBe(`/order/orderconfirmed/${order.id}`);
    expect(locationOf(await back())).toBe(`/order/orderconfirmed/${order.id}`);
    expect(await getOrder(order.id)).toMatchObject({
      status: "Confirmed",
      paymentId: intentId,
      paymentProvider: "stripe",
    });
    expect(await getBalance(user.id)).toBe(2 * pack.credits);
    expect(await getCartCount(user.id)).toBe(0);
  });

  it("refuses a payment whose amount or currency differs from the order", async () => {
    const user = await createTestUser();
    const order = await pendingOrder(user);
    const intentId = intentIdOf((await createIntent(user, order.id)).clientSecret);
    fake.succeed(intentId, { amount: 1, amount_received: 1 });
    expect(
      locationOf(
        await call(
          paymentReturn.loader,
          makeRequest(`/payment/return?orderId=${order.id}&payment_intent=${intentId}`, { user }),
        ),
      ),
    ).toBe(`/failed?orderId=${order.id}`);
    fake.succeed(intentId, { amount: order.totalCents, currency: "eur" });
    const signed = event("payment_intent.succeeded", fake.intents.get(intentId));
    expect(statusOf(await webhook.action({ request: webhookRequest(signed, sign(signed)) } as never))).toBe(200);
    expect((await getOrder(order.id))!.status).toBe("Pending");
    expect(await getBalance(user.id)).toBe(0);
  });

  it("without JavaScript, pays through Stripe Checkout and comes back confirmed", async () => {
    const user = await createTestUser();
    const order = await pendingOrder(user, 3);
    const result = await call(
      payment.action,
      // A forged Host: the return addresses still start with APP_URL.
      makeRequest(`http://evil.example/payment?orderId=${order.id}`, {
        user,
        form: { intent: "stripe-checkout", amount: "1" },
      }),
    );
    const location = locationOf(result)!;
    expect(location).toMatch(/^https:\/\/checkout\.stripe\.com\/c\/pay\/cs_test_/);
    const sessionId = location.split("/").pop()!;
    const created = fake.requests.find(
      (r) =>
        r.path === "/v1/checkout/sessions" &&
        r.method === "POST" &&
        (r.body.metadata as { orderId: string }).orderId === String(order.id),
    )!;
    expect(created.idempotencyKey).toBe(`order-${order.id}-checkout`);
    expect(created.body).toMatchObject({
      mode: "payment",
      client_reference_id: String(order.id),
      line_items: { "0": { quantity: "3", price_data: { currency: "usd", unit_amount: String(pack.priceCents) } } },
      success_url: `${getEnv().appUrl}/payment/return?orderId=${order.id}&session_id={CHECKOUT_SESSION_ID}`,
      cancel_url: `${getEnv().appUrl}/payment?orderId=${order.id}`,
    });

    const unpaid = await call(
      paymentReturn.loader,
      makeRequest(`/payment/return?orderId=${order.id}&session_id=${sessionId}`, { user }),
    );
    expect(locationOf(unpaid)).toBe(`/failed?orderId=${order.id}`);
    fake.completeSession(sessionId);
    const paid = await call(
      paymentReturn.loader,
      makeRequest(`/payment/return?orderId=${order.id}&session_id=${sessionId}`, { user }),
    );
    expect(locationOf(paid)).toBe(`/order/orderconfirmed/${order.id}`);
    expect(await getBalance(user.id)).toBe(3 * pack.credits);
  });

  it("another customer's order is a 404 on the payment page, its actions and the return page", async () => {
    const alice = await createTestUser();
    const bob = await createTestUser();
    const order = await pendingOrder(alice);
    expect(statusOf(await call(payment.loader, makeRequest(`/payment?orderId=${order.id}`, { user: bob })))).toBe(404);
    expect(
      statusOf(
        await call(
          payment.action,
          makeRequest(`/payment?orderId=${order.id}`, { user: bob, form: { intent: "stripe-intent" } }),
        ),
      ),
    ).toBe(404);
    expect(
      statusOf(
        await call(
          payment.action,
          makeRequest(`/payment?orderId=${order.id}`, { user: bob, form: { intent: "stripe-checkout" } }),
        ),
      ),
    ).toBe(404);
    const intentId = intentIdOf((await createIntent(alice, order.id)).clientSecret);
    fake.succeed(intentId);
    expect(
      statusOf(
        await call(
          paymentReturn.loader,
          makeRequest(`/payment/return?orderId=${order.id}&payment_intent=${intentId}`, { user: bob }),
        ),
      ),
    ).toBe(404);
    expect((await getOrder(order.id))!.status).toBe("Pending");
    expect(await getBalance(bob.id)).toBe(0);
  });
});

describe("Stripe webhook", () => {
  it("payment_intent.succeeded confirms and grants once, however often it is delivered", async () => {
    const user = await createTestUser();
    const order = await pendingOrder(user);
    const intentId = intentIdOf((await createIntent(user, order.id)).clientSecret);
    const payload = event("payment_intent.succeeded", fake.succeed(intentId));
    const responses = await Promise.all(
      Array.from({ length: 5 }, () => webhook.action({ request: webhookRequest(payload, sign(payload)) } as never)),
    );
    expect(responses.map((r) => (r as Response).status)).toEqual([200, 200, 200, 200, 200]);
    expect(await getOrder(order.id)).toMatchObject({ status: "Confirmed", paymentId: intentId });
    expect(await getBalance(user.id)).toBe(2 * pack.credits);
    expect(await getLedgerSum(user.id)).toBe(2 * pack.credits);
  });

  it("rejects a tampered, stale, unsigned or wrongly signed webhook and changes nothing", async () => {
    const user = await createTestUser();
    const order = await pendingOrder(user);
    const intentId = intentIdOf((await createIntent(user, order.id)).clientSecret);
    const succeeded = fake.succeed(intentId);
    const genuine = event("payment_intent.succeeded", succeeded);
    const tampered = genuine.replace(`"amount":${order.totalCents}`, `"amount":${order.totalCents + 1}`);
    expect(tampered).not.toBe(genuine);
    const attempts = [
      webhookRequest(tampered, sign(genuine)),
      webhookRequest(genuine, sign(genuine, Math.floor(Date.now() / 1000) - 10 * 60)),
      webhookRequest(genuine, null),
      webhookRequest(genuine, sign(genuine, undefined, "whsec_someone_else")),
    ];
    for (const request of attempts) {
      const response = (await webhook.action({ request } as never)) as Response;
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual({ error: "Invalid signature" });
    }
    expect(await getOrder(order.id)).toMatchObject({ status: "Pending", paymentId: null });
    expect(await getBalance(user.id)).toBe(0);
  });

  it("payment_intent.payment_failed records the reason and leaves the order Pending", async () => {
    const user = await createTestUser();
    const order = await pendingOrder(user);
    const intentId = intentIdOf((await createIntent(user, order.id)).clientSecret);
    const payload = event("payment_intent.payment_failed", fake.fail(intentId, "Your card was declined."));
    expect(statusOf(await webhook.action({ request: webhookRequest(payload, sign(payload)) } as never))).toBe(200);
    expect(await getOrder(order.id)).toMatchObject({ status: "Pending", paymentError: "Your card was declined." });
    expect(await getCartCount(user.id)).toBe(2);
  });

  it("checkout.session.completed confirms a Checkout payment", async () => {
    const user = await createTestUser();
    const order = await pendingOrder(user);
    const location = locationOf(
      await call(
        payment.action,
        makeRequest(`/payment?orderId=${order.id}`, { user, form: { intent: "stripe-checkout" } }),
      ),
    )!;
    const session = fake.completeSession(location.split("/").pop()!);
    const payload = event("checkout.session.completed", session);
    expect(statusOf(await webhook.action({ request: webhookRequest(payload, sign(payload)) } as never))).toBe(200);
    expect(await getOrder(order.id)).toMatchObject({ status: "Confirmed", paymentId: session.payment_intent });
    expect(await getBalance(user.id)).toBe(2 * pack.credits);
  });

  it("acknowledges events it does not handle", async () => {
    const payload = event("customer.created", { id: "cus_1", object: "customer" });
    expect(statusOf(await webhook.action({ request: webhookRequest(payload, sign(payload)) } as never))).toBe(200);
  });
});

/** A Confirmed order paid through the Payment Element, and its intent. */
async function paidOrder(user: TestUser, quantity = 2) {
  const order = await pendingOrder(user, quantity);
  const intentId = intentIdOf((await createIntent(user, order.id)).clientSecret);
  fake.succeed(intentId);
  expect(
    locationOf(
      await call(
        paymentReturn.loader,
        makeRequest(`/payment/return?orderId=${order.id}&payment_intent=${intentId}`, { user }),
      ),
    ),
  ).toBe(`/order/orderconfirmed/${order.id}`);
  return { order: (await getOrder(order.id))!, intentId };
}

/** The same signed event delivered five times at once, as Stripe's retries can. */
async function deliverFiveTimes(type: string, object: unknown) {
  const payload = event(type, object);
  const responses = await Promise.all(
    Array.from({ length: 5 }, () => webhook.action({ request: webhookRequest(payload, sign(payload)) } as never)),
  );
  expect(responses.map((r) => (r as Response).status)).toEqual([200, 200, 200, 200, 200]);
}

const ledgerOf = async (userId: number) =>
  await getDb().select().from(creditLedger).where(eq(creditLedger.userId, userId)).orderBy(creditLedger.id).all();

describe("Stripe refunds and disputes take the order's credits back", () => {
  it("charge.refunded delivered five times takes all credits back once and the order is Refunded", async () => {
    const user = await createTestUser();
    const { order, intentId } = await paidOrder(user);
    await deliverFiveTimes("charge.refunded", fake.refund(intentId));
    expect(await getBalance(user.id)).toBe(0);
    expect(await getLedgerSum(user.id)).toBe(0);
    expect(await getOrder(order.id)).toMatchObject({
      status: "Refunded",
      refundedCents: order.totalCents,
      creditsReversed: order.totalCredits,
      creditsShortfall: 0,
    });
    const reversals = (await ledgerOf(user.id)).filter((e) => e.kind === "reversal");
    expect(reversals).toEqual([
      expect.objectContaining({ amount: -order.totalCredits, shortfall: 0, note: `Order ${order.id} refunded` }),
    ]);
  });

  it("credits already spent are a shortfall on the order and the ledger, never a negative balance", async () => {
    const user = await createTestUser();
    const { order, intentId } = await paidOrder(user);
    const spent = order.totalCredits - 30;
    await book({ userId: user.id, kind: "debit", amount: -spent, key: `spent:${order.id}` });
    await deliverFiveTimes("charge.refunded", fake.refund(intentId));
    expect(await getBalance(user.id)).toBe(0);
    expect(await getLedgerSum(user.id)).toBe(0);
    expect(await getOrder(order.id)).toMatchObject({
      status: "Refunded",
      creditsReversed: 30,
      creditsShortfall: spent,
    });
    expect((await ledgerOf(user.id)).filter((e) => e.kind === "reversal")).toEqual([
      expect.objectContaining({ amount: -30, shortfall: spent }),
    ]);

    // Everything spent: the entry still records what could not be taken back.
    const broke = await createTestUser();
    const second = await paidOrder(broke);
    await book({
      userId: broke.id,
      kind: "debit",
      amount: -second.order.totalCredits,
      key: `spent:${second.order.id}`,
    });
    await deliverFiveTimes("charge.refunded", fake.refund(second.intentId));
    expect(await getBalance(broke.id)).toBe(0);
    expect(await getOrder(second.order.id)).toMatchObject({
      status: "Refunded",
      creditsReversed: 0,
      creditsShortfall: second.order.totalCredits,
    });
    expect((await ledgerOf(broke.id)).filter((e) => e.kind === "reversal")).toEqual([
      expect.objectContaining({ amount: 0, shortfall: second.order.totalCredits }),
    ]);
  });

  it("a partial refund takes back its share (rounded down), a later one the rest, whatever order they arrive in", async () => {
    const user = await createTestUser();
    const { order, intentId } = await paidOrder(user, 3);
    const third = Math.floor(order.totalCents / 3);
    const first = fake.refund(intentId, third);
    const second = fake.refund(intentId);
    // The full refund's event arrives first; the partial one, late, changes nothing.
    await deliverFiveTimes("charge.refunded", second);
    await deliverFiveTimes("charge.refunded", first);
    expect(await getOrder(order.id)).toMatchObject({ status: "Refunded", creditsReversed: order.totalCredits });
    expect(await getBalance(user.id)).toBe(0);

    const other = await createTestUser();
    const partly = await paidOrder(other, 3);
    await deliverFiveTimes("charge.refunded", fake.refund(partly.intentId, third));
    const share = Math.floor((partly.order.totalCredits * third) / partly.order.totalCents);
    expect(await getOrder(partly.order.id)).toMatchObject({
      status: "Confirmed",
      refundedCents: third,
      creditsReversed: share,
    });
    expect(await getBalance(other.id)).toBe(partly.order.totalCredits - share);
    await deliverFiveTimes("charge.refunded", fake.refund(partly.intentId));
    expect(await getOrder(partly.order.id)).toMatchObject({
      status: "Refunded",
      creditsReversed: partly.order.totalCredits,
    });
    expect(await getBalance(other.id)).toBe(0);
  });

  it("charge.dispute.created delivered five times takes the credits back once and the order is Disputed", async () => {
    const user = await createTestUser();
    const { order, intentId } = await paidOrder(user);
    await book({ userId: user.id, kind: "debit", amount: -10, key: `spent:${order.id}` });
    await deliverFiveTimes("charge.dispute.created", fake.dispute(intentId));
    expect(await getBalance(user.id)).toBe(0);
    expect(await getLedgerSum(user.id)).toBe(0);
    expect(await getOrder(order.id)).toMatchObject({
      status: "Disputed",
      creditsReversed: order.totalCredits - 10,
      creditsShortfall: 10,
    });
    expect((await ledgerOf(user.id)).filter((e) => e.kind === "reversal")).toHaveLength(1);
    // A refund after the dispute has nothing left to take.
    await deliverFiveTimes("charge.refunded", fake.refund(intentId));
    expect(await getOrder(order.id)).toMatchObject({
      status: "Disputed",
      creditsReversed: order.totalCredits - 10,
      creditsShortfall: 10,
    });
    expect((await ledgerOf(user.id)).filter((e) => e.kind === "reversal")).toHaveLength(1);
  });

  it("a refund of a payment that confirmed no order changes nothing", async () => {
    const user = await createTestUser();
    const order = await pendingOrder(user);
    const intentId = intentIdOf((await createIntent(user, order.id)).clientSecret);
    fake.succeed(intentId);
    await deliverFiveTimes("charge.refunded", fake.refund(intentId));
    expect(await getOrder(order.id)).toMatchObject({ status: "Pending", refundedCents: 0 });
  });
});

describe("an admin cancelling a Pending order cancels its payment", () => {
  const cancel = (admin: TestUser, orderId: number) =>
    call(
      orderDetails.action,
      makeRequest(`/order/orderDetails/${orderId}`, { user: admin, form: { status: "Cancelled" } }),
      { id: String(orderId) },
    );

  it("cancels the PaymentIntent and the Checkout Session, and the customer can no longer pay", async () => {
    const admin = await createTestUser("admin");
    const user = await createTestUser();
    const order = await pendingOrder(user);
    const intentId = intentIdOf((await createIntent(user, order.id)).clientSecret);
    const checkout = locationOf(
      await call(
        payment.action,
        makeRequest(`/payment?orderId=${order.id}`, { user, form: { intent: "stripe-checkout" } }),
      ),
    )!;
    const sessionId = checkout.split("/").pop()!;
    expect((await getOrder(order.id))!.checkoutSessionRef).toBe(sessionId);

    const result = await cancel(admin, order.id);
    expect(locationOf(result)).toBe(`/order/orderDetails/${order.id}`);
    expect((await getOrder(order.id))!.status).toBe("Cancelled");
    expect(fake.intents.get(intentId)!.status).toBe("canceled");
    expect(fake.sessions.get(sessionId)!.status).toBe("expired");
    expect(() => fake.succeed(intentId)).toThrow(/cannot be paid/);
    expect(() => fake.completeSession(sessionId)).toThrow(/cannot be paid/);
    // The payment page sends the customer to the order instead of taking money.
    for (const intent of ["stripe-intent", "stripe-checkout"]) {
      expect(
        locationOf(await call(payment.action, makeRequest(`/payment?orderId=${order.id}`, { user, form: { intent } }))),
      ).toBe(`/order/orderDetails/${order.id}`);
    }
    expect(await getBalance(user.id)).toBe(0);
  });

  it("refuses the cancel when the payment succeeded meanwhile, and confirms the order instead", async () => {
    const admin = await createTestUser("admin");
    const user = await createTestUser();
    const order = await pendingOrder(user);
    const intentId = intentIdOf((await createIntent(user, order.id)).clientSecret);
    fake.succeed(intentId);
    const result = await cancel(admin, order.id);
    expect(statusOf(result)).toBe(409);
    expect(JSON.stringify(dataOf(result))).toContain("This order was paid meanwhile, so it was not cancelled");
    expect(await getOrder(order.id)).toMatchObject({ status: "Confirmed", paymentId: intentId });
    expect(await getBalance(user.id)).toBe(2 * pack.credits);
    expect(fake.intents.get(intentId)!.status).toBe("succeeded");
  });

  it("refuses the cancel while the payment is processing", async () => {
    const admin = await createTestUser("admin");
    const user = await createTestUser();
    const order = await pendingOrder(user);
    const intentId = intentIdOf((await createIntent(user, order.id)).clientSecret);
    fake.intents.get(intentId)!.status = "processing";
    const result = await cancel(admin, order.id);
    expect(statusOf(result)).toBe(409);
    expect(JSON.stringify(dataOf(result))).toContain("still processing");
    expect((await getOrder(order.id))!.status).toBe("Pending");
  });

  it("a Pending order never sent to Stripe is simply cancelled", async () => {
    const admin = await createTestUser("admin");
    const user = await createTestUser();
    const order = await pendingOrder(user);
    const result = await cancel(admin, order.id);
    expect(
      await getToast(
        new Request("http://localhost", {
          headers: { Cookie: (result as Response).headers.get("Set-Cookie")!.split(";")[0] },
        }),
      ).then((t) => t.toast?.description),
    ).toBe("Order cancelled. It was never paid, so no credits were involved.");
    expect((await getOrder(order.id))!.status).toBe("Cancelled");
  });
});
