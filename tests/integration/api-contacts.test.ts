import { getEnv } from "#app/utils/env.server.ts";
import { count, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "#app/db/client.server.ts";
import { contactGroups, contacts, groupSends } from "#app/db/schema/contacts.ts";
import { ErrorSchema } from "#app/api/schemas.ts";
import { ContactListSchema, ContactSchema } from "#app/api/resources/contacts.server.ts";
import { GroupSendSchema } from "#app/api/resources/group-sends.server.ts";
import { GroupListSchema, GroupSchema } from "#app/api/resources/groups.server.ts";
import { createContact } from "#app/modules/contacts/contacts.server.ts";
import { runGroupSend, startGroupSend } from "#app/modules/group-sends/group-send.server.ts";
import { createGroup } from "#app/modules/contacts/groups.server.ts";
import { getBalance } from "#app/modules/credits/ledger.server.ts";
import { findGroupSendJob } from "#app/queue/jobs/group-send.server.ts";
import { apiCustomer, callApi } from "#tests/support/api.ts";
import { contactCount, messagesOfGroupSend, seedGroup } from "#tests/support/contacts.ts";

function expectError(response: { status: number; json: unknown }, status: number, code: string, field?: string) {
  expect(response.status).toBe(status);
  const body = ErrorSchema.parse(response.json);
  expect(body.error.code).toBe(code);
  if (field !== undefined) expect(body.error.field).toBe(field);
}

const groupCount = async (userId: number) =>
  (await getDb().select({ n: count() }).from(contactGroups).where(eq(contactGroups.userId, userId)).get())!.n;
const groupSendCount = async (userId: number) =>
  (await getDb().select({ n: count() }).from(groupSends).where(eq(groupSends.userId, userId)).get())!.n;

/** Every page of a list, following nextCursor. */
async function allPages(key: string, path: string, limit: number) {
  const pages: { id: number; name: string }[][] = [];
  let cursor: string | null = null;
  do {
    const separator = path.includes("?") ? "&" : "?";
    const url: string = `${path}${separator}limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`;
    const answer = await callApi("GET", url, { key });
    expect(answer.status, url).toBe(200);
    pages.push(answer.json.data);
    cursor = answer.json.nextCursor;
  } while (cursor);
  return pages;
}

describe("POST /api/v1/contacts", () => {
  it("creates a contact with the Create Contact screen's rules and answers it", async () => {
    const customer = await apiCustomer();
    const group = await createGroup(customer.id, { name: "Staff", description: "Work" });
    const created = await callApi("POST", "/api/v1/contacts", {
      key: customer.key,
      json: {
        name: "  Ada Lovelace ",
        phone: "(202) 555-0160",
        email: "Ada@Example.com",
        groupIds: [group.id, group.id],
      },
    });
    expect(created.status).toBe(201);
    expect(ContactSchema.parse(created.json)).toEqual({
      id: expect.any(Number),
      name: "Ada Lovelace",
      phone: "+12025550160",
      email: "ada@example.com",
      timeZone: null,
      active: true,
      groups: [{ id: group.id, name: "Staff" }],
    });
    expect(
      (
        await callApi("POST", "/api/v1/contacts", {
          key: customer.key,
          json: { name: "B", phone: "+12025550161", email: "b@example.com" },
        })
      ).json.groups,
    ).toEqual([]);
  });

  it("keeps a time zone for quiet hours: set, left alone by a PATCH without it, cleared by null", async () => {
    const customer = await apiCustomer();
    const json = { name: "Kim", phone: "+12025550170", email: "kim@example.com", timeZone: "europe/berlin" };
    const created = await callApi("POST", "/api/v1/contacts", { key: customer.key, json });
    expect(created.json.timeZone).toBe("Europe/Berlin");
    const path = `/api/v1/contacts/${created.json.id}`;
    const renamed = await callApi("PATCH", path, { key: customer.key, json: { name: "Kim Lee" } });
    expect(renamed.json).toMatchObject({ name: "Kim Lee", timeZone: "Europe/Berlin" });
    const refused = await callApi("PATCH", path, { key: customer.key, json: { timeZone: "Mars/Olympus" } });
    expect(refused.status).toBe(422);
    expect(refused.json.error.field).toBe("timeZone");
    expect((await callApi("GET", path, { key: customer.key })).json.timeZone).toBe("Europe/Berlin");
    const cleared = await callApi("PATCH", path, { key: customer.key, json: { timeZone: null } });
    expect(cleared.json.timeZone).toBeNull();
  });

  it("refuses bad input with the field at fault and creates nothing", async () => {
    const customer = await apiCustomer();
    const other = await apiCustomer();
    const othersGroup = await createGroup(other.id, { name: "Theirs", description: "Not yours" });
    await createContact(customer.id, { name: "Existing", phone: "+12025550162", email: "e@example.com", groupIds: [] });
    const post = (json: unknown) => callApi("POST", "/api/v1/contacts", { key: customer.key, json });
    const valid = { name: "New", phone: "+12025550163", email: "new@example.com" };
    expectError(await post({ ...valid, name: " " }), 422, "validation_failed", "name");
    expectError(await post({ ...valid, name: "n".repeat(101) }), 422, "validation_failed", "name");
    expectError(await post({ ...valid, phone: "555-CALL-NOW" }), 422, "validation_failed", "phone");
    expectError(await post({ ...valid, email: "not-an-email" }), 422, "validation_failed", "email");
    expectError(await post({ name: "New", phone: "+12025550163" }), 422, "validation_failed", "email");
    expectError(await post({ ...valid, groupIds: ["1"] }), 422, "validation_failed", "groupIds.0");
    expectError(await post({ ...valid, groupIds: [true] }), 422, "validation_failed", "groupIds.0");
    expectError(await post({ ...valid, groupIds: 5 }), 422, "validation_failed", "groupIds");
    expectError(await post({ ...valid, status: false }), 422, "validation_failed", "status");
    const duplicate = await post({ ...valid, phone: "(202) 555-0162" });
    expectError(duplicate, 422, "validation_failed", "phone");
    expect(duplicate.json.error.message).toBe(
      "You already have a contact with the phone number +12025550162 (Existing)",
    );
    // Another account's group is not found, and the contact is not made either.
    expectError(await post({ ...valid, groupIds: [othersGroup.id] }), 404, "not_found", "groupIds");
    expect(await contactCount(customer.id)).toBe(1);
    expect(await contactCount(other.id)).toBe(0);
  });
});

describe("GET /api/v1/contacts", () => {
  it("pages through the user's contacts A to Z by cursor, filters by group, and shows no one else's", async () => {
    const customer = await apiCustomer();
    const other = await apiCustomer();
    const group = await createGroup(customer.id, { name: "Evens", description: "Every other" });
    const names = Array.from(
      { length: 23 },
      (_, i) => `${i % 2 ? "b" : "B"}${String.fromCharCode(97 + ((i * 7) % 23))} person ${i}`,
    );
    for (const [i, name] of names.entries()) {
      await createContact(customer.id, {
        name,
        phone: `+1202555${String(1000 + i)}`,
        email: `p${i}@example.com`,
        groupIds: i % 2 ? [] : [group.id],
      });
    }
    await createContact(other.id, { name: "Other's", phone: "+12025559999", email: "o@example.com", groupIds: [] });

    const pages = await allPages(customer.key, "/api/v1/contacts", 10);
    expect(pages.map((p) => p.length)).toEqual([10, 10, 3]);
    const sorted = [...names].sort((x, y) => x.toLowerCase().localeCompare(y.toLowerCase()));
    expect(pages.flat().map((c) => c.name)).toEqual(sorted);
    ContactListSchema.parse({ data: pages[0], nextCursor: null });

    const members = (await allPages(customer.key, `/api/v1/contacts?group=${group.id}`, 5)).flat();
    expect(members).toHaveLength(12);
    expect(members.every((c) => (c as unknown as { groups: { id: number }[] }).groups[0].id === group.id)).toBe(true);

    expect(
      (await callApi("GET", "/api/v1/contacts", { key: other.key })).json.data.map((c: { name: string }) => c.name),
    ).toEqual(["Other's"]);
    expectError(await callApi("GET", `/api/v1/contacts?group=${group.id}`, { key: other.key }), 404, "not_found");
    expectError(
      await callApi("GET", "/api/v1/contacts?group=abc", { key: customer.key }),
      400,
      "invalid_request",
      "group",
    );
    expectError(
      await callApi("GET", "/api/v1/contacts?cursor=nonsense", { key: customer.key }),
      400,
      "invalid_request",
      "cursor",
    );
    expectError(
      await callApi("GET", "/api/v1/contacts?limit=0", { key: customer.key }),
      400,
      "invalid_request",
      "limit",
    );
    // A cursor of another list is not one of this list's.
    const groupsCursor = Buffer.from('g1:["Evens",1]').toString("base64url");
    expectError(
      await callApi("GET", `/api/v1/contacts?cursor=${groupsCursor}`, { key: customer.key }),
      400,
      "invalid_request",
      "cursor",
    );
  });
});

describe("groups", () => {
  it("creates groups with the Create Group screen's rules and lists them A to Z with their member counts", async () => {
    const customer = await apiCustomer();
    const other = await apiCustomer();
    const post = (json: unknown) => callApi("POST", "/api/v1/groups", { key: customer.key, json });
    const created = await post({ name: "Customers", description: "Everyone who bought" });
    expect(created.status).toBe(201);
    expect(GroupSchema.parse(created.json)).toEqual({
      id: expect.any(Number),
      name: "Customers",
      description: "Everyone who bought",
      members: 0,
    });
    const duplicate = await post({ name: "CUSTOMERS", description: "Again" });
    expectError(duplicate, 422, "validation_failed", "name");
    expect(duplicate.json.error.message).toBe('You already have a group named "CUSTOMERS"');
    expectError(await post({ name: "No description" }), 422, "validation_failed", "description");
    expectError(await post({ name: "", description: "x" }), 422, "validation_failed", "name");
    expectError(await post({ name: "x", description: "d".repeat(501) }), 422, "validation_failed", "description");
    expect(await groupCount(customer.id)).toBe(1);

    for (const name of ["beta", "Alpha", "delta", "Charlie", "echo"]) await post({ name, description: "d" });
    await seedGroup(customer.id, 3);
    const pages = await allPages(customer.key, "/api/v1/groups", 2);
    const all = pages.flat() as unknown as { name: string; members: number }[];
    expect(all.slice(0, 6).map((g) => g.name)).toEqual(["Alpha", "beta", "Charlie", "Customers", "delta", "echo"]);
    expect(all.find((g) => g.name.startsWith("Group "))?.members).toBe(3);
    GroupListSchema.parse({ data: all, nextCursor: null });
    expect((await callApi("GET", "/api/v1/groups", { key: other.key })).json).toEqual({ data: [], nextCursor: null });
  });
});

describe("GET /api/v1/groups with a bad page query", () => {
  it("answers 400 invalid_request naming the parameter at fault, as the contacts list does", async () => {
    const customer = await apiCustomer();
    for (const name of ["Alpha", "Beta"]) await createGroup(customer.id, { name, description: "d" });
    for (const i of [0, 1])
      await createContact(customer.id, {
        name: `P${i}`,
        phone: `+1202555017${i}`,
        email: `p${i}@example.com`,
        groupIds: [],
      });
    const list = (query: string) => callApi("GET", `/api/v1/groups?${query}`, { key: customer.key });
    expectError(await list("limit=0"), 400, "invalid_request", "limit");
    expectError(await list("limit=101"), 400, "invalid_request", "limit");
    expectError(await list("limit=abc"), 400, "invalid_request", "limit");
    expectError(await list("limit=1.5"), 400, "invalid_request", "limit");
    expectError(await list("cursor=nonsense"), 400, "invalid_request", "cursor");
    // A cursor the contacts list gave out is not one of this list's.
    const contactsCursor = (await callApi("GET", "/api/v1/contacts?limit=1", { key: customer.key })).json.nextCursor;
    expect(contactsCursor).toEqual(expect.any(String));
    expectError(await list(`cursor=${encodeURIComponent(contactsCursor)}`), 400, "invalid_request", "cursor");
    // The groups list has no group filter.
    expectError(await list("group=1"), 400, "invalid_request", "group");
    // The same list with good values answers.
    const first = await list("limit=1");
    expect(first.status).toBe(200);
    expect(first.json.data.map((g: { name: string }) => g.name)).toEqual(["Alpha"]);
    expect(
      (await list(`limit=1&cursor=${encodeURIComponent(first.json.nextCursor)}`)).json.data.map(
        (g: { name: string }) => g.name,
      ),
    ).toEqual(["Beta"]);
  });
});

describe("POST /api/v1/groups/{id}/messages", () => {
  it("starts the group send as the screen does and reports it as the screen words it", async () => {
    const customer = await apiCustomer(10);
    const { groupId, contactIds } = await seedGroup(customer.id, 4);
    await getDb().update(contacts).set({ status: false }).where(eq(contacts.id, contactIds[1])).run();
    // A stored number that no longer validates (kept from before a numbering-plan change).
    await getDb().update(contacts).set({ phone: "+1202" }).where(eq(contacts.id, contactIds[3])).run();

    const started = await callApi("POST", `/api/v1/groups/${groupId}/messages`, {
      key: customer.key,
      json: { body: "Sale today" },
    });
    expect(started.status).toBe(202);
    const send = GroupSendSchema.parse(started.json);
    expect(send).toMatchObject({
      groupId,
      body: "Sale today",
      status: "queued",
      finished: false,
      total: 4,
      queued: 0,
      skipped: 0,
    });
    expect(send.statusUrl).toBe(`${getEnv().appUrl}/api/v1/group-sends/${send.id}`);
    expect(await findGroupSendJob(send.id)).toBeTruthy();

    await runGroupSend(send.id);
    const report = await callApi("GET", `/api/v1/group-sends/${send.id}`, { key: customer.key });
    expect(report.status).toBe(200);
    expect(GroupSendSchema.parse(report.json)).toMatchObject({
      status: "done",
      finished: true,
      queued: 2,
      credits: 2,
      skipped: 2,
      skips: [
        { name: "Member 1001", phone: "+12025551001", reason: "opted out" },
        { name: "Member 1003", phone: "+1202", reason: "invalid phone number" },
      ],
      summary: "Queued 2 messages (2 credits); skipped 2: +12025551001 opted out, +1202 invalid phone number.",
    });
    expect(await messagesOfGroupSend(send.id)).toHaveLength(2);
    expect(await getBalance(customer.id)).toBe(8);
  });

  it("refuses what the screen refuses, sending and recording nothing", async () => {
    const customer = await apiCustomer(2);
    const other = await apiCustomer(100);
    const post = (id: number | string, json: unknown, key = customer.key) =>
      callApi("POST", `/api/v1/groups/${id}/messages`, { key, json });
    const { groupId } = await seedGroup(customer.id, 3);
    const empty = await createGroup(customer.id, { name: "Empty", description: "none" });
    const { groupId: optedOut, contactIds } = await seedGroup(customer.id, 2, 2000);
    for (const id of contactIds) await getDb().update(contacts).set({ status: false }).where(eq(contacts.id, id)).run();

    const none = await post(empty.id, { body: "hi" });
    expectError(none, 422, "nothing_to_send");
    expect(none.json.error.message).toBe("This group has no contacts: add contacts to it first");
    const allOut = await post(optedOut, { body: "hi" });
    expectError(allOut, 422, "nothing_to_send");
    expect(allOut.json.error.message).toBe("All 2 contacts of this group are inactive (opted out): nothing to send");
    // 3 members x 1 credit, with 2 credits: nothing at all is sent.
    const short = await post(groupId, { body: "hi" });
    expectError(short, 402, "insufficient_credits");
    expect(short.json.error.message).toMatch(/costs 3 .* balance is 2/);
    expectError(await post(groupId, { body: "" }), 422, "validation_failed", "body");
    expectError(await post(groupId, { body: "x".repeat(1531) }), 422, "validation_failed", "body");
    expectError(await post(groupId, { message: "hi" }), 422, "validation_failed");
    // Another account's group is not found, whoever pays.
    expectError(await post(groupId, { body: "hi" }, other.key), 404, "not_found");
    for (const id of ["abc", "0", "-1", "1e3", "..", "%2e%2e"])
      expectError(await post(id, { body: "hi" }), 404, "not_found");
    expect((await groupSendCount(customer.id)) + (await groupSendCount(other.id))).toBe(0);
    expect(await getBalance(customer.id)).toBe(2);
    expect(await getBalance(other.id)).toBe(100);
  });

  it("answers a retried Idempotency-Key with the same group send and sends nothing new", async () => {
    const customer = await apiCustomer(10);
    const { groupId } = await seedGroup(customer.id, 2);
    const other = await seedGroup(customer.id, 1, 3000);
    const request = { key: customer.key, json: { body: "Once only" }, headers: { "idempotency-key": "promo-1" } };
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => callApi("POST", `/api/v1/groups/${groupId}/messages`, request)),
    );
    expect(new Set(answers.map((a) => a.status))).toEqual(new Set([202]));
    expect(new Set(answers.map((a) => a.json.id)).size).toBe(1);
    expect(answers.filter((a) => a.headers["Idempotent-Replayed"] === "true")).toHaveLength(4);
    expect(await groupSendCount(customer.id)).toBe(1);

    await runGroupSend(answers[0].json.id);
    const replay = await callApi("POST", `/api/v1/groups/${groupId}/messages`, request);
    expect(replay.status).toBe(202);
    expect(replay.headers["Idempotent-Replayed"]).toBe("true");
    expect(replay.json).toMatchObject({ id: answers[0].json.id, finished: true, queued: 2 });
    expect(await getBalance(customer.id)).toBe(8);

    expectError(
      await callApi("POST", `/api/v1/groups/${groupId}/messages`, { ...request, json: { body: "Other text" } }),
      409,
      "idempotency_conflict",
      "Idempotency-Key",
    );
    expectError(
      await callApi("POST", `/api/v1/groups/${other.groupId}/messages`, request),
      409,
      "idempotency_conflict",
    );
    // The Groups screen's one-time form keys live beside the API's keys without meeting them.
    const fromForm = await startGroupSend(customer.id, groupId, "Once only", { requestKey: "promo-1" });
    expect(fromForm.id).not.toBe(answers[0].json.id);
    expect(await groupSendCount(customer.id)).toBe(2);
    // Keys are per account.
    const b = await apiCustomer(10);
    const bGroup = await seedGroup(b.id, 1, 4000);
    expect(
      (await callApi("POST", `/api/v1/groups/${bGroup.groupId}/messages`, { ...request, key: b.key })).headers[
        "Idempotent-Replayed"
      ],
    ).toBeUndefined();
  });

  it("GET /api/v1/group-sends/{id} is a 404 for another account's send", async () => {
    const a = await apiCustomer(5);
    const b = await apiCustomer(5);
    const { groupId } = await seedGroup(a.id, 1);
    const started = await callApi("POST", `/api/v1/groups/${groupId}/messages`, { key: a.key, json: { body: "hi" } });
    expectError(await callApi("GET", `/api/v1/group-sends/${started.json.id}`, { key: b.key }), 404, "not_found");
    expectError(await callApi("GET", "/api/v1/group-sends/999999", { key: a.key }), 404, "not_found");
    expect((await callApi("GET", `/api/v1/group-sends/${started.json.id}`, { key: a.key })).status).toBe(200);
  });
});
