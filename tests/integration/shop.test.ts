import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "#app/db/client.server.ts";
import { seedDatabase } from "#app/modules/seed/seed.server.ts";
import { orders, packages } from "#app/db/schema/shop.ts";
import { getBalance, getLedgerSum } from "#app/modules/credits/ledger.server.ts";
import { getCart, getCartCount } from "#app/modules/shop/cart.server.ts";
import { getOrder } from "#app/modules/shop/orders.server.ts";
import { loader as homeLoader } from "#app/routes/home.tsx";
import { action as detailsAction, loader as detailsLoader } from "#app/routes/shop/menu-item-details.tsx";
import { action as cartAction, loader as cartLoader } from "#app/routes/shop/shopping-cart.tsx";
import { action as paymentAction, loader as paymentLoader } from "#app/routes/shop/payment.tsx";
import { loader as confirmedLoader } from "#app/routes/shop/order-confirmed.tsx";
import { loader as failedLoader } from "#app/routes/shop/failed.tsx";
import { loader as detailsOrderLoader } from "#app/routes/shop/order-details.tsx";
import { loader as myOrdersLoader } from "#app/routes/shop/my-orders.tsx";
import { loader as paymentReturnLoader } from "#app/routes/shop/payment-return.tsx";
import { createTestUser, dataOf, locationOf, makeRequest, statusOf, type TestUser } from "#tests/support/requests.ts";
import { addToCart, call, payWithCard, placeOrder } from "#tests/support/shop.ts";

type Reply = { error?: Record<string, string[] | null> };

await seedDatabase();
const ladder = await getDb().select().from(packages).all();
const byName = (name: string) => ladder.find((p) => p.name === name)!;

const pay = payWithCard;

describe("home", () => {
  it("lists the ladder by name A - Z in natural order, searches and filters through the URL", async () => {
    const all = dataOf<{ packages: { name: string }[] }>(await call(homeLoader, makeRequest("/")));
    expect(all.packages.map((p) => p.name)).toEqual(["100", "500", "1,000", "5,000", "10,000"]);
    const search = dataOf<{ packages: { name: string }[] }>(await call(homeLoader, makeRequest("/?q=1000")));
    expect(search.packages.map((p) => p.name)).toEqual(["1,000", "10,000"]);
    const sorted = dataOf<{ packages: { name: string }[] }>(
      await call(homeLoader, makeRequest("/?sort=price-desc&category=entree")),
    );
    expect(sorted.packages.map((p) => p.name)).toEqual(["5,000", "1,000"]);
    const literal = dataOf<{ packages: unknown[] }>(await call(homeLoader, makeRequest("/?q=%25")));
    expect(literal.packages).toEqual([]);
  });
});

describe("package details and cart", () => {
  it("adds to the cart with a toast, ignoring any posted price", async () => {
    const user = await createTestUser();
    const p = byName("500");
    const result = await addToCart(user, p.id, 2, { price: "0.01", priceCents: "1" });
    expect(locationOf(result)).toBe("/");
    expect((result as Response).headers.get("Set-Cookie")).toContain("en_toast=");
    expect(await getCart(user.id)).toMatchObject({ totalItems: 2, totalCents: 2 * p.priceCents, totalCredits: 1000 });
    await addToCart(user, p.id, 3);
    expect(await getCartCount(user.id)).toBe(5);
  });

  it("refuses a quantity below 1 and answers 404 for an unknown package", async () => {
    const user = await createTestUser();
    const zero = await addToCart(user, byName("100").id, 0);
    expect(statusOf(zero)).toBe(400);
    expect(dataOf<Reply>(zero).error?.quantity).toEqual(["Quantity must be at least 1"]);
    expect(statusOf(await addToCart(user, 999_999, 1))).toBe(404);
    expect(
      statusOf(await call(detailsLoader, makeRequest("/menuItemDetails/999999", { user }), { menuItemId: "999999" })),
    ).toBe(404);
  });

  it("sends a visitor to login and back", async () => {
    const result = await call(detailsAction, makeRequest("/menuItemDetails/1", { form: { quantity: "1" } }), {
      menuItemId: "1",
    });
    expect(locationOf(result)).toBe("/login?redirectTo=%2FmenuItemDetails%2F1");
  });

  it("steps lines by one, removes at zero or on Remove, and never touches another user's cart", async () => {
    const user = await createTestUser();
    const other = await createTestUser();
    const p = byName("100");
    await addToCart(user, p.id, 1);
    await addToCart(other, p.id, 4);
    const step = (intent: string, who = user) =>
      call(cartAction, makeRequest("/shoppingCart", { user: who, form: { intent, packageId: String(p.id) } }));
    expect(locationOf(await step("increment"))).toBe("/shoppingCart");
    expect(await getCartCount(user.id)).toBe(2);
    await step("decrement");
    await step("decrement");
    expect((await getCart(user.id)).lines).toEqual([]);
    await addToCart(user, p.id, 3);
    await step("remove");
    expect((await getCart(user.id)).lines).toEqual([]);
    expect(await getCartCount(other.id)).toBe(4);
  });
});

describe("placing and paying an order with the offline test-card processor", () => {
  it("prices the order on the server whatever totals are posted", async () => {
    const user = await createTestUser();
    await addToCart(user, byName("1,000").id, 2);
    await addToCart(user, byName("100").id, 1);
    const orderId = await placeOrder(user, {
      orderTotal: "1",
      totalItems: "99",
      price: "0",
      "orderDetails[0].price": "0",
    });
    const order = (await getOrder(orderId))!;
    expect(order).toMatchObject({
      status: "Pending",
      totalCents: 2 * 4000 + 500,
      totalItems: 3,
      totalCredits: 2100,
      userId: user.id,
    });
    expect(order.lines.map((l) => [l.itemName, l.priceCents, l.quantity])).toEqual([
      ["1,000", 4000, 2],
      ["100", 500, 1],
    ]);
    // The cart stays until the order is paid.
    expect(await getCartCount(user.id)).toBe(3);
  });

  it("refuses an empty cart and bad contact details", async () => {
    const user = await createTestUser();
    const empty = await call(
      cartAction,
      makeRequest("/shoppingCart", {
        user,
        form: { intent: "place-order", name: "A", email: "a@example.com", phone: "5551234567" },
      }),
    );
    expect(dataOf<Reply>(empty).error?.[""]).toEqual([
      "There are no items in your cart. Please add items to continue.",
    ]);
    const bad = await call(
      cartAction,
      makeRequest("/shoppingCart", { user, form: { intent: "place-order", name: "", email: "nope", phone: "" } }),
    );
    expect(statusOf(bad)).toBe(400);
    expect(dataOf<Reply>(bad).error).toMatchObject({
      name: ["Name is required"],
      email: ["Enter a valid email address"],
      phone: ["Phone Number is required"],
    });
  });

  it("4242... confirms the order, grants its credits once and empties what was bought from the cart", async () => {
    const user = await createTestUser();
    await addToCart(user, byName("1,000").id, 2);
    const orderId = await placeOrder(user);
    // Added after Place Order: not part of the order, so it stays in the cart.
    await addToCart(user, byName("100").id, 1);
    const result = await pay(user, orderId, "4242 4242 4242 4242");
    expect(locationOf(result)).toBe(`/order/orderconfirmed/${orderId}`);
    expect(await getOrder(orderId)).toMatchObject({
      status: "Confirmed",
      paymentProvider: "offline",
      paymentError: null,
    });
    expect(await getBalance(user.id)).toBe(2000);
    expect(await getLedgerSum(user.id)).toBe(2000);
    expect((await getCart(user.id)).lines.map((l) => [l.name, l.quantity])).toEqual([["100", 1]]);

    const confirmed = dataOf<{ order: { id: number; totalCredits: number } }>(
      await call(confirmedLoader, makeRequest(`/order/orderconfirmed/${orderId}`, { user }), { id: String(orderId) }),
    );
    expect(confirmed.order).toEqual({ id: orderId, totalCredits: 2000 });
    // Paying again (a double submit or the back button) charges and grants nothing more.
    expect(locationOf(await pay(user, orderId, "4242424242424242"))).toBe(`/order/orderconfirmed/${orderId}`);
    expect(await getBalance(user.id)).toBe(2000);
    const mine = dataOf<{ orders: { id: number; status: string }[] }>(
      await call(myOrdersLoader, makeRequest("/order/myOrders", { user })),
    );
    expect(mine.orders).toEqual([expect.objectContaining({ id: orderId, status: "Confirmed" })]);
  });

  it("a declined card leaves the order Pending, the cart intact and no credits, and says why", async () => {
    const user = await createTestUser();
    await addToCart(user, byName("500").id, 1);
    const orderId = await placeOrder(user);
    for (const [card, message] of [
      ["4000 0000 0000 0002", "Your card was declined."],
      ["4000 0000 0000 9995", "Your card has insufficient funds."],
    ]) {
      const result = await pay(user, orderId, card);
      expect(statusOf(result)).toBe(402);
      expect(dataOf<Reply>(result).error?.[""]).toEqual([message]);
      expect(await getOrder(orderId)).toMatchObject({ status: "Pending", paymentError: message });
    }
    expect(await getBalance(user.id)).toBe(0);
    expect(await getCartCount(user.id)).toBe(1);
    expect(
      locationOf(
        await call(confirmedLoader, makeRequest(`/order/orderconfirmed/${orderId}`, { user }), { id: String(orderId) }),
      ),
    ).toBe(`/failed?orderId=${orderId}`);
    const failed = dataOf<{ order: { paymentError: string } }>(
      await call(failedLoader, makeRequest(`/failed?orderId=${orderId}`, { user })),
    );
    expect(failed.order.paymentError).toBe("Your card has insufficient funds.");
    // The same order can still be paid.
    expect(locationOf(await pay(user, orderId, "4242424242424242"))).toBe(`/order/orderconfirmed/${orderId}`);
    expect(await getBalance(user.id)).toBe(500);
  });

  it("checks the card: Luhn, expiry and CVC errors sit on their fields; nothing is charged", async () => {
    const user = await createTestUser();
    await addToCart(user, byName("100").id, 1);
    const orderId = await placeOrder(user);
    const luhn = await pay(user, orderId, "4242 4242 4242 4241");
    expect(dataOf<Reply>(luhn).error?.cardNumber).toEqual(["Your card number is invalid."]);
    const past = await pay(user, orderId, "4242 4242 4242 4242", "01/20");
    expect(dataOf<Reply>(past).error?.expiry).toEqual(["Your card's expiration date is in the past."]);
    const cvc = await call(
      paymentAction,
      makeRequest(`/payment?orderId=${orderId}`, {
        user,
        form: { cardNumber: "4242424242424242", expiry: "12/40", cvc: "1" },
      }),
    );
    expect(dataOf<Reply>(cvc).error?.cvc).toEqual(["Your card's security code is incomplete."]);
    // The card number is never echoed back to the page.
    expect(JSON.stringify(dataOf(luhn))).not.toContain("4241");
    expect((await getOrder(orderId))!.status).toBe("Pending");
  });
});

describe("my orders", () => {
  type MyOrders = { orders: { id: number }[]; page: number; totalPages: number };
  const myOrders = async (user: TestUser, search = "") =>
    dataOf<MyOrders>(await call(myOrdersLoader, makeRequest(`/order/myOrders${search}`, { user })));

  it("pages 10 at a time, newest first; a page past the end shows the last page, junk the first", async () => {
    const user = await createTestUser();
    await addToCart(user, byName("100").id, 1);
    const ids: number[] = [];
    for (let i = 0; i < 12; i++) {
      const id = await placeOrder(user);
      ids.push(id);
      // Past orders, not unpaid ones: 12 Pending orders would pass QUOTA_PENDING_ORDERS.
      if (i < 10) await getDb().update(orders).set({ status: "Cancelled" }).where(eq(orders.id, id)).run();
    }
    const newestFirst = ids.toReversed();

    const first = await myOrders(user);
    expect(first).toMatchObject({ page: 1, totalPages: 2 });
    expect(first.orders.map((o) => o.id)).toEqual(newestFirst.slice(0, 10));
    const last = await myOrders(user, "?page=2");
    expect(last).toMatchObject({ page: 2, totalPages: 2 });
    expect(last.orders.map((o) => o.id)).toEqual(newestFirst.slice(10));
    expect(await myOrders(user, "?page=9")).toEqual(last);
    for (const junk of ["99999999999999999999", "0", "-1", "abc", "1.5", ""]) {
      expect(await myOrders(user, `?page=${junk}`), junk).toEqual(first);
    }
  });

  it("with no orders is one empty page, whatever page is asked for", async () => {
    const user = await createTestUser();
    for (const search of ["", "?page=3", "?page=99999999999999999999"]) {
      expect(await myOrders(user, search)).toMatchObject({ orders: [], page: 1, totalPages: 1 });
    }
  });
});

describe("another customer's order is a 404 everywhere", () => {
  it("details, confirmation, failed page, payment page, paying it and the payment return", async () => {
    const alice = await createTestUser();
    const bob = await createTestUser();
    await addToCart(alice, byName("100").id, 1);
    const orderId = await placeOrder(alice);
    const id = String(orderId);
    expect(
      statusOf(await call(detailsOrderLoader, makeRequest(`/order/orderDetails/${id}`, { user: bob }), { id })),
    ).toBe(404);
    expect(
      statusOf(await call(confirmedLoader, makeRequest(`/order/orderconfirmed/${id}`, { user: bob }), { id })),
    ).toBe(404);
    expect(statusOf(await call(failedLoader, makeRequest(`/failed?orderId=${id}`, { user: bob })))).toBe(404);
    expect(statusOf(await call(paymentLoader, makeRequest(`/payment?orderId=${id}`, { user: bob })))).toBe(404);
    expect(statusOf(await pay(bob, orderId, "4242424242424242"))).toBe(404);
    expect(
      statusOf(
        await call(
          paymentReturnLoader,
          makeRequest(`/payment/return?orderId=${id}&payment_intent=pi_x`, { user: bob }),
        ),
      ),
    ).toBe(404);
    expect((await getOrder(orderId))!.status).toBe("Pending");
    expect(await getBalance(bob.id)).toBe(0);
    // The owner and an admin can see it.
    expect(
      statusOf(await call(detailsOrderLoader, makeRequest(`/order/orderDetails/${id}`, { user: alice }), { id })),
    ).toBe(200);
    const admin = await createTestUser("admin");
    expect(
      statusOf(await call(detailsOrderLoader, makeRequest(`/order/orderDetails/${id}`, { user: admin }), { id })),
    ).toBe(200);
    const mine = dataOf<{ orders: unknown[] }>(
      await call(myOrdersLoader, makeRequest("/order/myOrders", { user: bob })),
    );
    expect(mine.orders).toEqual([]);
  });

  it("the cart page shows only the signed-in user's cart", async () => {
    const alice = await createTestUser();
    const bob = await createTestUser();
    await addToCart(alice, byName("100").id, 2);
    const bobsCart = dataOf<{ cart: { lines: unknown[] } }>(
      await call(cartLoader, makeRequest("/shoppingCart", { user: bob })),
    );
    expect(bobsCart.cart.lines).toEqual([]);
    expect(await getDb().select().from(orders).where(eq(orders.userId, bob.id)).all()).toEqual([]);
  });
});
