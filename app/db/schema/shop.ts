import { blob, index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { ORDER_STATUSES, PACKAGE_CATEGORIES } from "#app/db/enums.ts";
import { createdAt, users } from "#app/db/schema/core.ts";

export const packages = sqliteTable("packages", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  name: text("name").notNull(),
  description: text("description").notNull().default(""),
  category: text("category", { enum: PACKAGE_CATEGORIES }).notNull().default("appetizer"),
  specialTag: text("special_tag").notNull().default(""),
  priceCents: integer("price_cents").notNull(),
  credits: integer("credits").notNull(),
  image: text("image").notNull().default(""),
  createdAt: createdAt(),
});

/**
 * An image uploaded with a package form, served at /uploads/packages/<name> from here by any web
 * process (decision 132). Its bytes were checked to be the type `content_type` names.
 */
export const storedImages = sqliteTable("stored_images", {
  // `<uuid>.png` or `<uuid>.jpg`, made by the server.
  name: text("name").primaryKey(),
  contentType: text("content_type", { enum: ["image/png", "image/jpeg"] }).notNull(),
  bytes: blob("bytes", { mode: "buffer" }).notNull(),
  createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull(),
});

export const cartItems = sqliteTable(
  "cart_items",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    packageId: integer("package_id")
      .notNull()
      .references(() => packages.id, { onDelete: "cascade" }),
    quantity: integer("quantity").notNull(),
  },
  (t) => [uniqueIndex("cart_items_user_package_unique").on(t.userId, t.packageId)],
);

// Admin search over name, email and phone uses the FTS5 trigram table `orders_search`, kept in
// step with this table by triggers (custom migration drizzle/*_shop_search.sql).
export const orders = sqliteTable(
  "orders",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    pickupName: text("pickup_name").notNull(),
    pickupEmail: text("pickup_email").notNull(),
    pickupPhone: text("pickup_phone").notNull(),
    totalCents: integer("total_cents").notNull(),
    totalItems: integer("total_items").notNull(),
    totalCredits: integer("total_credits").notNull(),
    currency: text("currency").notNull().default("usd"),
    status: text("status", { enum: ORDER_STATUSES }).notNull().default("Pending"),
    paymentProvider: text("payment_provider"),
    // The payment that confirmed the order; unique, so one payment can never confirm two orders.
    paymentId: text("payment_id"),
    // The provider's object made for this order (a Stripe PaymentIntent), reused on every visit.
    providerRef: text("provider_ref"),
    // Why the last payment attempt failed, shown on the payment and failed screens.
    paymentError: text("payment_error"),
    creditsReversed: integer("credits_reversed").notNull().default(0),
    // Credits a cancellation, refund or dispute wanted back that the customer had already spent.
    creditsShortfall: integer("credits_shortfall").notNull().default(0),
    // Stripe's cumulative refunded amount; a refund event never lowers it, so a replay does nothing.
    refundedCents: integer("refunded_cents").notNull().default(0),
    // The Checkout Session made for this order (no-JS payments), expired when an admin cancels.
    checkoutSessionRef: text("checkout_session_ref"),
    createdAt: createdAt(),
    confirmedAt: integer("confirmed_at", { mode: "timestamp_ms" }),
    cancelledAt: integer("cancelled_at", { mode: "timestamp_ms" }),
  },
  (t) => [
    index("orders_user_idx").on(t.userId, t.id),
    index("orders_status_idx").on(t.status, t.id),
    index("orders_created_idx").on(t.createdAt),
    uniqueIndex("orders_payment_unique").on(t.paymentId),
  ],
);

export const orderLines = sqliteTable(
  "order_lines",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    orderId: integer("order_id")
      .notNull()
      .references(() => orders.id, { onDelete: "cascade" }),
    packageId: integer("package_id"),
    itemName: text("item_name").notNull(),
    priceCents: integer("price_cents").notNull(),
    credits: integer("credits").notNull(),
    quantity: integer("quantity").notNull(),
  },
  (t) => [index("order_lines_order_idx").on(t.orderId)],
);

/** The offline test-card processor's own record of charges (what Stripe keeps on its side). */
export const offlineCharges = sqliteTable(
  "offline_charges",
  {
    id: text("id").primaryKey(),
    orderId: integer("order_id")
      .notNull()
      .references(() => orders.id, { onDelete: "cascade" }),
    amountCents: integer("amount_cents").notNull(),
    currency: text("currency").notNull(),
    // `cancelled`: the order was cancelled before it was paid; the processor then refuses to charge it.
    status: text("status", { enum: ["succeeded", "declined", "cancelled"] }).notNull(),
    declineCode: text("decline_code"),
    createdAt: createdAt(),
  },
  (t) => [index("offline_charges_order_idx").on(t.orderId, t.status)],
);
