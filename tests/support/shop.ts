import { expect } from "vitest";
import { action as detailsAction } from "#app/routes/shop/menu-item-details.tsx";
import { action as cartAction } from "#app/routes/shop/shopping-cart.tsx";
import { action as paymentAction } from "#app/routes/shop/payment.tsx";
import { call as callRoute, locationOf, makeRequest, type TestUser } from "#tests/support/requests.ts";

/** Like `call`, but a thrown `data(null, { status })` (our 404s) also comes back as a value. */
export async function call(...args: Parameters<typeof callRoute>): Promise<unknown> {
  try {
    return await callRoute(...args);
  } catch (thrown) {
    if (thrown && typeof thrown === "object" && (thrown as { type?: string }).type === "DataWithResponseInit")
      return thrown;
    throw thrown;
  }
}

export function addToCart(user: TestUser, packageId: number, quantity: number, extra: Record<string, string> = {}) {
  return call(
    detailsAction,
    makeRequest(`/menuItemDetails/${packageId}`, { user, form: { quantity: String(quantity), ...extra } }),
    {
      menuItemId: String(packageId),
    },
  );
}

/** Place Order from the cart screen; returns the new order's id. */
export async function placeOrder(user: TestUser, extra: Record<string, string> = {}): Promise<number> {
  const result = await call(
    cartAction,
    makeRequest("/shoppingCart", {
      user,
      form: {
        intent: "place-order",
        name: "Ada Lovelace",
        email: "ada@example.com",
        phone: "+1 555 123 4567",
        ...extra,
      },
    }),
  );
  const location = locationOf(result);
  expect(location).toMatch(/^\/payment\?orderId=\d+$/);
  return Number(location!.split("=")[1]);
}

/** The offline test-card form on /payment. */
export function payWithCard(user: TestUser, orderId: number, cardNumber: string, expiry = "12/40") {
  return call(
    paymentAction,
    makeRequest(`/payment?orderId=${orderId}`, { user, form: { cardNumber, expiry, cvc: "123" } }),
  );
}
