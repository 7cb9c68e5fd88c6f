// A staging setup: a real SMSC, no Stripe, and ALLOW_TEST_PAYMENTS=1: test cards go through.
import { describe, expect, it } from "vitest";

import { getDb } from "#app/db/client.server.ts";
import { seedDatabase } from "#app/modules/seed/seed.server.ts";
import { packages } from "#app/db/schema/shop.ts";
import { getBalance } from "#app/modules/credits/ledger.server.ts";
import { getOrder } from "#app/modules/shop/orders.server.ts";
import { loader as paymentLoader } from "#app/routes/shop/payment.tsx";
import { getEnv } from "#app/utils/env.server.ts";
import { call, createTestUser, dataOf, locationOf, makeRequest } from "#tests/support/requests.ts";
import { addToCart, payWithCard, placeOrder } from "#tests/support/shop.ts";

// Read at the first getEnv(), after the imports (nothing reads the environment at import).
process.env.SMS_TRANSPORT = "smpp";
process.env.SMPP_URL = "smpp://smsgw:secret@127.0.0.1:1";
process.env.ALLOW_TEST_PAYMENTS = "1";

await seedDatabase();
const [pack] = await getDb().select().from(packages).all();

describe("ALLOW_TEST_PAYMENTS=1 with SMS_TRANSPORT=smpp", () => {
  it("takes test cards: the form is there and 4242 confirms the order and grants its credits", async () => {
    expect(getEnv().testMode).toMatchObject({ sms: false, payments: true, active: true, full: false });
    const user = await createTestUser();
    await addToCart(user, pack.id, 1);
    const orderId = await placeOrder(user);
    expect(
      dataOf<{ cardPaymentAvailable: boolean }>(
        await call(paymentLoader, makeRequest(`/payment?orderId=${orderId}`, { user })),
      ).cardPaymentAvailable,
    ).toBe(true);
    expect(locationOf(await payWithCard(user, orderId, "4242 4242 4242 4242"))).toBe(
      `/order/orderconfirmed/${orderId}`,
    );
    expect((await getOrder(orderId))!.status).toBe("Confirmed");
    expect(await getBalance(user.id)).toBe(pack.credits);
  });
});
