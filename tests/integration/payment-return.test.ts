// /payment/return, where Stripe sends the buyer back: ids checked before use, the raw query never
// logged, a settled order answered from the database, and a per-user limit on visits. Stripe is the
// local stand-in, configured before the app first reads its environment.
import { afterAll, describe, expect, it, vi } from "vitest";
import { startFakeStripe } from "#tests/support/fake-stripe.ts";
import { getDb } from "#app/db/client.server.ts";
import { packages } from "#app/db/schema/shop.ts";
import { seedDatabase } from "#app/modules/seed/seed.server.ts";
import { getBalance } from "#app/modules/credits/ledger.server.ts";
import { getOrder } from "#app/modules/shop/orders.server.ts";
import * as payment from "#app/routes/shop/payment.tsx";
import * as paymentReturn from "#app/routes/shop/payment-return.tsx";
import { createTestUser, dataOf, locationOf, makeRequest, statusOf } from "#tests/support/requests.ts";
import { addToCart, call, placeOrder } from "#tests/support/shop.ts";

const fake = await startFakeStripe();
process.env.STRIPE_SECRET_KEY = "sk_test_fake";
process.env.STRIPE_PUBLISHABLE_KEY = "pk_test_fake";
process.env.STRIPE_WEBHOOK_SECRET = "whsec_test_secret";
process.env.STRIPE_API_BASE = fake.url;

type TestUser = Awaited<ReturnType<typeof createTestUser>>;

afterAll(() => fake.close());

await seedDatabase();
const [pack] = await getDb().select().from(packages).all();

async function orderWithIntent(user: TestUser) {
  await addToCart(user, pack.id, 1);
  const order = (await getOrder(await placeOrder(user)))!;
  const { clientSecret } = (await call(
    payment.action,
    makeRequest(`/payment?orderId=${order.id}`, { user, form: { intent: "stripe-intent" } }),
  )) as {
    clientSecret: string;
  };
  return { order, intentId: clientSecret.split("_secret_")[0] };
}

const visit = (user: TestUser, query: string) =>
  call(paymentReturn.loader, makeRequest(`/payment/return?${query}`, { user }));
const stripeCalls = () => fake.requests.length;

describe("/payment/return", () => {
  it("refuses a payment_intent or session_id that is not one of Stripe's ids: a message, Stripe not asked, nothing changed, nothing of it logged", async () => {
    const user = await createTestUser();
    const { order } = await orderWithIntent(user);
    const warned = vi.spyOn(console, "error").mockImplementation(() => {});
    const before = stripeCalls();
    const hostile = [
      "pi_x\n[payment] order 1 confirmed",
      "pi_abc%0d%0aforged",
      "pi_",
      `pi_${"a".repeat(300)}`,
      "../../v1/charges",
      "pi_abc/../../charges",
      "ch_123",
    ];
    for (const value of hostile) {
      const result = await visit(user, `orderId=${order.id}&payment_intent=${encodeURIComponent(value)}`);
      expect(statusOf(result), value).toBe(400);
      expect(dataOf<{ message: string }>(result).message).toMatch(/This payment link is not valid/);
    }
    for (const value of ["cs_test_abc\nforged", "cs_", "pi_123", "cs_test_abc/../x"]) {
      expect(statusOf(await visit(user, `orderId=${order.id}&session_id=${encodeURIComponent(value)}`)), value).toBe(
        400,
      );
    }
    expect(stripeCalls()).toBe(before);
    expect((await getOrder(order.id))!.status).toBe("Pending");
    expect(warned.mock.calls.flat().join(" ")).not.toContain("forged");
    warned.mockRestore();
  });

  it("a confirmed order answers from the database: Stripe is asked once, not at every visit", async () => {
    const user = await createTestUser();
    const { order, intentId } = await orderWithIntent(user);
    fake.succeed(intentId);
    expect(locationOf(await visit(user, `orderId=${order.id}&payment_intent=${intentId}`))).toBe(
      `/order/orderconfirmed/${order.id}`,
    );
    expect(await getBalance(user.id)).toBe(pack.credits);
    const before = stripeCalls();
    for (let i = 0; i < 3; i++) {
      expect(locationOf(await visit(user, `orderId=${order.id}&payment_intent=${intentId}`))).toBe(
        `/order/orderconfirmed/${order.id}`,
      );
    }
    expect(stripeCalls()).toBe(before);
    expect(await getBalance(user.id)).toBe(pack.credits);
  });

  it("limits each user's visits with 429 and Retry-After; another user is not affected", async () => {
    const user = await createTestUser();
    const { order, intentId } = await orderWithIntent(user);
    const query = `orderId=${order.id}&payment_intent=${intentId}`;
    for (let i = 0; i < 20; i++) expect(locationOf(await visit(user, query))).toBe(`/failed?orderId=${order.id}`);
    const before = stripeCalls();
    const limited = await visit(user, query);
    expect(statusOf(limited)).toBe(429);
    const init = (limited as { init?: { headers?: Record<string, string> } }).init;
    expect(Number(init?.headers?.["Retry-After"])).toBeGreaterThan(0);
    expect(dataOf<{ message: string }>(limited).message).toMatch(/Too many visits/);
    expect(stripeCalls()).toBe(before);

    const other = await createTestUser();
    const theirs = await orderWithIntent(other);
    expect(locationOf(await visit(other, `orderId=${theirs.order.id}&payment_intent=${theirs.intentId}`))).toBe(
      `/failed?orderId=${theirs.order.id}`,
    );
  });
});
