// A real SMSC configured (SMS_TRANSPORT=smpp), no Stripe, SEED_DEMO left at "auto" (an operator who
// sells credits by invoice): nothing runs in test mode, so no banner. No demo accounts, no card
// payment (the shop says so, admins see why), no known password signs in, and the first admin
// comes from a one-time setup link.
import { afterEach, describe, expect, it, vi } from "vitest";

import { getDb } from "#app/db/client.server.ts";
import { seedDatabase } from "#app/modules/seed/seed.server.ts";
import { packages } from "#app/db/schema/shop.ts";
import { DEMO_ACCOUNTS } from "#app/modules/auth/demo-accounts.server.ts";
import {
  adminExists,
  issueSetupToken,
  SETUP_LINK_TTL_MS,
  currentSetupToken,
  setupLinkState,
} from "#app/modules/auth/first-admin.server.ts";
import { createUser, findUserByEmail } from "#app/modules/auth/users.server.ts";
import { getBalance } from "#app/modules/credits/ledger.server.ts";
import { chargeTestCard, TestCardsRefusedError } from "#app/modules/payments/offline.server.ts";
import { createOrderFromCart, getOrder } from "#app/modules/shop/orders.server.ts";
import { loader as adminOverviewLoader } from "#app/routes/admin/overview.tsx";
import { action as loginAction } from "#app/routes/auth/login.tsx";
import { action as setupAction, loader as setupLoader } from "#app/routes/auth/setup.tsx";
import { loader as homeLoader } from "#app/routes/home.tsx";
import { loader as detailsLoader } from "#app/routes/shop/menu-item-details.tsx";
import { loader as paymentLoader } from "#app/routes/shop/payment.tsx";
import { action as cartAction, loader as cartLoader } from "#app/routes/shop/shopping-cart.tsx";
import { loader as rootLoader } from "#app/root.tsx";
import { resetClock, setClock } from "#app/utils/clock.server.ts";
import { getEnv } from "#app/utils/env.server.ts";
import { sqlCount, sqlRows, sqlRun } from "#tests/support/database.ts";
import { call, createTestUser, dataOf, locationOf, makeRequest, statusOf } from "#tests/support/requests.ts";
import { addToCart, payWithCard } from "#tests/support/shop.ts";

// Read at the first getEnv(), after the imports (nothing reads the environment at import).
delete process.env.SEED_DEMO;
process.env.SMS_TRANSPORT = "smpp";
process.env.SMPP_URL = "smpp://smsgw:secret@127.0.0.1:1";
process.env.LOG_LEVEL = "warn";

type Reply = { error?: Record<string, string[] | null> };

const seeded = await seedDatabase();
const [pack] = await getDb().select().from(packages).all();

afterEach(() => {
  resetClock();
  vi.restoreAllMocks();
});

describe("production defaults with a real SMSC and no Stripe", () => {
  const UNAVAILABLE = /Card payment is not available on this gateway/;
  type Shop = { cardPaymentAvailable: boolean };

  it("runs nothing in test mode: no banner, no demo account, and card payment unavailable", async () => {
    expect(getEnv().testMode).toEqual({ sms: false, payments: false, demo: false, active: false, full: false });
    expect(getEnv().cardPayments).toBe("unavailable");
    expect(seeded.demoSeeded).toBe(false);
    expect(await findUserByEmail(DEMO_ACCOUNTS.admin.email)).toBeUndefined();
    expect(await findUserByEmail(DEMO_ACCOUNTS.customer.email)).toBeUndefined();
    const user = await createTestUser();
    for (const who of [null, user]) {
      expect(
        dataOf<{ testMode: unknown }>(await call(rootLoader, makeRequest("/", { user: who }))).testMode,
      ).toBeNull();
    }
  });

  it("says so in the shop, places no order that nothing could pay, and tells admins why", async () => {
    const user = await createTestUser();
    expect(dataOf<Shop>(await call(homeLoader, makeRequest("/"))).cardPaymentAvailable).toBe(false);
    expect(
      dataOf<Shop>(
        await call(detailsLoader, makeRequest(`/menuItemDetails/${pack.id}`, { user }), {
          menuItemId: String(pack.id),
        }),
      ).cardPaymentAvailable,
    ).toBe(false);
    await addToCart(user, pack.id, 1);
    expect(dataOf<Shop>(await call(cartLoader, makeRequest("/shoppingCart", { user }))).cardPaymentAvailable).toBe(
      false,
    );
    const form = { intent: "place-order", name: "Ada Lovelace", email: "ada@example.com", phone: "+1 555 123 4567" };
    const refused = await call(cartAction, makeRequest("/shoppingCart", { user, form }));
    expect(statusOf(refused)).toBe(503);
    expect(dataOf<Reply>(refused).error?.[""]).toEqual([expect.stringMatching(UNAVAILABLE)]);
    expect(await sqlCount("select count(*) as n from orders where user_id = ?", user.id)).toBe(0);

    const admin = await createTestUser("admin");
    expect(
      dataOf<Shop>(await call(adminOverviewLoader, makeRequest("/admin", { user: admin }))).cardPaymentAvailable,
    ).toBe(false);
    // The setup link below is for a gateway without an admin.
    await sqlRun("update users set role = 'customer' where id = ?", admin.id);
  });

  it("refuses test cards for an order placed before: the payment page says card payment is not available, and nothing is charged or confirmed", async () => {
    const user = await createTestUser();
    await addToCart(user, pack.id, 1);
    const placed = await createOrderFromCart(user.id, { name: "Ada", email: "ada@example.com", phone: "+15551234567" });
    if (!placed.ok) throw new Error("empty cart");
    const { orderId } = placed;
    const page = dataOf<Shop>(await call(paymentLoader, makeRequest(`/payment?orderId=${orderId}`, { user })));
    expect(page.cardPaymentAvailable).toBe(false);
    const result = await payWithCard(user, orderId, "4242 4242 4242 4242");
    expect(statusOf(result)).toBe(503);
    expect(dataOf<Reply>(result).error?.[""]).toEqual([expect.stringMatching(UNAVAILABLE)]);
    expect(await getOrder(orderId)).toMatchObject({ status: "Pending", paymentId: null });
    expect(await getBalance(user.id)).toBe(0);
    await expect(chargeTestCard((await getOrder(orderId))!, "4242424242424242")).rejects.toThrow(TestCardsRefusedError);
    expect(await sqlCount("select count(*) as n from offline_charges where order_id = ?", orderId)).toBe(0);
  });

  it("refuses a sign-in with a published demo password, says so, and logs why without the password", async () => {
    const warned = vi.spyOn(console, "error").mockImplementation(() => {});
    for (const account of Object.values(DEMO_ACCOUNTS)) {
      // Customers both, so that the setup link below still finds no admin.
      await createUser({ ...account, role: "customer", email: `still-demo-${account.role}@example.com` });
      const result = await call(
        loginAction,
        makeRequest("/login", {
          ip: "10.1.2.3",
          form: { email: `still-demo-${account.role}@example.com`, password: account.password },
        }),
      );
      expect(statusOf(result)).toBe(400);
      expect(dataOf<Reply>(result).error?.[""]?.[0]).toMatch(/published demo password/);
      const line = warned.mock.calls
        .map((args) => args.join(" "))
        .find((l) => l.includes(`still-demo-${account.role}@example.com`));
      expect(line).toMatch(/\[auth\] sign-in refused .* demo password, refused while SMS_TRANSPORT=smpp is configured/);
      expect(line).not.toContain(account.password);
    }
    // Any other password signs in as usual.
    const user = await createTestUser();
    expect(
      locationOf(
        await call(
          loginAction,
          makeRequest("/login", { ip: "10.1.2.4", form: { email: user.email, password: user.password } }),
        ),
      ),
    ).toBe("/sms/sendSms");
  });
});

describe("the first admin's setup link", () => {
  const form = {
    email: "owner@example.com",
    fullName: "Gateway Owner",
    password: "a-long-secret-1",
    confirmPassword: "a-long-secret-1",
  };
  const post = (token: string, fields: Record<string, string> = form) =>
    call(setupAction, makeRequest(`/setup/${token}`, { form: fields }), { token });

  it("stores only the token's hash", async () => {
    const { token } = await issueSetupToken();
    const stored = JSON.stringify(await sqlRows("select * from setup_tokens"));
    expect(stored).not.toContain(token);
  });

  it("shows field errors, then creates the first admin, signs in, and works once", async () => {
    expect(await adminExists()).toBe(false);
    const { token } = await issueSetupToken();
    expect(statusOf(await call(setupLoader, makeRequest(`/setup/${token}`), { token }))).toBe(200);

    const bad = await post(token, { email: "not-an-email", fullName: "", password: "short", confirmPassword: "other" });
    expect(statusOf(bad)).toBe(400);
    const errors = dataOf<Reply>(bad).error!;
    expect(errors.email).toBeTruthy();
    expect(errors.fullName).toBeTruthy();
    expect(errors.password).toBeTruthy();
    const mismatch = await post(token, { ...form, confirmPassword: "a-long-secret-2" });
    expect(dataOf<Reply>(mismatch).error?.confirmPassword).toEqual(["The passwords do not match"]);
    expect(await adminExists()).toBe(false);

    const created = (await post(token)) as Response;
    expect(locationOf(created)).toBe("/order/allOrders");
    expect(created.headers.get("Set-Cookie")).toMatch(/session/i);
    expect((await findUserByEmail(form.email))?.role).toBe("admin");

    const again = await post(token, { ...form, email: "intruder@example.com" });
    expect(statusOf(again)).toBe(410);
    expect(dataOf<{ refusal: string }>(again).refusal).toMatch(/already been used/);
    expect(await findUserByEmail("intruder@example.com")).toBeUndefined();
    expect(
      dataOf<{ refusal: string }>(await call(setupLoader, makeRequest(`/setup/${token}`), { token })).refusal,
    ).toMatch(/already been used/);
  });

  it("is printed again by the next start while it has time left, and replaced when nearly expired", async () => {
    await sqlRun("update users set role = 'customer' where role = 'admin'");
    const first = await currentSetupToken();
    expect(await currentSetupToken()).toEqual(first);
    expect(await setupLinkState(first.token)).toBe("valid");
    // 10 minutes or less left: a link printed now could run out while the operator opens it.
    setClock(() => first.expiresAt.getTime() - 10 * 60 * 1000);
    const next = await currentSetupToken();
    expect(next.token).not.toBe(first.token);
    expect(await setupLinkState(first.token)).toBe("unknown");
    expect(await setupLinkState(next.token)).toBe("valid");
  });

  it("refuses an unknown, a replaced and an expired link with a clear message", async () => {
    await sqlRun("update users set role = 'customer' where role = 'admin'");
    const unknown = await call(setupLoader, makeRequest("/setup/nope"), { token: "nope" });
    expect(statusOf(unknown)).toBe(404);
    expect(dataOf<{ refusal: string }>(unknown).refusal).toMatch(/not valid/);

    const { token: old } = await issueSetupToken();
    const { token: fresh } = await issueSetupToken();
    expect(await setupLinkState(old)).toBe("unknown");
    expect(await setupLinkState(fresh)).toBe("valid");

    setClock(() => Date.now() + SETUP_LINK_TTL_MS + 1_000);
    const expired = await post(fresh, { ...form, email: "late@example.com" });
    expect(statusOf(expired)).toBe(410);
    expect(dataOf<{ refusal: string }>(expired).refusal).toMatch(/expired/);
    expect(await findUserByEmail("late@example.com")).toBeUndefined();
  });
});
