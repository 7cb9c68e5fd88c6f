import { afterEach, describe, expect, it, vi } from "vitest";
import { getDb } from "#app/db/client.server.ts";
import { seedDatabase } from "#app/modules/seed/seed.server.ts";
import { packages } from "#app/db/schema/shop.ts";
import { getBalance } from "#app/modules/credits/ledger.server.ts";
import { testCardPaymentAction } from "#app/routes/shop/payment.server.ts";
import { chargeTestCard } from "#app/modules/payments/offline.server.ts";
import { getOrder } from "#app/modules/shop/orders.server.ts";
import { resetClock, setClock } from "#app/utils/clock.server.ts";
import { action as orderDetailsAction } from "#app/routes/shop/order-details.tsx";
import { createTestUser, dataOf, locationOf, makeRequest, statusOf, type TestUser } from "#tests/support/requests.ts";
import { addToCart, call, payWithCard, placeOrder } from "#tests/support/shop.ts";

type Reply = { error?: Record<string, string[] | null>; initialValue?: Record<string, unknown> };

await seedDatabase();
const [pack] = await getDb().select().from(packages).all();

afterEach(() => resetClock());

async function pendingOrder() {
  const user = await createTestUser();
  await addToCart(user, pack.id, 1);
  return { user, order: (await getOrder(await placeOrder(user)))! };
}

function card(cardNumber: string, expiry = "12/40", cvc = "123") {
  const form = new FormData();
  form.set("cardNumber", cardNumber);
  form.set("expiry", expiry);
  form.set("cvc", cvc);
  return form;
}

describe("testCardPaymentAction", () => {
  it("confirms the order and grants its credits, then sends the buyer to the confirmation", async () => {
    const { user, order } = await pendingOrder();
    const result = await testCardPaymentAction(order, card("4242 4242 4242 4242"));
    expect(locationOf(result)).toBe(`/order/orderconfirmed/${order.id}`);
    expect((await getOrder(order.id))!.status).toBe("Confirmed");
    expect(await getBalance(user.id)).toBe(pack.credits);
  });

  it("checks the expiry against the server's clock and never echoes the card number or CVC", async () => {
    const { order } = await pendingOrder();
    setClock(() => Date.UTC(2041, 0, 1));
    const result = await testCardPaymentAction(order, card("4242 4242 4242 4242", "12/40", "987"));
    expect(statusOf(result)).toBe(400);
    expect(dataOf<Reply>(result).error?.expiry).toEqual(["Your card's expiration date is in the past."]);
    const echoed = JSON.stringify(dataOf(result));
    expect(echoed).not.toContain("4242");
    expect(echoed).not.toContain("987");
    expect((await getOrder(order.id))!.status).toBe("Pending");
  });

  it("records a decline on the order and answers 402 with the processor's message", async () => {
    const { user, order } = await pendingOrder();
    const result = await testCardPaymentAction(order, card("4000 0000 0000 0002"));
    expect(statusOf(result)).toBe(402);
    expect(dataOf<Reply>(result).error?.[""]).toEqual(["Your card was declined."]);
    expect(await getOrder(order.id)).toMatchObject({ status: "Pending", paymentError: "Your card was declined." });
    expect(await getBalance(user.id)).toBe(0);
  });

  it("sends the buyer to the failed page when fulfil does not confirm the charge", async () => {
    const { user, order } = await pendingOrder();
    // Charged for another amount than the order's: fulfil refuses it as a mismatch.
    const result = await testCardPaymentAction(
      { ...order, totalCents: order.totalCents + 1 },
      card("4242424242424242"),
    );
    expect(locationOf(result)).toBe(`/failed?orderId=${order.id}`);
    expect((await getOrder(order.id))!.status).toBe("Pending");
    expect(await getBalance(user.id)).toBe(0);
  });

  it("answers an unexpected failure with the spec's message and a 500, the order still payable", async () => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    // No such order row: recording the charge breaks its foreign key.
    const result = await testCardPaymentAction(
      { id: 999_999, totalCents: 500, currency: "usd" },
      card("4242424242424242"),
    );
    expect(statusOf(result)).toBe(500);
    expect(dataOf<Reply>(result).error?.[""]).toEqual(["An unexpected error occurred."]);
    expect(logged).toHaveBeenCalledOnce();
    logged.mockRestore();
  });
});

describe("an admin cancelling a Pending order cancels its offline payment", () => {
  const cancel = (admin: TestUser, orderId: number) =>
    call(
      orderDetailsAction,
      makeRequest(`/order/orderDetails/${orderId}`, { user: admin, form: { status: "Cancelled" } }),
      { id: String(orderId) },
    );

  it("the customer can no longer pay it, not even from a form already on screen", async () => {
    const admin = await createTestUser("admin");
    const { user, order } = await pendingOrder();
    expect(locationOf(await cancel(admin, order.id))).toBe(`/order/orderDetails/${order.id}`);
    expect((await getOrder(order.id))!.status).toBe("Cancelled");
    // The payment page turns the customer away; the processor itself refuses the order too.
    expect(locationOf(await payWithCard(user, order.id, "4242 4242 4242 4242"))).toBe(
      `/order/orderDetails/${order.id}`,
    );
    const late = await testCardPaymentAction(order, card("4242 4242 4242 4242"));
    expect(statusOf(late)).toBe(402);
    expect(dataOf<Reply>(late).error?.[""]).toEqual(["This order was cancelled, so it can no longer be paid."]);
    expect((await getOrder(order.id))!.status).toBe("Cancelled");
    expect(await getBalance(user.id)).toBe(0);
  });

  it("a payment that succeeded first wins: the cancel is refused and the order confirmed", async () => {
    const admin = await createTestUser("admin");
    const { user, order } = await pendingOrder();
    await chargeTestCard(order, "4242424242424242");
    const refused = await cancel(admin, order.id);
    expect(statusOf(refused)).toBe(409);
    expect(dataOf<Reply>(refused).error?.[""]?.[0]).toMatch(/^This order was paid meanwhile, so it was not cancelled/);
    expect((await getOrder(order.id))!.status).toBe("Confirmed");
    expect(await getBalance(user.id)).toBe(pack.credits);
  });
});
