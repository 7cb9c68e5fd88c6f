import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb, withTx } from "#app/db/client.server.ts";
import { orders } from "#app/db/schema/shop.ts";
import { book, getBalance, getLedgerSum } from "#app/modules/credits/ledger.server.ts";
import type { OrderStatus } from "#app/modules/shop/orders.ts";
import { getOrder, purgeDemoOrders, searchOrders } from "#app/modules/shop/orders.server.ts";
import { loader as allOrdersLoader } from "#app/routes/shop/all-orders.tsx";
import { action as orderDetailsAction, loader as orderDetailsLoader } from "#app/routes/shop/order-details.tsx";
import { clock, resetClock, setClock } from "#app/utils/clock.server.ts";
import { getToast } from "#app/web/toast.server.ts";
import { createTestUser, dataOf, locationOf, makeRequest, statusOf, type TestUser } from "#tests/support/requests.ts";
import { call } from "#tests/support/shop.ts";

type ListData = {
  orders: { id: number; status: string; contact: { name: string } }[];
  total: number;
  exact: boolean;
  query: { page: number; size: number };
};

const admin = await createTestUser("admin");
const customer = await createTestUser();

/** Orders straight into the table (newest last), for lists big enough to page. */
function insertOrders(
  count: number,
  make: (i: number) => {
    userId?: number;
    name?: string;
    email?: string;
    phone?: string;
    status?: OrderStatus;
    credits?: number;
  },
) {
  return withTx(async (tx) => {
    const ids: number[] = [];
    for (let i = 0; i < count; i++) {
      const o = make(i);
      ids.push(
        (
          await tx
            .insert(orders)
            .values({
              userId: o.userId ?? customer.id,
              pickupName: o.name ?? `Customer ${i}`,
              pickupEmail: o.email ?? `customer${i}@example.com`,
              pickupPhone: o.phone ?? `+1555000${String(i).padStart(4, "0")}`,
              totalCents: 500,
              totalItems: 1,
              totalCredits: o.credits ?? 100,
              status: o.status ?? "Confirmed",
              createdAt: clock.date(),
            })
            .returning({ id: orders.id })
            .get()
        ).id,
      );
    }
    return ids;
  });
}

const list = async (search: string, user: TestUser = admin) =>
  call(allOrdersLoader, makeRequest(`/order/allOrders${search}`, { user }));

describe("admin orders list", () => {
  const tag = `zq${randomUUID().slice(0, 6)}`;
  const statuses: OrderStatus[] = [
    "Confirmed",
    "Being Cooked",
    "Ready for Pickup",
    "Cancelled",
    "Pending",
    "Completed",
    "Confirmed",
  ];
  let ids: number[] = [];
  let newestFirst: number[] = [];
  beforeAll(async () => {
    ids = await insertOrders(12, (i) => ({ name: `${tag} Buyer ${i}`, status: statuses[i % statuses.length] }));
    newestFirst = [...ids].reverse();
  });

  it("is for admins only", async () => {
    expect(locationOf(await list("", customer))).toBe("/accessDenied");
    expect(locationOf(await list("", null as unknown as TestUser))).toMatch(/^\/login\?redirectTo=/);
  });

  it("searches name, email or phone, newest first, 5 rows by default", async () => {
    const page1 = dataOf<ListData>(await list(`?q=${tag}`));
    expect(page1.orders.map((o) => o.id)).toEqual(newestFirst.slice(0, 5));
    expect(page1).toMatchObject({ total: 12, exact: true, query: { page: 1, size: 5 } });
    const byEmail = dataOf<ListData>(await list(`?q=CUSTOMER${ids.length - 1}@`));
    expect(byEmail.orders.map((o) => o.contact.name)).toContain(`${tag} Buyer 11`);
    const byPhone = dataOf<ListData>(await list(`?q=5550000003`));
    expect(byPhone.orders.some((o) => o.contact.name === `${tag} Buyer 3`)).toBe(true);
  });

  it("pages with the size kept, and the last page ends the list", async () => {
    const page3 = dataOf<ListData>(await list(`?q=${tag}&page=3&size=5`));
    expect(page3.orders.map((o) => o.id)).toEqual(newestFirst.slice(10, 12));
    const size10 = dataOf<ListData>(await list(`?q=${tag}&page=2&size=10`));
    expect(size10.orders).toHaveLength(2);
    expect(size10.query).toEqual({ q: tag, status: "", page: 2, size: 10 });
    // Unknown sizes and pages fall back to the defaults.
    expect(dataOf<ListData>(await list(`?q=${tag}&size=7&page=-1`)).query).toMatchObject({ page: 1, size: 5 });
  });

  it("shows the last page for a page past the end (decision 031), size and search kept", async () => {
    for (const page of ["4", "99", "5000000"]) {
      const past = dataOf<ListData>(await list(`?q=${tag}&page=${page}&size=5`));
      expect(past.query, page).toEqual({ q: tag, status: "", page: 3, size: 5 });
      expect(past.orders.map((o) => o.id)).toEqual(newestFirst.slice(10, 12));
    }
    const none = dataOf<ListData>(await list(`?q=nothing-matches-${tag}&page=7`));
    expect(none).toMatchObject({ total: 0, orders: [], query: { page: 1 } });
  });

  it("filters by status", async () => {
    const cancelled = dataOf<ListData>(await list(`?q=${tag}&status=Cancelled&size=20`));
    expect(cancelled.orders.map((o) => o.status)).toEqual(["Cancelled", "Cancelled"]);
    expect(cancelled.total).toBe(2);
    const confirmed = dataOf<ListData>(await list(`?q=${encodeURIComponent(`${tag} Buyer`)}&status=Confirmed&size=20`));
    expect(confirmed.total).toBe(3);
    const bogus = dataOf<ListData>(await list(`?q=${tag}&status=Shipped`));
    expect(bogus.total).toBe(12);
  });

  it("a very common term is scanned newest-first and counted only as far as paging needs", async () => {
    const common = `cm${randomUUID().slice(0, 5)}`;
    const many = await insertOrders(2100, (i) => ({
      email: `${common}.${i}@example.com`,
      status: i % 2 ? "Confirmed" : "Cancelled",
    }));
    const page1 = await searchOrders({ q: common, status: "", page: 1, size: 5 });
    expect(page1.rows.map((r) => r.id)).toEqual([...many].reverse().slice(0, 5));
    expect(page1).toMatchObject({ exact: false, total: 6 });
    const filtered = await searchOrders({ q: common, status: "Cancelled", page: 2, size: 20 });
    expect(filtered.rows.every((r) => r.status === "Cancelled")).toBe(true);
    expect(filtered.rows[0].id).toBe([...many].reverse().filter((_, i) => i % 2 === 1)[20]);
    // Past the end of a term counted only partly: the count reaches the end, so the last page is exact.
    const past = await searchOrders({ q: common, status: "", page: 9999, size: 20 });
    expect(past).toMatchObject({ exact: true, total: 2100, page: 105 });
    expect(past.rows.map((r) => r.id)).toEqual([...many].reverse().slice(2080));
    // Terms of one or two characters cannot use the trigram index: same answers by scanning.
    expect((await searchOrders({ q: "%", status: "", page: 1, size: 5 })).rows).toEqual([]);
    expect((await searchOrders({ q: tag.slice(0, 2), status: "", page: 1, size: 5 })).rows.length).toBeGreaterThan(0);
  });

  it("forgets deleted orders in the search index", async () => {
    const gone = `gn${randomUUID().slice(0, 6)}`;
    const [id] = await insertOrders(1, () => ({ name: `${gone} Person` }));
    expect((await searchOrders({ q: gone, status: "", page: 1, size: 5 })).rows.map((r) => r.id)).toEqual([id]);
    await getDb().delete(orders).where(eq(orders.id, id)).run();
    expect((await searchOrders({ q: gone, status: "", page: 1, size: 5 })).rows).toEqual([]);
  });
});

describe("without DEMO_MODE", () => {
  it("old orders are kept: the purge does nothing", async () => {
    setClock(() => Date.now() - 30 * 24 * 60 * 60 * 1000);
    const [old] = await insertOrders(1, () => ({}));
    resetClock();
    expect(await purgeDemoOrders()).toEqual({ orders: 0 });
    expect(await getOrder(old)).toBeDefined();
  });
});

describe("admin changes an order's status", () => {
  const change = (id: number, status: string, user: TestUser = admin) =>
    call(orderDetailsAction, makeRequest(`/order/orderDetails/${id}`, { user, form: { status } }), { id: String(id) });
  const toast = async (result: unknown) => {
    const cookie = (result as Response).headers.get("Set-Cookie") ?? "";
    return (await getToast(new Request("http://localhost", { headers: { Cookie: cookie.split(";")[0] } }))).toast
      ?.description;
  };

  async function paidOrder(credits: number) {
    const user = await createTestUser();
    const [id] = await insertOrders(1, () => ({ credits, userId: user.id }));
    await book({ userId: user.id, kind: "grant", amount: credits, key: `test-grant:${id}` });
    return { user, id };
  }

  it("moves a paid order along and shows the spec's statuses as next steps", async () => {
    const { id } = await paidOrder(100);
    const result = await change(id, "Being Cooked");
    expect(locationOf(result)).toBe(`/order/orderDetails/${id}`);
    expect(await toast(result)).toBe("Order status updated to Being Cooked.");
    const page = dataOf<{ nextStatuses: string[] }>(
      await call(orderDetailsLoader, makeRequest(`/order/orderDetails/${id}`, { user: admin }), { id: String(id) }),
    );
    expect(page.nextStatuses).toEqual(["Confirmed", "Ready for Pickup", "Completed", "Cancelled"]);
    expect(statusOf(await change(id, "Pending"))).toBe(409);
  });

  it("cancelling takes back unspent credits, never below zero, and says how many", async () => {
    const full = await paidOrder(1000);
    const result = await change(full.id, "Cancelled");
    expect(await toast(result)).toBe("Order cancelled. 1,000 credits were taken back from the customer's balance.");
    expect(await getBalance(full.user.id)).toBe(0);
    expect(await getOrder(full.id)).toMatchObject({ status: "Cancelled", creditsReversed: 1000 });

    const partly = await paidOrder(1000);
    await book({ userId: partly.user.id, kind: "debit", amount: -400, key: `spent:${partly.id}` });
    expect(await toast(await change(partly.id, "Cancelled"))).toBe(
      "Order cancelled. 600 of 1,000 credits were taken back; the customer had already spent the other 400.",
    );
    expect(await getBalance(partly.user.id)).toBe(0);
    expect(await getLedgerSum(partly.user.id)).toBe(0);

    const spent = await paidOrder(500);
    await book({ userId: spent.user.id, kind: "debit", amount: -500, key: `spent:${spent.id}` });
    expect(await toast(await change(spent.id, "Cancelled"))).toBe(
      "Order cancelled. No credits were taken back: the customer has already spent the 500 credits of this order.",
    );
    // Cancelled is final.
    expect(statusOf(await change(spent.id, "Confirmed"))).toBe(409);
  });

  it("a pending order can only be cancelled, with no credits involved", async () => {
    const [id] = await insertOrders(1, () => ({ status: "Pending" }));
    expect(statusOf(await change(id, "Confirmed"))).toBe(409);
    expect(await toast(await change(id, "Cancelled"))).toBe(
      "Order cancelled. It was never paid, so no credits were involved.",
    );
  });

  it("customers cannot change a status, not even of their own order", async () => {
    const [id] = await insertOrders(1, () => ({}));
    expect(locationOf(await change(id, "Cancelled", customer))).toBe("/accessDenied");
    expect((await getOrder(id))!.status).toBe("Confirmed");
  });
});
