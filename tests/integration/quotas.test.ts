// Per-account quotas: the last place is taken, the next one is refused with a message that says what
// to do (beside the form on the web, quota_exceeded from the REST API), and nothing is created.
import { count, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "#app/db/client.server.ts";
import { contactGroups } from "#app/db/schema/contacts.ts";
import { schedules } from "#app/db/schema/scheduling.ts";
import { orders, packages } from "#app/db/schema/shop.ts";
import { createContact } from "#app/modules/contacts/contacts.server.ts";
import { createGroup } from "#app/modules/contacts/groups.server.ts";
import { cancelSchedule, createSchedule } from "#app/modules/scheduling/schedules.server.ts";
import { action as createContactAction } from "#app/routes/sms/create-contact.tsx";
import { action as createGroupAction } from "#app/routes/sms/create-group.tsx";
import { action as scheduleAction } from "#app/routes/sms/schedule-sms.tsx";
import { action as cartAction } from "#app/routes/shop/shopping-cart.tsx";
import { action as apiTokenAction } from "#app/routes/sms/api-token.tsx";
import { listOwnApiKeys } from "#app/modules/api-keys/keys.server.ts";
import { apiCustomer, callApi } from "#tests/support/api.ts";
import { contactCount } from "#tests/support/contacts.ts";
import {
  call,
  createTestUser,
  dataOf,
  locationOf,
  makeRequest,
  statusOf,
  type TestUser,
} from "#tests/support/requests.ts";
import { addToCart } from "#tests/support/shop.ts";
import { grantCredits } from "#tests/support/sms.ts";

// Read at the first getEnv(), after the imports (nothing reads the environment at import).
process.env.QUOTA_CONTACTS = "2";
process.env.QUOTA_GROUPS = "2";
process.env.QUOTA_SCHEDULES = "2";
process.env.QUOTA_PENDING_ORDERS = "2";
process.env.QUOTA_API_KEYS = "2";

// Small quotas, so each is reached in a few steps; the app reads them once, at first import.
type Reply = { error?: Record<string, string[] | null> };
const formErrors = (result: unknown) => dataOf<Reply>(result).error?.[""] ?? [];

const CONTACTS_FULL =
  "Your account has reached its limit of 2 contacts. Delete contacts you no longer need before adding more.";
const GROUPS_FULL =
  "Your account has reached its limit of 2 groups. Delete a group you no longer need before creating another.";
const SCHEDULES_FULL =
  "Your account has reached its limit of 2 active schedules. Cancel a schedule you no longer need (Scheduled SMS) before adding another.";
const KEYS_FULL =
  "Your account has reached its limit of 2 API keys. Revoke a key you no longer use before creating another.";
const ORDERS_FULL =
  "Your account has reached its limit of 2 unpaid orders. Pay or cancel one of them (My Orders) before placing another.";

const contact = (n: number) => ({
  name: `Person ${n}`,
  phone: `+1202555${String(1000 + n)}`,
  email: `p${n}@example.com`,
  groupIds: [],
});
const groupCount = async (userId: number) =>
  (await getDb().select({ n: count() }).from(contactGroups).where(eq(contactGroups.userId, userId)).get())!.n;
const scheduleCount = async (userId: number) =>
  (await getDb().select({ n: count() }).from(schedules).where(eq(schedules.userId, userId)).get())!.n;
const orderCount = async (userId: number) =>
  (await getDb().select({ n: count() }).from(orders).where(eq(orders.userId, userId)).get())!.n;
const inADay = () => new Date(Date.now() + 86_400_000).toISOString();

function schedule(userId: number) {
  return createSchedule(userId, {
    target: { kind: "phone", to: "+12025550180" },
    body: "Hi",
    repeat: "none",
    firstSendAt: Date.now() + 86_400_000,
    timeZone: "UTC",
  });
}

describe("contacts quota", () => {
  it("the web form refuses the contact past the quota with the reason above the form; nothing is created", async () => {
    const user = await createTestUser();
    await createContact(user.id, contact(1));
    const second = await call(
      createContactAction,
      makeRequest("/sms/createContact", {
        user,
        form: { name: "Two", phoneNumber: "+12025552002", email: "two@example.com" },
      }),
    );
    expect(locationOf(second)).toMatch(/^\/sms\/accountContacts/);
    const third = await call(
      createContactAction,
      makeRequest("/sms/createContact", {
        user,
        form: { name: "Three", phoneNumber: "+12025552003", email: "three@example.com" },
      }),
    );
    expect(statusOf(third)).toBe(400);
    expect(formErrors(third)).toEqual(["Failed to create contact.", CONTACTS_FULL]);
    expect(await contactCount(user.id)).toBe(2);
    // Another account has its own quota.
    const other = await createTestUser();
    expect((await createContact(other.id, contact(1))).name).toBe("Person 1");
  });

  it("the API answers 403 quota_exceeded and creates nothing", async () => {
    const user = await apiCustomer();
    for (const n of [1, 2])
      expect((await callApi("POST", "/api/v1/contacts", { key: user.key, json: contact(n) })).status).toBe(201);
    const refused = await callApi("POST", "/api/v1/contacts", { key: user.key, json: contact(3) });
    expect(refused.status).toBe(403);
    expect(refused.json).toEqual({ error: { code: "quota_exceeded", message: CONTACTS_FULL } });
    expect(await contactCount(user.id)).toBe(2);
  });
});

describe("groups quota", () => {
  it("the web form refuses the group past the quota; nothing is created", async () => {
    const user = await createTestUser();
    await createGroup(user.id, { name: "One", description: "" });
    const post = (name: string) =>
      call(createGroupAction, makeRequest("/sms/createGroup", { user, form: { groupName: name, description: "x" } }));
    expect(locationOf(await post("Two"))).toMatch(/^\/sms\/accountGroups/);
    const refused = await post("Three");
    expect(statusOf(refused)).toBe(400);
    expect(formErrors(refused)).toEqual(["Failed to create group.", GROUPS_FULL]);
    expect(await groupCount(user.id)).toBe(2);
  });

  it("the API answers 403 quota_exceeded and creates nothing", async () => {
    const user = await apiCustomer();
    for (const name of ["One", "Two"])
      expect(
        (await callApi("POST", "/api/v1/groups", { key: user.key, json: { name, description: "A group" } })).status,
      ).toBe(201);
    const refused = await callApi("POST", "/api/v1/groups", {
      key: user.key,
      json: { name: "Three", description: "A group" },
    });
    expect(refused.status).toBe(403);
    expect(refused.json).toEqual({ error: { code: "quota_exceeded", message: GROUPS_FULL } });
    expect(await groupCount(user.id)).toBe(2);
  });
});

describe("active schedules quota", () => {
  const form = {
    firstSend: "2030-01-15T09:00",
    repeat: "weekly",
    endDate: "2030-03-01",
    timeZone: "UTC",
    phoneNumber: "+44 7911 123456",
    message: "Hi",
  };

  it("the Schedule SMS form refuses the schedule past the quota; a cancelled schedule frees its place", async () => {
    const user = await createTestUser();
    await grantCredits(user.id, 10);
    const first = await schedule(user.id);
    await schedule(user.id);
    const refused = await call(scheduleAction, makeRequest("/sms/scheduleSms", { user, form }));
    expect(statusOf(refused)).toBe(400);
    expect(formErrors(refused)).toEqual([SCHEDULES_FULL]);
    expect(await scheduleCount(user.id)).toBe(2);
    await cancelSchedule(user.id, first.id);
    expect(locationOf(await call(scheduleAction, makeRequest("/sms/scheduleSms", { user, form })))).toBe(
      "/sms/scheduleSms",
    );
    expect(await scheduleCount(user.id)).toBe(3);
  });

  it("POST /messages with sendAt answers 403 quota_exceeded and schedules nothing", async () => {
    const user = await apiCustomer(10);
    const send = () =>
      callApi("POST", "/api/v1/messages", {
        key: user.key,
        json: { to: "+12025550180", body: "Later", sendAt: inADay() },
      });
    for (let i = 0; i < 2; i++) expect((await send()).status).toBe(201);
    const refused = await send();
    expect(refused.status).toBe(403);
    expect(refused.json).toEqual({ error: { code: "quota_exceeded", message: SCHEDULES_FULL } });
    expect(await scheduleCount(user.id)).toBe(2);
  });
});

describe("pending orders quota", () => {
  let pkg: typeof packages.$inferSelect;
  beforeAll(async () => {
    pkg = await getDb()
      .insert(packages)
      .values({ name: "Quota pack", priceCents: 500, credits: 100 })
      .returning()
      .get();
  });
  const placeOrder = (user: TestUser) =>
    call(
      cartAction,
      makeRequest("/shoppingCart", {
        user,
        form: { intent: "place-order", name: "Ada Lovelace", email: "ada@example.com", phone: "+1 555 123 4567" },
      }),
    );

  it("Place Order past the quota of unpaid orders says what to do and places nothing", async () => {
    const user = await createTestUser();
    for (let i = 0; i < 2; i++) {
      await addToCart(user, pkg.id, 1);
      expect(locationOf(await placeOrder(user))).toMatch(/^\/payment\?orderId=\d+$/);
    }
    await addToCart(user, pkg.id, 1);
    const refused = await placeOrder(user);
    expect(statusOf(refused)).toBe(400);
    expect(formErrors(refused)).toEqual([ORDERS_FULL]);
    expect(await orderCount(user.id)).toBe(2);
  });
});

describe("API keys quota", () => {
  it("Create API Key past the quota says so above the form and makes no key; a revoked key frees its place", async () => {
    const user = await createTestUser();
    const create = (name: string) =>
      call(
        apiTokenAction,
        makeRequest("/sms/apiToken", { user, form: { intent: "create", name, scopes: ["messages:read"] } }),
      );
    for (const name of ["One", "Two"]) expect(locationOf(await create(name))).toBe("/sms/apiToken");
    const refused = await create("Three");
    expect(statusOf(refused)).toBe(400);
    expect(dataOf<{ result: Reply }>(refused).result.error?.[""]).toEqual([KEYS_FULL]);
    expect((await listOwnApiKeys(user.id)).map((key) => key.name)).toEqual(["One", "Two"]);
    const [first] = await listOwnApiKeys(user.id);
    const revoke = makeRequest("/sms/apiToken", { user, form: { intent: "revoke", keyId: String(first.id) } });
    expect(locationOf(await call(apiTokenAction, revoke))).toBe("/sms/apiToken");
    expect(locationOf(await create("Three"))).toBe("/sms/apiToken");
  });
});

describe("race safety", () => {
  it("contacts created at once from two places never pass the quota", async () => {
    const user = await apiCustomer();
    const answers = await Promise.all(
      [3, 4, 5, 6].map((n) => callApi("POST", "/api/v1/contacts", { key: user.key, json: contact(n) })),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([201, 201, 403, 403]);
    expect(await contactCount(user.id)).toBe(2);
  });
});
