import { eq, sql } from "drizzle-orm";
import { db } from "../../db/client.server.ts";
import { cartItems } from "../../db/schema/shop.ts";

/** Number of packages in the user's cart, for the nav's cart link. */
export function getCartCount(userId: number): number {
  const row = db
    .select({ count: sql<number>`coalesce(sum(${cartItems.quantity}), 0)` })
    .from(cartItems)
    .where(eq(cartItems.userId, userId))
    .get();
  return row?.count ?? 0;
}
