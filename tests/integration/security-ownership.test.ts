// Every route that takes an id, asked by another customer (session or API key) for customer A's
// ids: a 404, and not one row of the database changed. The routes come from app/routes.ts and the
// API's route table, so a new id route without a case here fails the test.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { getDb } from "#app/db/client.server.ts";
import { seedDatabase } from "#app/modules/seed/seed.server.ts";
import { packages } from "#app/db/schema/shop.ts";
import { API_ROUTES } from "#app/api/routes.server.ts";
import { ErrorSchema } from "#app/api/schemas.ts";
import { createContact } from "#app/modules/contacts/contacts.server.ts";
import { createGroup } from "#app/modules/contacts/groups.server.ts";
import { listOwnApiKeys } from "#app/modules/api-keys/keys.server.ts";
import { listOwnSessions } from "#app/modules/auth/session.server.ts";
import { addOptOuts, listOptOuts } from "#app/modules/opt-outs/opt-outs.server.ts";
import { createSender, requestSender } from "#app/modules/senders/senders.server.ts";
import { createTemplate } from "#app/modules/templates/templates.server.ts";
import { createEndpoint } from "#app/modules/webhooks/endpoints.server.ts";
import { apiCustomer, callApi } from "#tests/support/api.ts";
import { call, createTestUser, locationOf, makeRequest, statusOf, type TestUser } from "#tests/support/requests.ts";
import {
  appRoutes,
  customerWithEverything,
  databaseFingerprint,
  type Owned,
  routeModule,
  routeSource,
  tableCounts,
} from "#tests/support/security.ts";
import { schedulerOf } from "#tests/support/schedules.ts";

await seedDatabase();
const [pack] = await getDb().select().from(packages).all();

const a = await customerWithEverything(pack.id);
const b = await apiCustomer(100);
const bGroup = await createGroup(b.id, { name: "B's own", description: "Mine" });
const bWebhook = await createEndpoint(b.id, {
  url: "http://203.0.113.11/hook",
  events: ["message.sent"],
  enabled: true,
});
const bContact = await createContact(b.id, {
  name: "B's contact",
  phone: "+12025550995",
  email: "mine@example.com",
  groupIds: [bGroup.id],
});
const admin = await createTestUser("admin");
// A's API key and session, named as A's own pages name them.
const [aKey] = await listOwnApiKeys(a.customer.id);
const [aSession] = await listOwnSessions(makeRequest("/", { user: a.customer }), a.customer.id);
// A's sender (and a request of theirs) and a number A added to their opt-outs.
const aSender = await createSender({ address: "OwnerA", kind: "alphanumeric", ton: 5, npi: 0, userId: a.customer.id });
await createSender({ address: "+447700900950", kind: "long_number", ton: 1, npi: 1, userId: a.customer.id });
const aRequest = await requestSender(a.customer.id, "AskedByA");
await addOptOuts(a.customer.id, ["+12025550960"], "manual");
const aOptOut = (await listOptOuts(a.customer.id)).items[0];
// A's message template.
const aTemplate = await createTemplate(a.customer.id, { name: "A's welcome", body: "Hi {{name|there}}" });

type Expected = 404 | { redirect: string };
type Attempt = {
  method: "GET" | "POST";
  path: string;
  form?: Record<string, string | string[]>;
  params?: Record<string, string>;
  expected?: Expected;
};

const get = (path: string, params?: Record<string, string>, expected?: Expected): Attempt => ({
  method: "GET",
  path,
  params,
  expected,
});
const post = (
  path: string,
  form: Record<string, string | string[]>,
  params?: Record<string, string>,
  expected?: Expected,
): Attempt => ({ method: "POST", path, form, params, expected });
const ACCESS_DENIED = { redirect: "/accessDenied" };

/** Customer B's attempts on customer A's ids, per route module (its file in app/routes.ts). */
const CASES: Record<string, (a: Owned) => Attempt[]> = {
  "routes/shop/order-confirmed.tsx": (a) => [
    get(`/order/orderconfirmed/${a.confirmedOrderId}`, { id: String(a.confirmedOrderId) }),
  ],
  "routes/shop/order-details.tsx": (a) => [
    get(`/order/orderDetails/${a.pendingOrderId}`, { id: String(a.pendingOrderId) }),
    get(`/order/orderDetails/${a.confirmedOrderId}`, { id: String(a.confirmedOrderId) }),
    // Changing an order's status is for admins: a customer never reaches the id.
    post(
      `/order/orderDetails/${a.confirmedOrderId}`,
      { status: "Cancelled" },
      { id: String(a.confirmedOrderId) },
      ACCESS_DENIED,
    ),
  ],
  "routes/sms/group-send-status.ts": (a) => [get(`/sms/groupSends/${a.groupSendId}`, { id: String(a.groupSendId) })],
  "routes/sms/campaign.tsx": (a) => [get(`/sms/campaigns/${a.groupSendId}`, { id: String(a.groupSendId) })],
  "routes/sms/message-journey.tsx": (a) => [get(`/sms/messages/${a.messageId}`, { id: String(a.messageId) })],
  "routes/sms/campaign-export.ts": (a) => [
    get(`/sms/campaigns/${a.groupSendId}/export`, { id: String(a.groupSendId) }),
  ],
  "routes/sms/message-history.tsx": (a) => [get(`/sms/messageHistory?campaign=${a.groupSendId}`)],
  "routes/sms/message-history-export.ts": (a) => [get(`/sms/messageHistory/export?campaign=${a.groupSendId}`)],
  "routes/sms/account-contacts.tsx": (a) => [
    ...["edit", "send", "schedule", "delete"].map((panel) =>
      get(`/sms/accountContacts?panel=${panel}&id=${a.contactId}`),
    ),
    get(`/sms/accountContacts?group=${a.groupId}`),
    post("/sms/accountContacts", {
      intent: "update",
      id: String(a.contactId),
      name: "Taken",
      phoneNumber: "+12025550999",
      email: "t@example.com",
      active: "on",
    }),
    post("/sms/accountContacts", { intent: "delete", id: String(a.contactId) }),
    post("/sms/accountContacts", { intent: "send", id: String(a.contactId), message: "hi" }),
    // B's own contact into A's group: the contact is B's, the group is not.
    post("/sms/accountContacts", {
      intent: "update",
      id: String(bContact.id),
      name: "x",
      phoneNumber: "+12025550998",
      email: "x@example.com",
      groupIds: String(a.groupId),
    }),
  ],
  "routes/sms/account-groups.tsx": (a) => [
    ...["edit", "send", "schedule", "delete"].map((panel) => get(`/sms/accountGroups?panel=${panel}&id=${a.groupId}`)),
    get(`/sms/accountGroups?panel=sent&id=${a.groupId}&send=${a.groupSendId}`),
    get(`/sms/accountGroups?panel=sent&id=${bGroup.id}&send=${a.groupSendId}`),
    post("/sms/accountGroups", { intent: "update", id: String(a.groupId), groupName: "Taken", description: "x" }),
    post("/sms/accountGroups", { intent: "delete", id: String(a.groupId) }),
    post("/sms/accountGroups", { intent: "send", id: String(a.groupId), message: "hi", requestKey: "k" }),
    // A's group's total for a templated message, and A's template in B's own group's panel.
    post("/sms/accountGroups", { intent: "send", id: String(a.groupId), message: "Hi {{name}}", requestKey: "k" }),
    get(`/sms/accountGroups?panel=send&id=${bGroup.id}&template=${aTemplate.id}`),
  ],
  "routes/sms/templates.tsx": () => [
    get(`/sms/templates?edit=${aTemplate.id}`),
    get(`/sms/templates?delete=${aTemplate.id}`),
    post("/sms/templates", { intent: "save", id: String(aTemplate.id), name: "Taken", body: "Mine" }),
    post("/sms/templates", { intent: "preview", id: String(aTemplate.id), name: "Taken", body: "Mine" }),
    post("/sms/templates", { intent: "delete", id: String(aTemplate.id) }),
  ],
  "routes/sms/send-sms.tsx": () => [get(`/sms/sendSms?template=${aTemplate.id}`)],
  "routes/sms/create-contact.tsx": (a) => [
    post("/sms/createContact", {
      name: "Into A's group",
      phoneNumber: "+12025550997",
      email: "g@example.com",
      groupIds: String(a.groupId),
    }),
  ],
  "routes/sms/webhook-deliveries.tsx": (a) => {
    const id = String(a.webhookEndpointId);
    const path = `/sms/webhooks/${id}`;
    return [
      get(path, { id }),
      ...["test", "rotate", "disable", "delete"].map((intent) => post(path, { intent }, { id })),
      post(path, { intent: "redeliver", deliveryId: String(a.webhookDeliveryId) }, { id }),
    ];
  },
  "routes/sms/inbox-thread.tsx": (a) => [
    get(`/sms/inbox/${encodeURIComponent(a.inboundPhone)}`, { phone: a.inboundPhone }),
    post(
      `/sms/inbox/${encodeURIComponent(a.inboundPhone)}`,
      { intent: "send", phoneNumber: a.inboundPhone, message: "Not yours" },
      { phone: a.inboundPhone },
    ),
    post(`/sms/inbox/${encodeURIComponent(a.inboundPhone)}`, { intent: "read" }, { phone: a.inboundPhone }),
  ],
  "routes/sms/scheduled.tsx": (a) => [
    get(`/sms/scheduled?cancel=${a.scheduleId}`),
    post("/sms/scheduled", { intent: "cancel", id: String(a.scheduleId) }),
  ],
  "routes/sms/schedule-sms.tsx": (a) => [
    get(`/sms/scheduleSms?groupId=${a.groupId}`),
    get(`/sms/scheduleSms?template=${aTemplate.id}`),
  ],
  "routes/sms/api-token.tsx": () => [
    get(`/sms/apiToken?show=${aKey.id}`),
    post("/sms/apiToken", { intent: "regenerate", keyId: String(aKey.id) }),
    post("/sms/apiToken", { intent: "revoke", keyId: String(aKey.id) }),
  ],
  "routes/account/sessions.tsx": () => [post("/account/sessions", { intent: "end", session: aSession.handle })],
  "routes/sms/senders.tsx": () => [
    post("/sms/senders", { intent: "default", id: String(aSender.id) }),
    post("/sms/senders", { intent: "default", id: String(aRequest.id) }),
  ],
  "routes/sms/opt-outs.tsx": () => [post("/sms/optOuts", { intent: "remove", id: String(aOptOut.id) })],
  "routes/admin/senders.tsx": () => [
    get(`/admin/senders?edit=${aSender.id}`, undefined, ACCESS_DENIED),
    post("/admin/senders", { intent: "approve", id: String(aRequest.id) }, undefined, ACCESS_DENIED),
    post("/admin/senders", { intent: "reject", id: String(aRequest.id), reason: "x" }, undefined, ACCESS_DENIED),
    post("/admin/senders", { intent: "delete", id: String(aSender.id) }, undefined, ACCESS_DENIED),
  ],
  "routes/sms/import-contacts.tsx": (a) => [
    get(`/sms/importContacts?file=${a.importToken}`),
    get(`/sms/importContacts?report=${a.importReportId}`),
    post("/sms/importContacts", {
      intent: "import",
      token: a.importToken,
      hasHeader: "on",
      name: "0",
      phone: "1",
      email: "2",
    }),
    // Discarding is idempotent (a second Cancel is no error): a token that is not one of B's uploads
    // discards nothing of anyone's and goes back to the list. A's file stays (checked below).
    post("/sms/importContacts", { intent: "discard", token: a.importToken }, undefined, {
      redirect: "/sms/accountContacts",
    }),
  ],
  "routes/shop/failed.tsx": (a) => [
    get(`/failed?orderId=${a.pendingOrderId}`),
    get(`/failed?orderId=${a.confirmedOrderId}`),
  ],
  "routes/shop/payment.tsx": (a) => [
    get(`/payment?orderId=${a.pendingOrderId}`),
    post(`/payment?orderId=${a.pendingOrderId}`, { cardNumber: "4242 4242 4242 4242", expiry: "12/40", cvc: "123" }),
  ],
  "routes/shop/payment-return.tsx": (a) => [get(`/payment/return?orderId=${a.pendingOrderId}&payment_intent=pi_123`)],
  // Admin screens: the ids are the shop's or every customer's, so a customer is turned away before any id is read.
  "routes/content/support-inbox.tsx": (a) => [
    get(`/admin/support?id=${a.supportRequestId}`, undefined, ACCESS_DENIED),
    post(
      `/admin/support?id=${a.supportRequestId}`,
      { intent: "handle", id: String(a.supportRequestId) },
      undefined,
      ACCESS_DENIED,
    ),
  ],
  "routes/shop/menu-item-list.tsx": () => [
    get(`/menuItem/menuitemlist?delete=${pack.id}`, undefined, ACCESS_DENIED),
    post("/menuItem/menuitemlist", { intent: "delete", id: String(pack.id) }, undefined, ACCESS_DENIED),
  ],
  "routes/shop/menu-item-upsert.tsx": () => [
    get(`/menuItem/menuItemUpsert/${pack.id}`, { id: String(pack.id) }, ACCESS_DENIED),
  ],
  "routes/admin/mail.tsx": () => [get("/admin/mail?id=1", undefined, ACCESS_DENIED)],
  "routes/admin/prices.tsx": () => [
    get("/admin/prices?edit=44", undefined, ACCESS_DENIED),
    post("/admin/prices", { intent: "save", prefix: "+44", creditsPerSegment: "9" }, undefined, ACCESS_DENIED),
    post("/admin/prices", { intent: "delete", prefix: "44" }, undefined, ACCESS_DENIED),
  ],
  "routes/admin/users.tsx": (a) => [
    get(`/admin/users?q=${encodeURIComponent(a.customer.email)}`, undefined, ACCESS_DENIED),
  ],
  "routes/admin/user-details.tsx": (a) => [
    get(`/admin/users/${a.customer.id}`, { id: String(a.customer.id) }, ACCESS_DENIED),
    post(
      `/admin/users/${a.customer.id}`,
      { direction: "remove", amount: "1", reason: "x", requestKey: "k".repeat(20) },
      { id: String(a.customer.id) },
      ACCESS_DENIED,
    ),
    // Not even credits for oneself.
    post(
      `/admin/users/${b.id}`,
      { direction: "add", amount: "1000", reason: "x", requestKey: "k".repeat(21) },
      { id: String(b.id) },
      ACCESS_DENIED,
    ),
  ],
};

/** Routes with a path parameter that is not an owned id, and why. */
const PUBLIC_IDS: Record<string, string> = {
  "routes/content/blog-article.tsx": "public blog articles by slug",
  "routes/shop/menu-item-details.tsx":
    "the public package catalogue; Add to Cart only ever changes the signed-in user's own cart",
  "routes/auth/setup.tsx":
    "a one-time setup token (kept hashed, one use, an hour), no owned id; it creates the first admin only while there is none",
  "routes/auth/reset-password.tsx": "a single-use reset token (kept hashed, an hour), no owned id",
  "routes/auth/verify-email.tsx": "a single-use verification token (kept hashed), no owned id",
  "routes/account/confirm-email.tsx": "a single-use e-mail change token (kept hashed, a day), no owned id",
};

/** Query parameters the route modules read that are not ids of something someone owns. */
const NOT_IDS = new Set([
  "page",
  "q",
  "status",
  "size",
  "sort",
  "category",
  "filter",
  "panel",
  "quantity",
  "redirectTo",
  "returnTo",
  "confirm",
  "key",
  // A phone number that fills in a form field, validated like typed input when posted.
  "phoneNumber",
  // Keyset cursors of the message history, applied within the reader's own rows.
  "after",
  "before",
  // The message history's other filters: the reader's own messages are searched, whatever they say.
  "direction",
  "phone",
  "text",
  "from",
  "to",
  // Stripe's own ids on the way back from Stripe; the order id beside them is checked first.
  "session_id",
  "payment_intent",
  // The dashboards' period: 7, 30 or 90 days.
  "days",
  // Webhooks: ?secret=show and ?callback=show reveal the reader's own secret on their own page.
  "secret",
  "callback",
  // The public price list prices the number asked about: nobody's.
  "number",
]);

/** Query parameters that name an owned thing, per route; each is in the route's case above. */
const QUERY_IDS: Record<string, string[]> = {
  "routes/sms/account-contacts.tsx": ["id", "group", "send", "template"],
  "routes/sms/account-groups.tsx": ["id", "group", "send", "template"],
  "routes/sms/templates.tsx": ["edit", "delete"],
  "routes/sms/send-sms.tsx": ["template"],
  "routes/sms/scheduled.tsx": ["cancel"],
  "routes/sms/schedule-sms.tsx": ["groupId", "template"],
  "routes/sms/api-token.tsx": ["show"],
  "routes/sms/import-contacts.tsx": ["file", "report"],
  "routes/shop/failed.tsx": ["orderId"],
  "routes/shop/payment.tsx": ["orderId"],
  "routes/shop/payment-return.tsx": ["orderId"],
  "routes/content/support-inbox.tsx": ["id"],
  "routes/admin/senders.tsx": ["edit"],
  "routes/admin/mail.tsx": ["id"],
  "routes/admin/prices.tsx": ["edit"],
  "routes/shop/menu-item-list.tsx": ["delete"],
  "routes/sms/message-history.tsx": ["campaign"],
  "routes/sms/message-history-export.ts": ["campaign"],
};

// Shared query readers: the parameters each one reads.
const QUERY_READERS: Record<string, string[]> = {
  readListQuery: ["page", "panel", "id", "group", "send"],
  templateStart: ["template"],
  readQuery: ["filter", "page", "id"],
  parseAdminOrderQuery: ["q", "status", "page", "size"],
  parseHomeFilters: ["q", "sort", "category"],
  parseHistoryFilters: ["direction", "status", "phone", "text", "from", "to", "campaign"],
};

function queryParamsRead(file: string): string[] {
  const source = routeSource(file);
  const direct = [...source.matchAll(/[pP]arams\.get\("([A-Za-z_]+)"\)/g)].map((m) => m[1]);
  const viaReaders = Object.entries(QUERY_READERS).flatMap(([reader, names]) =>
    source.includes(`${reader}(`) ? names : [],
  );
  return [...new Set([...direct, ...viaReaders])];
}

async function attempt(user: TestUser, file: string, { method, path, form, params }: Attempt) {
  const module = await routeModule(file);
  const fn = (method === "GET" ? module.loader : module.action) as Parameters<typeof call>[0] | undefined;
  if (!fn) throw new Error(`${file} has no ${method === "GET" ? "loader" : "action"}`);
  return call(fn, makeRequest(path, { user, form, method }), params);
}

function expectOutcome(result: unknown, expected: Expected, what: string) {
  if (expected === 404) expect(statusOf(result), what).toBe(404);
  else expect(locationOf(result), what).toBe(expected.redirect);
}

/** A's things that live outside SQLite: the upload waiting for import and the schedule's job scheduler. */
async function outsideTheDatabase() {
  return {
    upload: existsSync(join(process.env.DATA_DIR!, "imports", String(a.customer.id), `${a.importToken}.csv`)),
    scheduler: Boolean(await schedulerOf(a.scheduleId)),
  };
}

describe("another customer's ids on the web routes", () => {
  it("every route whose path has a parameter has a case here, or is a public id with a reason", () => {
    const withParams = appRoutes().filter((r) => r.path.includes(":"));
    expect(withParams.length).toBeGreaterThan(0);
    for (const route of withParams) {
      expect(
        route.file in CASES || route.file in PUBLIC_IDS,
        `${route.path} (${route.file}) needs an ownership case`,
      ).toBe(true);
    }
    const files = new Set(appRoutes().map((r) => r.file));
    for (const file of [...Object.keys(CASES), ...Object.keys(PUBLIC_IDS), ...Object.keys(QUERY_IDS)])
      expect(files.has(file), `${file} is no route`).toBe(true);
  });

  it("every query parameter a route reads is either not an id or an id with a case here", () => {
    for (const { file } of appRoutes()) {
      for (const name of queryParamsRead(file)) {
        if (NOT_IDS.has(name)) continue;
        expect(
          QUERY_IDS[file] ?? [],
          `${file} reads ?${name}=: add it to QUERY_IDS with a case, or to NOT_IDS with a reason`,
        ).toContain(name);
        expect(file in CASES, `${file} reads ?${name}= but has no case`).toBe(true);
      }
    }
  });

  for (const [file, cases] of Object.entries(CASES)) {
    it(`${file}: customer B gets 404 for A's ids and nothing changes`, async () => {
      const before = {
        fingerprint: await databaseFingerprint(),
        counts: await tableCounts(),
        outside: await outsideTheDatabase(),
      };
      for (const request of cases(a)) {
        const what = `${request.method} ${request.path} ${JSON.stringify(request.form ?? {})}`;
        expectOutcome(await attempt(b, file, request), request.expected ?? 404, what);
        expect(await tableCounts(), what).toEqual(before.counts);
        expect(await databaseFingerprint(), what).toBe(before.fingerprint);
      }
      expect(await outsideTheDatabase()).toEqual(before.outside);
    });
  }

  it("the same requests with A's own session are not refused (the cases reach real ids)", async () => {
    // Without Stripe (as here) the return page is a 404 for everyone; stripe.test.ts asks it for another customer's order with Stripe on.
    const onlyWithStripe = "routes/shop/payment-return.tsx";
    for (const [file, cases] of Object.entries(CASES).filter(([file]) => file !== onlyWithStripe)) {
      for (const request of cases(a).filter(
        (r) => r.method === "GET" && (r.expected ?? 404) === 404 && !r.path.includes(`id=${bGroup.id}`),
      )) {
        expect(statusOf(await attempt(a.customer, file, request)), `${file} ${request.path}`).not.toBe(404);
      }
    }
  });
});

type ApiAttempt = { method: string; path: string; json?: unknown };

/** Customer B's API key on A's ids, per API route; path ids first, then ids in a query or a body. */
const API_CASES: Record<string, (a: Owned) => ApiAttempt[]> = {
  "GET /api/v1/messages/{id}": (a) => [
    { method: "GET", path: `/api/v1/messages/${a.messageId}` },
    { method: "GET", path: `/api/v1/messages/sch_${a.scheduleId}` },
  ],
  "GET /api/v1/messages/{id}/events": (a) => [{ method: "GET", path: `/api/v1/messages/${a.messageId}/events` }],
  "DELETE /api/v1/messages/{id}": (a) => [
    { method: "DELETE", path: `/api/v1/messages/${a.messageId}` },
    { method: "DELETE", path: `/api/v1/messages/sch_${a.scheduleId}` },
  ],
  "POST /api/v1/groups/{id}/messages": (a) => [
    { method: "POST", path: `/api/v1/groups/${a.groupId}/messages`, json: { body: "hi" } },
  ],
  "GET /api/v1/group-sends/{id}": (a) => [{ method: "GET", path: `/api/v1/group-sends/${a.groupSendId}` }],
  "DELETE /api/v1/opt-outs/{id}": () => [{ method: "DELETE", path: `/api/v1/opt-outs/${aOptOut.id}` }],
  "GET /api/v1/contacts": (a) => [{ method: "GET", path: `/api/v1/contacts?group=${a.groupId}` }],
  "GET /api/v1/schedules/{id}": (a) => [{ method: "GET", path: `/api/v1/schedules/${a.scheduleId}` }],
  "DELETE /api/v1/schedules/{id}": (a) => [{ method: "DELETE", path: `/api/v1/schedules/${a.scheduleId}` }],
  "POST /api/v1/schedules": (a) => [
    {
      method: "POST",
      path: "/api/v1/schedules",
      json: { groupId: a.groupId, body: "hi", repeat: "daily", firstSendAt: "2099-01-01T09:00:00Z" },
    },
  ],
  "GET /api/v1/contacts/{id}": (a) => [{ method: "GET", path: `/api/v1/contacts/${a.contactId}` }],
  "PATCH /api/v1/contacts/{id}": (a) => [
    { method: "PATCH", path: `/api/v1/contacts/${a.contactId}`, json: { name: "taken" } },
  ],
  "DELETE /api/v1/contacts/{id}": (a) => [{ method: "DELETE", path: `/api/v1/contacts/${a.contactId}` }],
  "GET /api/v1/groups/{id}": (a) => [{ method: "GET", path: `/api/v1/groups/${a.groupId}` }],
  "PATCH /api/v1/groups/{id}": (a) => [
    { method: "PATCH", path: `/api/v1/groups/${a.groupId}`, json: { name: "taken" } },
  ],
  "DELETE /api/v1/groups/{id}": (a) => [{ method: "DELETE", path: `/api/v1/groups/${a.groupId}` }],
  "PUT /api/v1/groups/{id}/members/{contactId}": (a) => [
    { method: "PUT", path: `/api/v1/groups/${a.groupId}/members/${bContact.id}` },
    { method: "PUT", path: `/api/v1/groups/${bGroup.id}/members/${a.contactId}` },
  ],
  "DELETE /api/v1/groups/{id}/members/{contactId}": (a) => [
    { method: "DELETE", path: `/api/v1/groups/${a.groupId}/members/${a.contactId}` },
    { method: "DELETE", path: `/api/v1/groups/${bGroup.id}/members/${a.contactId}` },
  ],
  "POST /api/v1/contacts": (a) => [
    {
      method: "POST",
      path: "/api/v1/contacts",
      json: { name: "x", phone: "+12025550996", email: "x@example.com", groupIds: [a.groupId] },
    },
  ],
  "GET /api/v1/webhooks/{id}": (a) => [{ method: "GET", path: `/api/v1/webhooks/${a.webhookEndpointId}` }],
  "PATCH /api/v1/webhooks/{id}": (a) => [
    { method: "PATCH", path: `/api/v1/webhooks/${a.webhookEndpointId}`, json: { enabled: false } },
  ],
  "DELETE /api/v1/webhooks/{id}": (a) => [{ method: "DELETE", path: `/api/v1/webhooks/${a.webhookEndpointId}` }],
  "POST /api/v1/webhooks/{id}/rotate-secret": (a) => [
    { method: "POST", path: `/api/v1/webhooks/${a.webhookEndpointId}/rotate-secret` },
  ],
  "POST /api/v1/webhooks/{id}/test": (a) => [{ method: "POST", path: `/api/v1/webhooks/${a.webhookEndpointId}/test` }],
  "GET /api/v1/webhooks/{id}/deliveries": (a) => [
    { method: "GET", path: `/api/v1/webhooks/${a.webhookEndpointId}/deliveries` },
  ],
  "POST /api/v1/webhooks/{id}/deliveries/{deliveryId}/redeliver": (a) => [
    {
      method: "POST",
      path: `/api/v1/webhooks/${a.webhookEndpointId}/deliveries/${a.webhookDeliveryId}/redeliver`,
    },
    // B's own endpoint with A's delivery id is not found either.
    { method: "POST", path: `/api/v1/webhooks/${bWebhook.endpoint.id}/deliveries/${a.webhookDeliveryId}/redeliver` },
  ],
};

describe("another customer's ids on the REST API", () => {
  it("every API route with a path parameter has a case here", () => {
    for (const route of API_ROUTES.filter((r) => r.path.includes("{"))) {
      expect(
        `${route.method} ${route.path}` in API_CASES,
        `${route.method} ${route.path} needs an ownership case`,
      ).toBe(true);
    }
    const known = new Set(API_ROUTES.map((r) => `${r.method} ${r.path}`));
    for (const key of Object.keys(API_CASES)) expect(known.has(key), `${key} is no API route`).toBe(true);
  });

  it("customer B's key gets 404 for each of A's ids and nothing changes", async () => {
    // B's first use records its key's last use: once, before the fingerprint.
    await callApi("GET", "/api/v1/balance", { key: b.key });
    const before = { fingerprint: await databaseFingerprint(), outside: await outsideTheDatabase() };
    for (const [route, cases] of Object.entries(API_CASES)) {
      for (const { method, path, json } of cases(a)) {
        const answer = await callApi(method, path, { key: b.key, json });
        expect(answer.status, `${route}: ${method} ${path}`).toBe(404);
        expect(ErrorSchema.parse(answer.json).error.code).toBe("not_found");
        expect(await databaseFingerprint(), `${route}: ${method} ${path}`).toBe(before.fingerprint);
      }
    }
    expect(await outsideTheDatabase()).toEqual(before.outside);
  });
});

describe("no GET changes anything", () => {
  it("every loader, for a visitor, a customer on their own ids and an admin, leaves the database as it was", async () => {
    const own: Record<string, { path: string; params?: Record<string, string> }> = {
      "routes/shop/order-confirmed.tsx": {
        path: `/order/orderconfirmed/${a.confirmedOrderId}`,
        params: { id: String(a.confirmedOrderId) },
      },
      "routes/shop/order-details.tsx": {
        path: `/order/orderDetails/${a.pendingOrderId}`,
        params: { id: String(a.pendingOrderId) },
      },
      "routes/sms/group-send-status.ts": {
        path: `/sms/groupSends/${a.groupSendId}`,
        params: { id: String(a.groupSendId) },
      },
      "routes/shop/menu-item-details.tsx": {
        path: `/menuItemDetails/${pack.id}?quantity=3`,
        params: { menuItemId: String(pack.id) },
      },
      "routes/shop/menu-item-upsert.tsx": {
        path: `/menuItem/menuItemUpsert/${pack.id}`,
        params: { id: String(pack.id) },
      },
      "routes/content/blog-article.tsx": { path: "/blog/hiring-smarter", params: { slug: "hiring-smarter" } },
      "routes/sms/inbox-thread.tsx": { path: `/sms/inbox/${a.inboundPhone}`, params: { phone: a.inboundPhone } },
      "routes/sms/campaign.tsx": { path: `/sms/campaigns/${a.groupSendId}`, params: { id: String(a.groupSendId) } },
      "routes/sms/message-journey.tsx": { path: `/sms/messages/${a.messageId}`, params: { id: String(a.messageId) } },
      "routes/sms/campaign-export.ts": {
        path: `/sms/campaigns/${a.groupSendId}/export`,
        params: { id: String(a.groupSendId) },
      },
      "routes/sms/webhook-deliveries.tsx": {
        path: `/sms/webhooks/${a.webhookEndpointId}`,
        params: { id: String(a.webhookEndpointId) },
      },
      "routes/auth/setup.tsx": { path: "/setup/unknown-token", params: { token: "unknown-token" } },
      // Opening a live e-mail link is the one GET that writes (accounts.test.ts); an unknown one changes nothing.
      "routes/auth/reset-password.tsx": { path: "/reset-password/unknown-token", params: { token: "unknown-token" } },
      "routes/auth/verify-email.tsx": { path: "/verify-email/unknown-token", params: { token: "unknown-token" } },
      "routes/account/confirm-email.tsx": {
        path: "/account/confirm-email/unknown-token",
        params: { token: "unknown-token" },
      },
      "routes/sms/import-contacts.tsx": { path: `/sms/importContacts?file=${a.importToken}` },
      "routes/sms/scheduled.tsx": { path: `/sms/scheduled?cancel=${a.scheduleId}` },
      "routes/sms/account-groups.tsx": { path: `/sms/accountGroups?panel=send&id=${a.groupId}` },
      "routes/sms/account-contacts.tsx": { path: `/sms/accountContacts?panel=delete&id=${a.contactId}` },
      "routes/shop/payment.tsx": { path: `/payment?orderId=${a.pendingOrderId}` },
      "routes/sms/api-token.tsx": { path: "/sms/apiToken?show=1" },
      "routes/content/support-inbox.tsx": { path: `/admin/support?id=${a.supportRequestId}` },
      "routes/admin/user-details.tsx": {
        path: `/admin/users/${a.customer.id}?page=2`,
        params: { id: String(a.customer.id) },
      },
    };
    const before = await databaseFingerprint();
    let loaders = 0;
    for (const route of appRoutes()) {
      const module = await routeModule(route.file);
      if (typeof module.loader !== "function") continue;
      loaders += 1;
      const { path, params } = own[route.file] ?? { path: `/${route.path.replace(/\/:[a-z]+\?$/i, "")}` };
      expect(path.includes(":"), `${route.file} needs a concrete path`).toBe(false);
      for (const user of [null, a.customer, admin]) {
        await call(module.loader as Parameters<typeof call>[0], makeRequest(path, { user }), params);
        expect(await databaseFingerprint(), `GET ${path} as ${user?.role ?? "visitor"}`).toBe(before);
      }
    }
    expect(loaders).toBeGreaterThan(30);
  });
});
