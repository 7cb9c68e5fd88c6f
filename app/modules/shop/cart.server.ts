import { and, asc, eq, sql } from "drizzle-orm";
import { type Executor, getDb, withTx, type Tx } from "#app/db/client.server.ts";
import { cartItems, packages } from "#app/db/schema/shop.ts";
import { smallestOf } from "#app/db/dialect.server.ts";
import { MAX_LINE_QUANTITY } from "#app/modules/shop/packages.ts";

/** Number of packages in the user's cart, for the nav's cart link. */
export async function getCartCount(userId: number): Promise<number> {
  const row = await getDb()
    .select({ count: sql<number>`coalesce(sum(${cartItems.quantity}), 0)` })
    .from(cartItems)
    .where(eq(cartItems.userId, userId))
    .get();
  return row?.count ?? 0;
}

export type CartLine = {
  packageId: number;
  name: string;
  image: string;
  priceCents: number;
  credits: number;
  quantity: number;
  lineCents: number;
};
export type Cart = { lines: CartLine[]; totalCents: number; totalItems: number; totalCredits: number };

/** The cart priced from the packages table as it is now: the only prices an order ever uses. */
export async function getCart(userId: number, tx: Executor = getDb()): Promise<Cart> {
  const lines = (
    await tx
      .select({
        packageId: packages.id,
        name: packages.name,
        image: packages.image,
        priceCents: packages.priceCents,
        credits: packages.credits,
        quantity: cartItems.quantity,
      })
      .from(cartItems)
      .innerJoin(packages, eq(packages.id, cartItems.packageId))
      .where(eq(cartItems.userId, userId))
      .orderBy(asc(cartItems.id))
      .all()
  ).map((line) => ({ ...line, lineCents: line.priceCents * line.quantity }));
  return {
    lines,
    totalCents: lines.reduce((sum, l) => sum + l.lineCents, 0),
    totalItems: lines.reduce((sum, l) => sum + l.quantity, 0),
    totalCredits: lines.reduce((sum, l) => sum + l.credits * l.quantity, 0),
  };
}

/** Adds to the line (or starts it); false when the package does not exist. */
export async function addToCart(userId: number, packageId: number, quantity: number): Promise<boolean> {
  return await withTx(async (tx) => {
    if (!(await tx.select({ id: packages.id }).from(packages).where(eq(packages.id, packageId)).get())) return false;
    await tx
      .insert(cartItems)
      .values({ userId, packageId, quantity: Math.min(quantity, MAX_LINE_QUANTITY) })
      .onConflictDoUpdate({
        target: [cartItems.userId, cartItems.packageId],
        set: { quantity: smallestOf(sql`${cartItems.quantity} + excluded.quantity`, MAX_LINE_QUANTITY) },
      })
      .run();
    return true;
  });
}

/** +1 or -1 on one of the user's lines; -1 from 1 removes the line. False when there is no such line. */
export async function stepCartLine(userId: number, packageId: number, delta: 1 | -1): Promise<boolean> {
  return await withTx(async (tx) => {
    const mine = and(eq(cartItems.userId, userId), eq(cartItems.packageId, packageId));
    const line = await tx.select({ quantity: cartItems.quantity }).from(cartItems).where(mine).get();
    if (!line) return false;
    const quantity = Math.min(line.quantity + delta, MAX_LINE_QUANTITY);
    if (quantity < 1) await tx.delete(cartItems).where(mine).run();
    else await tx.update(cartItems).set({ quantity }).where(mine).run();
    return true;
  });
}

export async function removeCartLine(userId: number, packageId: number): Promise<boolean> {
  return await withTx(
    async (tx) =>
      (
        await tx
          .delete(cartItems)
          .where(and(eq(cartItems.userId, userId), eq(cartItems.packageId, packageId)))
          .run()
      ).changes > 0,
  );
}

/**
 * Takes what an order bought out of the cart, inside the transaction that confirms it. Only the
 * ordered quantities go: anything added to the cart since Place Order stays.
 */
export async function takeOrderedFromCart(
  tx: Tx,
  userId: number,
  lines: { packageId: number | null; quantity: number }[],
): Promise<void> {
  for (const line of lines) {
    if (line.packageId === null) continue;
    const mine = and(eq(cartItems.userId, userId), eq(cartItems.packageId, line.packageId));
    await tx
      .update(cartItems)
      .set({ quantity: sql`${cartItems.quantity} - ${line.quantity}` })
      .where(mine)
      .run();
    await tx
      .delete(cartItems)
      .where(and(mine, sql`${cartItems.quantity} <= 0`))
      .run();
  }
}
