// The spec's messages when an operation fails for a reason other than the input: the database
// refuses (a trigger that aborts, or a table that is gone, in this file's own database copy).
// Each screen shows the message in place, keeps what the user typed, logs the cause and changes nothing.
import { afterEach, describe, expect, it, type MockInstance, vi } from "vitest";
import { usesPostgres } from "#app/db/client.server.ts";
import { statementFor } from "#app/db/statements.server.ts";
import { createContact } from "#app/modules/contacts/contacts.server.ts";
import { createGroup } from "#app/modules/contacts/groups.server.ts";
import { getBalance } from "#app/modules/credits/ledger.server.ts";
import { action as contactFormAction } from "#app/routes/content/contact.tsx";
import { action as supportAction } from "#app/routes/content/support.tsx";
import { action as contactsAction, loader as contactsLoader } from "#app/routes/sms/account-contacts.tsx";
import { action as groupsAction, loader as groupsLoader } from "#app/routes/sms/account-groups.tsx";
import { action as createContactAction } from "#app/routes/sms/create-contact.tsx";
import { action as createGroupAction } from "#app/routes/sms/create-group.tsx";
import { action as scheduleSmsAction } from "#app/routes/sms/schedule-sms.tsx";
import { action as sendSmsAction } from "#app/routes/sms/send-sms.tsx";
import { call, createTestUser, dataOf, makeRequest, statusOf } from "#tests/support/requests.ts";
import { grantCredits } from "#tests/support/sms.ts";

type Reply = { status?: string; error?: Record<string, string[] | null>; initialValue?: Record<string, unknown> };

const CAUSE = "injected database failure";
const SCHEDULE_FAILED = "Failed to schedule SMS, please check to ensure that you have enough credits";

/** One statement through the executor (the same text on both engines unless given each). */
const exec = async (text: string | { sqlite: string; postgres: string }) => await statementFor(text).run();
const row = async (text: string, ...params: unknown[]) => await statementFor(text).get(...params);

/** Makes every `event` on `table` fail until the test ends. */
async function failOn(table: string, event: "insert" | "update" | "delete") {
  const name = `fail_${event}_${table}`;
  // PostgreSQL's trigger runs a function: the one that raises, made once.
  if (usesPostgres())
    await exec(
      `create or replace function fail_injected() returns trigger language plpgsql as 'begin raise exception ''${CAUSE}''; end'`,
    );
  await exec({
    sqlite: `create trigger ${name} before ${event} on ${table} begin select raise(abort, '${CAUSE}'); end`,
    postgres: `create trigger ${name} before ${event} on ${table} for each row execute function fail_injected()`,
  });
  cleanups.push(() => exec({ sqlite: `drop trigger ${name}`, postgres: `drop trigger ${name} on ${table}` }));
}

/** Makes every read of `table` fail until the test ends. */
async function hide(table: string) {
  await exec(`alter table ${table} rename to ${table}_hidden`);
  cleanups.push(() => exec(`alter table ${table}_hidden rename to ${table}`));
}

/** What the engine says of a table that is not there. */
const missing = (table: string) => (usesPostgres() ? `relation "${table}" does not exist` : `no such table: ${table}`);

const count = async (table: string, userId: number) =>
  ((await row(`select count(*) as n from ${table} where user_id = ?`, userId)) as { n: number }).n;

let cleanups: (() => Promise<unknown>)[] = [];
let logged: MockInstance<typeof console.error> | undefined;

afterEach(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  cleanups = [];
  logged?.mockRestore();
});

/** Watches the log (console.error) to check that the cause was written there. */
function watchLog() {
  logged = vi.spyOn(console, "error").mockImplementation(() => {});
}

function expectCauseLogged(message: string, cause = CAUSE) {
  // An error's causes too (console.error prints them): Drizzle's PostgreSQL driver wraps the engine's.
  const messages = (error: Error): string =>
    error.cause instanceof Error ? `${error.message} ${messages(error.cause)}` : error.message;
  const lines = (logged?.mock.calls ?? []).map((args) =>
    args.map((a) => (a instanceof Error ? messages(a) : String(a))).join(" "),
  );
  expect(
    lines.some((line) => line.includes(message) && line.includes(cause)),
    lines.join("\n"),
  ).toBe(true);
}

/** The form came back with the message above it and the posted values. */
function expectFormFailure(result: unknown, message: string, typed: Record<string, string>) {
  expect(statusOf(result)).toBe(500);
  const reply = dataOf<Reply>(result);
  expect(reply.error?.[""]).toEqual([message]);
  expect(reply.initialValue).toMatchObject(typed);
  expectCauseLogged(message);
}

describe("a database failure while saving", () => {
  it('send SMS: "Error sending SMS", the form kept, no credits taken, no message', async () => {
    const user = await createTestUser();
    await grantCredits(user.id, 5);
    await failOn("sms_messages", "insert");
    watchLog();
    const form = { intent: "send", phoneNumber: "+12025550100", message: "Hello there" };
    const result = await call(sendSmsAction, makeRequest("/sms/sendSms", { user, form }));
    expectFormFailure(result, "Error sending SMS", { phoneNumber: "+12025550100", message: "Hello there" });
    expect(await getBalance(user.id)).toBe(5);
    expect(await count("sms_messages", user.id)).toBe(0);
  });

  it('send SMS from a contact\'s panel and to a group: "Error sending SMS", nothing taken or queued', async () => {
    const user = await createTestUser();
    await grantCredits(user.id, 5);
    const group = await createGroup(user.id, { name: "Team", description: "All of us" });
    const contact = await createContact(user.id, {
      name: "Ann",
      phone: "+12025550111",
      email: "ann@example.com",
      groupIds: [group.id],
    });
    await failOn("sms_messages", "insert");
    await failOn("group_sends", "insert");
    watchLog();
    const toContact = await call(
      contactsAction,
      makeRequest(`/sms/accountContacts?panel=send&id=${contact.id}`, {
        user,
        form: { intent: "send", id: String(contact.id), message: "Hi Ann" },
      }),
    );
    expectFormFailure(toContact, "Error sending SMS", { message: "Hi Ann" });
    const toGroup = await call(
      groupsAction,
      makeRequest(`/sms/accountGroups?panel=send&id=${group.id}`, {
        user,
        form: { intent: "send", id: String(group.id), message: "Hi team" },
      }),
    );
    expectFormFailure(toGroup, "Error sending SMS", { message: "Hi team" });
    expect(await getBalance(user.id)).toBe(5);
    expect(await count("sms_messages", user.id)).toBe(0);
    expect(await count("group_sends", user.id)).toBe(0);
  });

  it('support and contact forms: "Error sending support request", the message kept, nothing saved', async () => {
    const user = await createTestUser();
    await failOn("support_requests", "insert");
    watchLog();
    const support = await call(
      supportAction,
      makeRequest("/sms/support", {
        user,
        ip: "203.0.113.10",
        form: { subject: "Receipts", message: "Where are they?" },
      }),
    );
    expectFormFailure(support, "Error sending support request", { subject: "Receipts", message: "Where are they?" });
    const contact = await call(
      contactFormAction,
      makeRequest("/sms/contact", {
        ip: "203.0.113.11",
        form: { name: "Vera", email: "vera@example.com", subject: "Pricing", message: "Volume?" },
      }),
    );
    expectFormFailure(contact, "Error sending support request", {
      name: "Vera",
      email: "vera@example.com",
      message: "Volume?",
    });
    expect(await row("select count(*) as n from support_requests")).toEqual({ n: 0 });
  });

  it('create contact: "Error creating contact", the form kept, neither the contact nor its groups saved', async () => {
    const user = await createTestUser();
    const group = await createGroup(user.id, { name: "Friends", description: "People we like" });
    await failOn("contact_group_members", "insert");
    watchLog();
    const form = { name: "Ben", phoneNumber: "+12025550122", email: "ben@example.com", groupIds: String(group.id) };
    const result = await call(createContactAction, makeRequest("/sms/createContact", { user, form }));
    expectFormFailure(result, "Error creating contact", {
      name: "Ben",
      phoneNumber: "+12025550122",
      email: "ben@example.com",
    });
    expect(await count("contacts", user.id)).toBe(0);
  });

  it('create group: "Error creating group", the form kept, nothing saved', async () => {
    const user = await createTestUser();
    await failOn("contact_groups", "insert");
    watchLog();
    const form = { groupName: "Club", description: "Tuesday nights" };
    const result = await call(createGroupAction, makeRequest("/sms/createGroup", { user, form }));
    expectFormFailure(result, "Error creating group", form);
    expect(await count("contact_groups", user.id)).toBe(0);
  });
});

describe("a database failure while scheduling", () => {
  const timing = { firstSend: "2030-01-15T09:00", repeat: "weekly", endDate: "2030-03-01", timeZone: "UTC" };

  it('Schedule SMS: "Failed to schedule SMS, ...", the form kept, nothing scheduled', async () => {
    const user = await createTestUser();
    await grantCredits(user.id, 5);
    await failOn("schedules", "insert");
    watchLog();
    const form = { ...timing, phoneNumber: "+12025550155", message: "Weekly hello" };
    const result = await call(scheduleSmsAction, makeRequest("/sms/scheduleSms", { user, form }));
    expectFormFailure(result, SCHEDULE_FAILED, { phoneNumber: "+12025550155", message: "Weekly hello", ...timing });
    expect(await count("schedules", user.id)).toBe(0);
    expect(await getBalance(user.id)).toBe(5);
  });

  it("the contact's and the group's schedule panels: the same message, the panel's form kept", async () => {
    const user = await createTestUser();
    await grantCredits(user.id, 5);
    const group = await createGroup(user.id, { name: "Weekly", description: "Gets the news" });
    const contact = await createContact(user.id, {
      name: "Eve",
      phone: "+12025550166",
      email: "eve@example.com",
      groupIds: [group.id],
    });
    await failOn("schedules", "insert");
    watchLog();
    const toContact = await call(
      contactsAction,
      makeRequest(`/sms/accountContacts?panel=schedule&id=${contact.id}`, {
        user,
        form: { ...timing, intent: "schedule", id: String(contact.id), message: "Hi Eve" },
      }),
    );
    expectFormFailure(toContact, SCHEDULE_FAILED, { message: "Hi Eve", firstSend: timing.firstSend });
    const toGroup = await call(
      groupsAction,
      makeRequest(`/sms/accountGroups?panel=schedule&id=${group.id}`, {
        user,
        form: { ...timing, intent: "schedule", id: String(group.id), message: "Hi all" },
      }),
    );
    expectFormFailure(toGroup, SCHEDULE_FAILED, { message: "Hi all", repeat: "weekly" });
    expect(await count("schedules", user.id)).toBe(0);
  });
});

describe("a database failure while updating", () => {
  it('edit contact: "Failed to update contact" in the panel, what was typed kept, the contact unchanged', async () => {
    const user = await createTestUser();
    const contact = await createContact(user.id, {
      name: "Fay",
      phone: "+12025550177",
      email: "fay@example.com",
      groupIds: [],
    });
    await failOn("contacts", "update");
    watchLog();
    const form = {
      intent: "update",
      id: String(contact.id),
      name: "Fay Renamed",
      phoneNumber: "+12025550178",
      email: "fay@example.com",
      active: "on",
    };
    const result = await call(
      contactsAction,
      makeRequest(`/sms/accountContacts?panel=edit&id=${contact.id}`, { user, form }),
    );
    expectFormFailure(result, "Failed to update contact", { name: "Fay Renamed", phoneNumber: "+12025550178" });
    expect(await row("select name, phone from contacts where id = ?", contact.id)).toEqual({
      name: "Fay",
      phone: "+12025550177",
    });
  });

  it('edit group: "Failed to update group" in the panel, what was typed kept, the group unchanged', async () => {
    const user = await createTestUser();
    const group = await createGroup(user.id, { name: "Gardeners", description: "Green thumbs" });
    await failOn("contact_groups", "update");
    watchLog();
    const form = { intent: "update", id: String(group.id), groupName: "Growers", description: "Greener" };
    const result = await call(
      groupsAction,
      makeRequest(`/sms/accountGroups?panel=edit&id=${group.id}`, { user, form }),
    );
    expectFormFailure(result, "Failed to update group", { groupName: "Growers", description: "Greener" });
    expect(await row("select name from contact_groups where id = ?", group.id)).toEqual({
      name: "Gardeners",
    });
  });
});

describe("a database failure while deleting", () => {
  /** The confirmation stays open with the message in it (the post was to its own address). */
  function expectInPlace(result: unknown, message: string) {
    expect(statusOf(result)).toBe(500);
    expect(dataOf<Reply>(result).error?.[""]).toEqual([message]);
    expectCauseLogged(message);
  }

  it('contact: "Failed to delete contact" in the confirmation, the contact kept', async () => {
    const user = await createTestUser();
    const contact = await createContact(user.id, {
      name: "Cat",
      phone: "+12025550133",
      email: "cat@example.com",
      groupIds: [],
    });
    await failOn("contacts", "delete");
    watchLog();
    const form = { intent: "delete", id: String(contact.id) };
    const result = await call(
      contactsAction,
      makeRequest(`/sms/accountContacts?panel=delete&id=${contact.id}`, { user, form }),
    );
    expectInPlace(result, "Failed to delete contact");
    expect(await count("contacts", user.id)).toBe(1);
  });

  it('group: "Failed to delete group" in the confirmation, the group and its members kept', async () => {
    const user = await createTestUser();
    const group = await createGroup(user.id, { name: "Doomed", description: "Not today" });
    await createContact(user.id, {
      name: "Dan",
      phone: "+12025550144",
      email: "dan@example.com",
      groupIds: [group.id],
    });
    await failOn("contact_groups", "delete");
    watchLog();
    const form = { intent: "delete", id: String(group.id) };
    const result = await call(
      groupsAction,
      makeRequest(`/sms/accountGroups?panel=delete&id=${group.id}`, { user, form }),
    );
    expectInPlace(result, "Failed to delete group");
    expect(await count("contact_groups", user.id)).toBe(1);
    expect(await row("select count(*) as n from contact_group_members where group_id = ?", group.id)).toEqual({ n: 1 });
  });
});

describe("a database failure while reading a list", () => {
  it('contacts: "Error fetching contacts" in place of the list, not the error page', async () => {
    const user = await createTestUser();
    await hide("contacts");
    watchLog();
    const result = await call(contactsLoader, makeRequest("/sms/accountContacts", { user }));
    expect(statusOf(result)).toBe(200);
    expect(dataOf(result)).toEqual({ fetchError: "Error fetching contacts" });
    expectCauseLogged("Error fetching contacts", missing("contacts"));
  });

  it('groups: "Error fetching groups" in place of the list, not the error page', async () => {
    const user = await createTestUser();
    await hide("contact_groups");
    watchLog();
    const result = await call(groupsLoader, makeRequest("/sms/accountGroups", { user }));
    expect(statusOf(result)).toBe(200);
    expect(dataOf(result)).toEqual({ fetchError: "Error fetching groups" });
    expectCauseLogged("Error fetching groups", missing("contact_groups"));
  });
});
