import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { resolve } from "node:path";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "#app/db/client.server.ts";
import { creditLedger } from "#app/db/schema/core.ts";
import { packages } from "#app/db/schema/shop.ts";
import { seedDatabase } from "#app/modules/seed/seed.server.ts";
import { getBalance, getLedgerSum } from "#app/modules/credits/ledger.server.ts";
import { fulfil, type FulfilResult } from "#app/modules/payments/fulfil.server.ts";
import { chargeTestCard } from "#app/modules/payments/offline.server.ts";
import { getCartCount } from "#app/modules/shop/cart.server.ts";
import { changeOrderStatus, getOrder } from "#app/modules/shop/orders.server.ts";
import { createTestUser, type TestUser } from "#tests/support/requests.ts";
import { addToCart, placeOrder } from "#tests/support/shop.ts";

await seedDatabase();
const [pack] = await getDb().select().from(packages).all();

async function pendingOrder(user: TestUser, quantity = 1) {
  await addToCart(user, pack.id, quantity);
  return (await getOrder(await placeOrder(user)))!;
}

const ledgerRows = async (paymentId: string) =>
  await getDb()
    .select()
    .from(creditLedger)
    .where(eq(creditLedger.key, `payment:${paymentId}`))
    .all();

/** Starts a child process that will call fulfil once told to go. */
async function childFulfil(orderId: number, paymentId: string) {
  const child: ChildProcessWithoutNullStreams = spawn(
    process.execPath,
    [resolve("tests/support/fulfil-child.ts"), String(orderId), paymentId],
    {
      env: process.env,
    },
  );
  let stderr = "";
  child.stderr.on("data", (chunk) => (stderr += chunk));
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const first = await lines.next();
  if (first.value !== "ready") throw new Error(`child did not start: ${stderr}`);
  return {
    go: async (): Promise<FulfilResult> => {
      child.stdin.write("go\n");
      const answer = await lines.next();
      if (answer.done) throw new Error(`child failed: ${stderr}`);
      return JSON.parse(answer.value) as FulfilResult;
    },
  };
}

describe("fulfil", () => {
  it("five concurrent calls for one payment confirm once and grant once", async () => {
    const user = await createTestUser();
    const order = await pendingOrder(user, 3);
    const charge = await chargeTestCard(order, "4242424242424242");
    const results = await Promise.all(Array.from({ length: 5 }, () => fulfil(order.id, charge.id)));
    expect(results.every((r) => r.status === "confirmed")).toBe(true);
    expect(results.filter((r) => r.status === "confirmed" && r.granted)).toHaveLength(1);
    expect(await getBalance(user.id)).toBe(3 * pack.credits);
    expect(await getLedgerSum(user.id)).toBe(3 * pack.credits);
    expect(await ledgerRows(charge.id)).toHaveLength(1);
    expect(await getOrder(order.id)).toMatchObject({ status: "Confirmed", paymentId: charge.id });
    expect(await getCartCount(user.id)).toBe(0);
  });

  it("three processes and two in-process calls racing on the same database grant once", async () => {
    const user = await createTestUser();
    const order = await pendingOrder(user, 2);
    const charge = await chargeTestCard(order, "4242424242424242");
    const children = await Promise.all([1, 2, 3].map(() => childFulfil(order.id, charge.id)));
    const results = await Promise.all([
      ...children.map((c) => c.go()),
      fulfil(order.id, charge.id),
      fulfil(order.id, charge.id),
    ]);
    expect(results.map((r) => r.status)).toEqual(Array(5).fill("confirmed"));
    expect(results.filter((r) => r.status === "confirmed" && r.granted)).toHaveLength(1);
    expect(await getBalance(user.id)).toBe(2 * pack.credits);
    expect(await getLedgerSum(user.id)).toBe(2 * pack.credits);
    expect(await ledgerRows(charge.id)).toHaveLength(1);
  });

  it("believes only the provider: unknown, declined and other orders' payments confirm nothing", async () => {
    const user = await createTestUser();
    const order = await pendingOrder(user);
    const other = await pendingOrder(await createTestUser());
    const declined = await chargeTestCard(order, "4000000000000002");
    const othersCharge = await chargeTestCard(other, "4242424242424242");
    expect(await fulfil(order.id, "offch_made_up")).toMatchObject({ status: "not-paid" });
    expect(await fulfil(order.id, declined.id)).toMatchObject({ status: "not-paid" });
    expect(await fulfil(order.id, othersCharge.id)).toMatchObject({ status: "mismatch" });
    expect(await fulfil(999_999, othersCharge.id)).toEqual({ status: "not-found" });
    expect((await getOrder(order.id))!.status).toBe("Pending");
    expect(await getBalance(user.id)).toBe(0);
  });

  it("a second payment for an already confirmed order, or a payment for a cancelled one, grants nothing", async () => {
    const user = await createTestUser();
    const order = await pendingOrder(user);
    const first = await chargeTestCard(order, "4242424242424242");
    await fulfil(order.id, first.id);
    expect(await fulfil(order.id, "offch_another")).toMatchObject({ status: "conflict" });

    const cancelled = await pendingOrder(user);
    const late = await chargeTestCard(cancelled, "4242424242424242");
    await changeOrderStatus(cancelled.id, "Cancelled");
    expect(await fulfil(cancelled.id, late.id)).toMatchObject({ status: "conflict" });
    expect(await getBalance(user.id)).toBe(pack.credits);
  });
});
