import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { createdAt, users } from "./core.ts";

export const PACKAGE_CATEGORIES = ["appetizer", "beverages", "dessert", "entree"] as const;

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

export const ORDER_STATUSES = [
  "Pending",
  "Confirmed",
  "Being Cooked",
  "Ready for Pickup",
  "Completed",
  "Cancelled",
] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

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
    paymentId: text("payment_id"),
    createdAt: createdAt(),
    confirmedAt: integer("confirmed_at", { mode: "timestamp_ms" }),
  },
  (t) => [
    index("orders_user_idx").on(t.userId, t.id),
    index("orders_status_idx").on(t.status, t.id),
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
