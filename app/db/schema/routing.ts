import { sql } from "drizzle-orm";
import { check, index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { UPSTREAM_KINDS } from "#app/db/enums.ts";
import { createdAt } from "#app/db/schema/core.ts";

/**
 * An upstream the admin added (the environment's SMPP_URL or simulator is upstream "env", never a
 * row). Its password is sealed like API keys (AES-256-GCM under API_KEY_SECRET), never shown again.
 */
export const upstreams = sqliteTable(
  "upstreams",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    name: text("name").notNull(),
    kind: text("kind", { enum: UPSTREAM_KINDS }).notNull(),
    // smpp:// or ssmpp://host:port, without credentials (they are the two columns below); null for a simulator.
    url: text("url"),
    systemId: text("system_id"),
    passwordCiphertext: text("password_ciphertext"),
    binds: integer("binds").notNull().default(1),
    window: integer("window_size").notNull().default(10),
    tps: integer("tps").notNull().default(100),
    // The From of messages whose account has no sender of its own; null: SMPP_SOURCE_ADDR.
    sourceAddr: text("source_addr"),
    enabled: integer("enabled", { mode: "boolean" }).notNull().default(true),
    // A simulated upstream told to refuse every submit (test mode's failover demo).
    failing: integer("failing", { mode: "boolean" }).notNull().default(false),
    createdAt: createdAt(),
    updatedAt: integer("updated_at", { mode: "timestamp_ms" }).notNull(),
  },
  (t) => [uniqueIndex("upstreams_name_unique").on(t.name)],
);

/** A destination prefix: E.164 digits without "+", or "*" for every destination no longer prefix matches. */
export const routes = sqliteTable(
  "routes",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    prefix: text("prefix").notNull(),
    createdAt: createdAt(),
    updatedAt: integer("updated_at", { mode: "timestamp_ms" }).notNull(),
  },
  (t) => [uniqueIndex("routes_prefix_unique").on(t.prefix)],
);

/** One upstream of a route, in the order tried; upstream_id null is the environment's upstream ("env"). */
export const routeUpstreams = sqliteTable(
  "route_upstreams",
  {
    routeId: integer("route_id")
      .notNull()
      .references(() => routes.id, { onDelete: "cascade" }),
    position: integer("position").notNull(),
    upstreamId: integer("upstream_id").references(() => upstreams.id),
    // Share of the traffic among the route's weighted upstreams; null: tried in order only.
    weight: integer("weight"),
    // What the upstream charges per segment to this prefix, in millionths of the shop's currency.
    costMicros: integer("cost_micros").notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.routeId, t.position] }),
    index("route_upstreams_upstream_idx").on(t.upstreamId),
    check("route_upstreams_weight_positive", sql`${t.weight} is null or ${t.weight} > 0`),
  ],
);
