// Helpers for the security tests: every route of the app as data, a fingerprint of the whole
// database (to prove a request changed nothing), and one customer with something of every kind.
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { createContact } from "#app/modules/contacts/contacts.server.ts";
import { runGroupSend, startGroupSend } from "#app/modules/group-sends/group-send.server.ts";
import { createGroup } from "#app/modules/contacts/groups.server.ts";
import { runImport, saveImportUpload } from "#app/modules/contacts/import.server.ts";
import { simulateInbound } from "#app/modules/inbound/simulate.server.ts";
import { queueMessage } from "#app/modules/sms/send.server.ts";
import { getEnv } from "#app/utils/env.server.ts";
import { submitSupportRequest } from "#app/modules/support/requests.server.ts";
import routes from "#app/routes.ts";
import { listDeliveries, sendTestEvent } from "#app/modules/webhooks/deliveries.server.ts";
import { createEndpoint } from "#app/modules/webhooks/endpoints.server.ts";
import { apiCustomer, type ApiCustomer } from "#tests/support/api.ts";
import { sqlCount, sqlRows } from "#tests/support/database.ts";
import { scheduleSoon } from "#tests/support/schedules.ts";
import { addToCart, payWithCard, placeOrder } from "#tests/support/shop.ts";

export type AppRoute = { file: string; path: string };

/** The app's routes as app/routes.ts declares them (flat: the table has no nesting). */
export function appRoutes(): AppRoute[] {
  return routes.map((r) => ({ file: r.file, path: r.index ? "" : (r.path ?? "") }));
}

/** A route module, by its file in app/routes.ts. */
export function routeModule(file: string): Promise<Record<string, unknown>> {
  return import(`#app/${file}`);
}

export function routeSource(file: string): string {
  return readFileSync(resolve("app", file), "utf8");
}

// When a session or a key was last used is written at most once a minute by any request, refused
// ones included: bookkeeping, not a change the request made.
const LAST_USE_COLUMNS: Record<string, string> = { sessions: "last_seen_at", api_keys: "last_used_at" };

/** Tables that count refused attempts: writing them is what a refused sign-in is for (decision 108). */
const ATTEMPT_COUNTERS = new Set(["login_failures"]);

const keptTables = (names: string[]) => names.filter((name) => !ATTEMPT_COUNTERS.has(name));

/** The app's tables, by name, on the engine the file runs on. */
async function tableNames(): Promise<string[]> {
  const rows = await sqlRows<{ name: string }>({
    sqlite: "select name from sqlite_master where type = 'table' and name not like 'sqlite_%' order by name",
    postgres: `select table_name as name from information_schema.tables
      where table_schema = 'public' and table_type = 'BASE TABLE' order by table_name`,
  });
  return keptTables(rows.map((t) => t.name));
}

/** One hash over every row of every table but the attempt counters: equal before and after means nothing was written. */
export async function databaseFingerprint(): Promise<string> {
  const hash = createHash("sha256");
  for (const table of await tableNames()) {
    const skipped = LAST_USE_COLUMNS[table];
    // Sorted as text: virtual and WITHOUT ROWID tables have no rowid to order by.
    const rows = (await sqlRows(`select * from "${table}"`)).map((row) =>
      JSON.stringify({ ...row, ...(skipped ? { [skipped]: null } : {}) }),
    );
    hash.update(`\n${table}\n${rows.sort().join("\n")}`);
  }
  return hash.digest("hex");
}

/** The rows of each table (but the attempt counters), for a readable diff when the fingerprints differ. */
export async function tableCounts(): Promise<Record<string, number>> {
  const names = await tableNames();
  return Object.fromEntries(
    await Promise.all(names.map(async (name) => [name, await sqlCount(`select count(*) as n from "${name}"`)])),
  );
}

export type Owned = {
  customer: ApiCustomer;
  contactId: number;
  groupId: number;
  groupSendId: number;
  messageId: number;
  scheduleId: number;
  pendingOrderId: number;
  confirmedOrderId: number;
  importToken: string;
  importReportId: number;
  supportRequestId: number;
  /** A phone that answered one of the customer's messages: their inbox thread. */
  inboundPhone: string;
  webhookEndpointId: number;
  webhookDeliveryId: number;
};

let phone = 0;
const nextPhone = () => `+1202555${String(7000 + ++phone)}`;

/** A customer (with an API key) who has one of everything a customer can own. Needs the package ladder seeded. */
export async function customerWithEverything(packageId: number): Promise<Owned> {
  const customer = await apiCustomer(100);
  const group = await createGroup(customer.id, { name: `Group ${customer.id}`, description: "Private" });
  const contact = await createContact(customer.id, {
    name: "Alice",
    phone: nextPhone(),
    email: `alice${customer.id}@example.com`,
    groupIds: [group.id],
  });
  const send = await startGroupSend(customer.id, group.id, "hello group");
  await runGroupSend(send.id);
  const message = await queueMessage(customer.id, { to: nextPhone(), body: "hello", source: "web" });
  const inboundPhone = nextPhone();
  await queueMessage(customer.id, { to: inboundPhone, body: "Are you in?", source: "web" });
  await simulateInbound({ from: inboundPhone, to: getEnv().SMPP_SOURCE_ADDR, text: "Private answer" });
  const schedule = await scheduleSoon(customer.id, { inMs: 3_600_000 });
  await addToCart(customer, packageId, 1);
  const pendingOrderId = await placeOrder(customer);
  await addToCart(customer, packageId, 1);
  const confirmedOrderId = await placeOrder(customer);
  await payWithCard(customer, confirmedOrderId, "4242 4242 4242 4242");
  const csv = new TextEncoder().encode(`name,phone,email\nBob,${nextPhone()},bob@example.com\n`);
  const report = await runImport(customer.id, await saveImportUpload(customer.id, "a.csv", csv), {
    hasHeader: true,
    name: 0,
    phone: 1,
    email: 2,
  });
  const importToken = await saveImportUpload(customer.id, "b.csv", csv);
  const support = await submitSupportRequest({
    source: "support",
    userId: customer.id,
    name: customer.fullName,
    email: customer.email,
    subject: "Private",
    message: "Only admins may read this",
    ip: `10.9.${customer.id % 250}.1`,
  });
  if (support.status !== "saved") throw new Error(`support request not saved: ${support.status}`);
  return {
    customer,
    contactId: contact.id,
    groupId: group.id,
    groupSendId: send.id,
    messageId: message.id,
    scheduleId: schedule.id,
    pendingOrderId,
    confirmedOrderId,
    importToken,
    importReportId: report.id,
    supportRequestId: support.id,
    inboundPhone,
    ...(await ownWebhook(customer.id)),
  };
}

/** An endpoint (at a documentation address nothing answers) with one delivery in its log. */
async function ownWebhook(userId: number) {
  const { endpoint } = await createEndpoint(userId, {
    url: "http://203.0.113.10/hook",
    events: ["message.delivered"],
    enabled: true,
  });
  await sendTestEvent(userId, endpoint.id);
  const [delivery] = await listDeliveries(userId, endpoint.id);
  return { webhookEndpointId: endpoint.id, webhookDeliveryId: delivery.id };
}
