import { and, count, desc, eq, inArray, lt, or, sql, type SQL } from "drizzle-orm";
import { getDb, usesPostgres, withTx } from "#app/db/client.server.ts";
import { orderLines, orders } from "#app/db/schema/shop.ts";
import { clock } from "#app/utils/clock.server.ts";
import { getEnv } from "#app/utils/env.server.ts";
import { pageWindow } from "#app/utils/misc.ts";
import { likeContains } from "#app/utils/sql.server.ts";
import { takeBack } from "#app/modules/credits/ledger.server.ts";
import { assertQuota } from "#app/modules/quotas/quotas.server.ts";
import { getCart } from "#app/modules/shop/cart.server.ts";
import { type AdminOrderQuery, MY_ORDERS_PAGE_SIZE, nextStatuses, type OrderStatus } from "#app/modules/shop/orders.ts";

export type Order = typeof orders.$inferSelect;
export type OrderLine = typeof orderLines.$inferSelect;
export type OrderWithLines = Order & { lines: OrderLine[] };

export const ORDER_CURRENCY = "usd";

/**
 * Turns the user's cart into a Pending order, priced from the packages table in the same
 * transaction: whatever the browser posted about prices or totals is never read. Throws
 * QuotaExceededError when the user already has QUOTA_PENDING_ORDERS Pending orders.
 */
export async function createOrderFromCart(
  userId: number,
  contact: { name: string; email: string; phone: string },
): Promise<{ ok: true; orderId: number } | { ok: false; reason: "empty" }> {
  return await withTx(async (tx) => {
    const cart = await getCart(userId, tx);
    if (cart.lines.length === 0) return { ok: false as const, reason: "empty" as const };
    await assertQuota(tx, userId, "pendingOrders");
    const order = await tx
      .insert(orders)
      .values({
        userId,
        pickupName: contact.name,
        pickupEmail: contact.email,
        pickupPhone: contact.phone,
        totalCents: cart.totalCents,
        totalItems: cart.totalItems,
        totalCredits: cart.totalCredits,
        currency: ORDER_CURRENCY,
        status: "Pending",
        createdAt: clock.date(),
      })
      .returning({ id: orders.id })
      .get();
    await tx
      .insert(orderLines)
      .values(
        cart.lines.map((line) => ({
          orderId: order.id,
          packageId: line.packageId,
          itemName: line.name,
          priceCents: line.priceCents,
          credits: line.credits,
          quantity: line.quantity,
        })),
      )
      .run();
    return { ok: true as const, orderId: order.id };
  });
}

async function withLines(order: Order | undefined): Promise<OrderWithLines | undefined> {
  if (!order) return undefined;
  const lines = await getDb()
    .select()
    .from(orderLines)
    .where(eq(orderLines.orderId, order.id))
    .orderBy(orderLines.id)
    .all();
  return { ...order, lines };
}

/** One of the user's own orders; another user's id finds nothing. */
export async function getOrderForUser(userId: number, orderId: number): Promise<OrderWithLines | undefined> {
  return await withLines(
    await getDb()
      .select()
      .from(orders)
      .where(and(eq(orders.id, orderId), eq(orders.userId, userId)))
      .get(),
  );
}

/** Any order: for admins and for payment confirmations (which carry their own proof). */
export async function getOrder(orderId: number): Promise<OrderWithLines | undefined> {
  return await withLines(await getDb().select().from(orders).where(eq(orders.id, orderId)).get());
}

/** Admins see every order; a customer only their own. */
export async function getOrderForViewer(
  viewer: { id: number; role: string },
  orderId: number,
): Promise<OrderWithLines | undefined> {
  return viewer.role === "admin" ? await getOrder(orderId) : await getOrderForUser(viewer.id, orderId);
}

/** An order's lines with only what the pages show (what the order recorded, not today's prices). */
export function orderLinesView(order: OrderWithLines) {
  return order.lines.map((l) => ({
    id: l.id,
    itemName: l.itemName,
    priceCents: l.priceCents,
    credits: l.credits,
    quantity: l.quantity,
  }));
}

/** The user's orders, newest first, one page; a page past the end shows the last one. */
export async function listUserOrders(userId: number, requestedPage = 1) {
  const [{ total }] = await getDb().select({ total: count() }).from(orders).where(eq(orders.userId, userId)).all();
  const { page, totalPages, offset } = pageWindow(total, requestedPage, MY_ORDERS_PAGE_SIZE);
  const rows = await getDb()
    .select()
    .from(orders)
    .where(eq(orders.userId, userId))
    .orderBy(desc(orders.id))
    .limit(MY_ORDERS_PAGE_SIZE)
    .offset(offset)
    .all();
  return { rows, total, page, totalPages };
}

export type OrderSearchResult = {
  rows: Order[];
  /** Exact, or (for a term matching very many orders) a lower bound just big enough to page. */
  total: number;
  exact: boolean;
  /** The page shown: the one asked for, or the last one when that is past the end. */
  page: number;
};

// Terms matching more orders than this are cheaper to find by scanning newest-first than through
// the trigram index (whose cost grows with the number of matches).
const INDEXED_MATCH_LIMIT = 2000;

const ftsPhrase = (term: string) => `"${term.replaceAll('"', '""')}"`;

/** The search term's condition, and whether the match count is exact (the index) or bounded (a scan). */
async function searchTermFilter(term: string): Promise<{ filter: SQL; exact: boolean }> {
  const scanned = or(
    likeContains(orders.pickupName, term),
    likeContains(orders.pickupEmail, term),
    likeContains(orders.pickupPhone, term),
  )!;
  // PostgreSQL's trigram index serves the same ilike the scan uses (decision 126), read first and
  // apart ("offset 0" keeps the planner from folding it in): else it may walk the newest orders
  // backwards testing the ilike on each, tens of thousands for a deep page of a rarer term.
  const indexedFilter = usesPostgres()
    ? sql`${orders.id} in (select ${orders.id} from ${orders} where ${scanned} offset 0)`
    : sql`${orders.id} in (select rowid from orders_search where orders_search match ${ftsPhrase(term)})`;
  const indexed = term.length >= 3 && (await indexedMatches(term, indexedFilter)) < INDEXED_MATCH_LIMIT;
  if (indexed) return { filter: indexedFilter, exact: true };
  return { filter: scanned, exact: false };
}

/** How many orders the index finds for the term, counted up to INDEXED_MATCH_LIMIT. */
async function indexedMatches(term: string, indexedFilter: SQL): Promise<number> {
  if (!usesPostgres())
    return (await getDb().get<{ n: number }>(
      sql`select count(*) as n from (select rowid from orders_search where orders_search match ${ftsPhrase(term)} limit ${INDEXED_MATCH_LIMIT})`,
    ))!.n;
  const found = getDb().select({ id: orders.id }).from(orders).where(indexedFilter).limit(INDEXED_MATCH_LIMIT).as("m");
  return (await getDb().select({ n: count() }).from(found).get())!.n;
}

/**
 * The admin list: search name, email or phone, filter by status, newest first, one page; a page
 * past the end shows the last one.
 */
export async function searchOrders(query: AdminOrderQuery): Promise<OrderSearchResult> {
  const filters: SQL[] = [];
  if (query.status) filters.push(eq(orders.status, query.status));
  const term = query.q ? await searchTermFilter(query.q) : null;
  if (term) filters.push(term.filter);
  const where = filters.length ? and(...filters) : undefined;
  let total: number;
  let exact = true;
  if (!term || term.exact) {
    [{ total }] = await getDb().select({ total: count() }).from(orders).where(where).all();
  } else {
    // Counting every match of a common term costs a full scan; count only as far as paging needs
    // (a page past the end is then counted to the end, exactly).
    const needed = (query.page - 1) * query.size + query.size + 1;
    const sub = getDb()
      .select({ id: orders.id })
      .from(orders)
      .where(where)
      .orderBy(desc(orders.id))
      .limit(needed)
      .as("m");
    [{ total }] = await getDb().select({ total: count() }).from(sub).all();
    exact = total < needed;
  }
  const { page, offset } = pageWindow(total, query.page, query.size);
  const rows = await getDb()
    .select()
    .from(orders)
    .where(where)
    .orderBy(desc(orders.id))
    .limit(query.size)
    .offset(offset)
    .all();
  return { rows, total, exact, page };
}

export async function recordPaymentFailure(orderId: number, message: string): Promise<void> {
  await withTx((tx) =>
    tx
      .update(orders)
      .set({ paymentError: message.slice(0, 500) })
      .where(and(eq(orders.id, orderId), eq(orders.status, "Pending")))
      .run(),
  );
}

export type StatusChange =
  | { ok: true; status: OrderStatus; reversed: number; credits: number; wasPaid: boolean }
  | { ok: false; reason: "not-found" | "not-allowed" };

/**
 * Admin status change. Cancelling a paid order takes back its credits through the ledger, but
 * only what the customer still holds: the balance never goes below zero, the rest is recorded as
 * the order's shortfall, and the result says how much was reversed. A Pending order's payment
 * must be cancelled with the provider first (payments' `cancelPendingOrder`).
 */
export async function changeOrderStatus(orderId: number, status: OrderStatus): Promise<StatusChange> {
  return await withTx(async (tx) => {
    const order = await tx.select().from(orders).where(eq(orders.id, orderId)).get();
    if (!order) return { ok: false as const, reason: "not-found" as const };
    if (!nextStatuses(order.status).includes(status)) return { ok: false as const, reason: "not-allowed" as const };
    const wasPaid = order.status !== "Pending";
    let reversed = 0;
    let shortfall = 0;
    if (status === "Cancelled" && wasPaid && order.totalCredits > 0) {
      ({ taken: reversed, shortfall } = await takeBack(tx, {
        userId: order.userId,
        kind: "adjustment",
        wanted: order.totalCredits,
        key: `order:${order.id}:cancel`,
        note: `Order ${order.id} cancelled`,
      }));
    }
    await tx
      .update(orders)
      .set(
        status === "Cancelled"
          ? { status, cancelledAt: clock.date(), creditsReversed: reversed, creditsShortfall: shortfall }
          : { status },
      )
      .where(eq(orders.id, orderId))
      .run();
    return { ok: true as const, status, reversed, credits: order.totalCredits, wasPaid };
  });
}

export const DEMO_ORDER_MAX_AGE_MS = 3 * 24 * 60 * 60 * 1000;

/** In DEMO_MODE only: deletes orders older than 3 days (lines and test charges go with them). */
export async function purgeDemoOrders(): Promise<{ orders: number }> {
  if (!getEnv().DEMO_MODE) return { orders: 0 };
  const cutoff = new Date(clock.now() - DEMO_ORDER_MAX_AGE_MS);
  let removed = 0;
  // In batches, so the write lock is never held for long.
  for (;;) {
    const batch = await getDb()
      .select({ id: orders.id })
      .from(orders)
      .where(lt(orders.createdAt, cutoff))
      .limit(500)
      .all();
    if (batch.length === 0) return { orders: removed };
    removed += await withTx(
      async (tx) =>
        (
          await tx
            .delete(orders)
            .where(
              inArray(
                orders.id,
                batch.map((b) => b.id),
              ),
            )
            .run()
        ).changes,
    );
  }
}
