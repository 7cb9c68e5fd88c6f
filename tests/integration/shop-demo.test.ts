import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { afterEach, describe, expect, it } from "vitest";

import { getDb } from "#app/db/client.server.ts";
import { orderLines, packages } from "#app/db/schema/shop.ts";
import { seedDatabase } from "#app/modules/seed/seed.server.ts";
import { getOrder, purgeDemoOrders, searchOrders } from "#app/modules/shop/orders.server.ts";
import { DEMO_PURGE_QUEUE } from "#app/queue/jobs/demo-purge.server.ts";
import { getQueue } from "#app/queue/queues.server.ts";
import { loader as allOrdersLoader } from "#app/routes/shop/all-orders.tsx";
import { action as listAction, loader as listLoader } from "#app/routes/shop/menu-item-list.tsx";
import { action as upsertAction } from "#app/routes/shop/menu-item-upsert.tsx";
import { resetClock, setClock } from "#app/utils/clock.server.ts";
import { demoPurge } from "#worker/jobs/demo-purge.ts";
import { startWorkers } from "#worker/workers.ts";
import { createTestUser, dataOf, makeRequest, statusOf } from "#tests/support/requests.ts";
import { addToCart, call, placeOrder } from "#tests/support/shop.ts";
import { waitFor } from "#tests/support/wait.ts";

// Read at the first getEnv(), after the imports (nothing reads the environment at import).
process.env.DEMO_MODE = "1";

type Reply = { error?: Record<string, string[] | null> };
const DAY = 24 * 60 * 60 * 1000;

await seedDatabase();
const admin = await createTestUser("admin");
const [pack] = await getDb().select().from(packages).all();

afterEach(() => resetClock());

async function orderPlacedAt(time: number) {
  setClock(() => time);
  const user = await createTestUser();
  await addToCart(user, pack.id, 1);
  const id = await placeOrder(user);
  resetClock();
  return id;
}

describe("DEMO_MODE", () => {
  it("shows the red notice on the admin orders list", async () => {
    expect(
      dataOf<{ demoMode: boolean }>(await call(allOrdersLoader, makeRequest("/order/allOrders", { user: admin })))
        .demoMode,
    ).toBe(true);
  });

  it("purges orders older than 3 days, with their lines and search entries, and keeps the rest", async () => {
    const now = Date.now();
    const old = await orderPlacedAt(now - 3 * DAY - 60_000);
    const recent = await orderPlacedAt(now - 3 * DAY + 60_000);
    setClock(() => now);
    expect((await purgeDemoOrders()).orders).toBeGreaterThanOrEqual(1);
    expect(await getOrder(old)).toBeUndefined();
    expect((await getDb().select().from(orderLines).all()).some((l) => l.orderId === old)).toBe(false);
    expect(await getOrder(recent)).toBeDefined();
    expect((await searchOrders({ q: "Ada Lovelace", status: "", page: 1, size: 20 })).rows.map((r) => r.id)).toEqual([
      recent,
    ]);
  });

  it("runs as a scheduled BullMQ job", async () => {
    const old = await orderPlacedAt(Date.now() - 4 * DAY);
    const workers = await startWorkers([demoPurge]);
    try {
      const queue = getQueue(DEMO_PURGE_QUEUE);
      expect((await queue.getJobSchedulers()).map((s) => s.key)).toContain("demo-order-purge");
      const job = await queue.add("purge-now", { v: 1 });
      // Polling the job, not QueueEvents: a completion event can slip past a busy machine's stream reader.
      await waitFor(async () => (await queue.getJob(job.id!))?.finishedOn, { timeout: 20_000, what: "the purge job" });
      expect((await queue.getJob(job.id!))?.returnvalue).toEqual({ orders: 1 });
      expect(await getOrder(old)).toBeUndefined();
    } finally {
      await workers.close();
    }
  });

  it("refuses package create, update and delete with the demo banner, changing nothing", async () => {
    const image = new File([readFileSync(resolve("public/images/packages/credits-100.png"))], "a.png", {
      type: "image/png",
    });
    const form = { name: "Demo Pack", price: "1", credits: "1", category: "appetizer", image };
    const create = await call(upsertAction, makeRequest("/menuItem/menuItemUpsert", { user: admin, form }), {});
    expect(statusOf(create)).toBe(403);
    expect(dataOf<Reply>(create).error?.[""]).toEqual([
      "Creating, updating and deleting menu items is disabled in this demo.",
    ]);
    const update = await call(upsertAction, makeRequest(`/menuItem/menuItemUpsert/${pack.id}`, { user: admin, form }), {
      id: String(pack.id),
    });
    expect(statusOf(update)).toBe(403);
    await call(
      listAction,
      makeRequest("/menuItem/menuitemlist", { user: admin, form: { intent: "delete", id: String(pack.id) } }),
    );
    expect((await getDb().select().from(packages).all()).find((p) => p.id === pack.id)).toEqual(pack);
    expect((await getDb().select().from(packages).all()).some((p) => p.name === "Demo Pack")).toBe(false);
    expect(
      dataOf<{ demoMode: boolean }>(await call(listLoader, makeRequest("/menuItem/menuitemlist", { user: admin })))
        .demoMode,
    ).toBe(true);
  });
});
