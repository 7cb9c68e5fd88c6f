// Per-account quotas: how much of each kind one account may hold at once, counted where the new row
// is written (inside its transaction), so two requests at once cannot both take the last place.
import { and, count, eq, type SQL } from "drizzle-orm";
import type { Table } from "#app/db/dialect.server.ts";
import type { Executor } from "#app/db/client.server.ts";
import { apiKeys } from "#app/db/schema/api.ts";
import { contactGroups, contacts, importUploads } from "#app/db/schema/contacts.ts";
import { schedules } from "#app/db/schema/scheduling.ts";
import { orders } from "#app/db/schema/shop.ts";
import { getEnv } from "#app/utils/env.server.ts";
import { formatNumber } from "#app/utils/misc.ts";

export type Quota = "schedules" | "contacts" | "groups" | "pendingOrders" | "pendingUploads" | "apiKeys";

const QUOTAS: Record<Quota, { limit: () => number; what: (n: string) => string; advice: string }> = {
  schedules: {
    limit: () => getEnv().QUOTA_SCHEDULES,
    what: (n) => `${n} active schedules`,
    advice: "Cancel a schedule you no longer need (Scheduled SMS) before adding another.",
  },
  contacts: {
    limit: () => getEnv().QUOTA_CONTACTS,
    what: (n) => `${n} contacts`,
    advice: "Delete contacts you no longer need before adding more.",
  },
  groups: {
    limit: () => getEnv().QUOTA_GROUPS,
    what: (n) => `${n} groups`,
    advice: "Delete a group you no longer need before creating another.",
  },
  pendingOrders: {
    limit: () => getEnv().QUOTA_PENDING_ORDERS,
    what: (n) => `${n} unpaid orders`,
    advice: "Pay or cancel one of them (My Orders) before placing another.",
  },
  pendingUploads: {
    limit: () => getEnv().QUOTA_PENDING_UPLOADS,
    what: (n) => `${n} uploaded files waiting to be imported`,
    advice: "Import or discard one of them (Import Contacts) before uploading another.",
  },
  apiKeys: {
    limit: () => getEnv().QUOTA_API_KEYS,
    what: (n) => `${n} API keys`,
    advice: "Revoke a key you no longer use before creating another.",
  },
};

/** The account already holds as many as its quota allows; nothing was created. */
export class QuotaExceededError extends Error {
  readonly code = "quota_exceeded";
  readonly quota: Quota;
  readonly limit: number;
  constructor(quota: Quota) {
    const { limit, what, advice } = QUOTAS[quota];
    super(`Your account has reached its limit of ${what(formatNumber(limit()))}. ${advice}`);
    this.name = "QuotaExceededError";
    this.quota = quota;
    this.limit = limit();
  }
}

function quotaLimit(quota: Quota): number {
  return QUOTAS[quota].limit();
}

// The rows each quota counts.
const COUNTED: Record<Quota, (userId: number) => { table: Table; where: SQL | undefined }> = {
  schedules: (userId) => ({
    table: schedules,
    where: and(eq(schedules.userId, userId), eq(schedules.status, "active")),
  }),
  contacts: (userId) => ({ table: contacts, where: eq(contacts.userId, userId) }),
  groups: (userId) => ({ table: contactGroups, where: eq(contactGroups.userId, userId) }),
  pendingOrders: (userId) => ({ table: orders, where: and(eq(orders.userId, userId), eq(orders.status, "Pending")) }),
  pendingUploads: (userId) => ({ table: importUploads, where: eq(importUploads.userId, userId) }),
  apiKeys: (userId) => ({ table: apiKeys, where: eq(apiKeys.userId, userId) }),
};

/** How many more the account may add now; call it inside the transaction that adds them. */
export async function quotaRoom(tx: Executor, userId: number, quota: Quota): Promise<number> {
  const { table, where } = COUNTED[quota](userId);
  const used = (await tx.select({ n: count() }).from(table).where(where).get())?.n ?? 0;
  return Math.max(0, quotaLimit(quota) - used);
}

/** Throws QuotaExceededError unless one more fits; inside the transaction that adds it. */
export async function assertQuota(tx: Executor, userId: number, quota: Quota): Promise<void> {
  if ((await quotaRoom(tx, userId, quota)) < 1) throw new QuotaExceededError(quota);
}
