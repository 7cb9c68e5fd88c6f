import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "#app/db/client.server.ts";
import { contactGroups, contacts } from "#app/db/schema/contacts.ts";
import { smsMessages } from "#app/db/schema/sms.ts";
import { createContact, getContact, listContacts, setContactGroups } from "#app/modules/contacts/contacts.server.ts";
import { NotFoundError } from "#app/modules/contacts/errors.ts";
import { runGroupSend, startGroupSend } from "#app/modules/group-sends/group-send.server.ts";
import { createGroup, getGroup, listGroups } from "#app/modules/contacts/groups.server.ts";
import { saveImportUpload } from "#app/modules/contacts/import.server.ts";
import { getBalance } from "#app/modules/credits/ledger.server.ts";
import { action as contactsAction, loader as contactsLoader } from "#app/routes/sms/account-contacts.tsx";
import { action as groupsAction, loader as groupsLoader } from "#app/routes/sms/account-groups.tsx";
import { action as createContactAction, loader as createContactLoader } from "#app/routes/sms/create-contact.tsx";
import { action as createGroupAction } from "#app/routes/sms/create-group.tsx";
import { loader as groupSendStatusLoader } from "#app/routes/sms/group-send-status.ts";
import { action as importAction, loader as importLoader } from "#app/routes/sms/import-contacts.tsx";
import {
  call,
  createTestUser,
  dataOf,
  locationOf,
  makeRequest,
  statusOf,
  type TestUser,
} from "#tests/support/requests.ts";
import { grantCredits } from "#tests/support/sms.ts";
import { NUL_MESSAGE } from "#app/web/forms.ts";

type Reply = { status?: string; error?: Record<string, string[] | null> };

let phones = 0;
/** A fresh valid US number for each contact in this file. */
const nextPhone = () => `+1202555${String(1000 + ++phones).padStart(4, "0")}`;

function contactInput(groupIds: number[] = [], name = `Contact ${phones}`) {
  return { name, phone: nextPhone(), email: `c${phones}@example.com`, groupIds };
}

describe("customer B and customer A's contacts and groups", async () => {
  const a = await createTestUser();
  const b = await createTestUser();
  await grantCredits(a.id, 10);
  await grantCredits(b.id, 10);
  const groupA = await createGroup(a.id, { name: "A's customers", description: "Private" });
  const contactA = await createContact(a.id, contactInput([groupA.id], "Alice A"));
  const sendA = await startGroupSend(a.id, groupA.id, "hi");
  const ownContactB = await createContact(b.id, contactInput([], "Bob B"));
  const ownGroupB = await createGroup(b.id, { name: "B's", description: "Mine" });

  const expect404 = async (fn: Parameters<typeof call>[0], path: string, form?: Record<string, string | string[]>) => {
    const result = await call(fn, makeRequest(path, { user: b, form }));
    expect(statusOf(result), `${form ? "POST" : "GET"} ${path} ${JSON.stringify(form ?? {})}`).toBe(404);
  };

  it("gets 404 for every panel of the contacts list opened with A's contact id, and for A's group filter", async () => {
    for (const panel of ["edit", "send", "schedule", "delete"]) {
      await expect404(contactsLoader, `/sms/accountContacts?panel=${panel}&id=${contactA.id}`);
    }
    await expect404(contactsLoader, `/sms/accountContacts?group=${groupA.id}`);
  });

  it("gets 404 for every panel of the groups list opened with A's group id, and for A's group send", async () => {
    for (const panel of ["edit", "send", "schedule", "delete"]) {
      await expect404(groupsLoader, `/sms/accountGroups?panel=${panel}&id=${groupA.id}`);
    }
    await expect404(groupsLoader, `/sms/accountGroups?panel=sent&id=${groupA.id}&send=${sendA.id}`);
    await expect404(groupsLoader, `/sms/accountGroups?panel=sent&id=${ownGroupB.id}&send=${sendA.id}`);
    const status = await call(groupSendStatusLoader, makeRequest(`/sms/groupSends/${sendA.id}`, { user: b }), {
      id: String(sendA.id),
    });
    expect(statusOf(status)).toBe(404);
  });

  it("gets 404 editing, deleting, sending to or regrouping A's contact, and putting a contact in A's group", async () => {
    const edit = {
      intent: "update",
      id: String(contactA.id),
      name: "Hacked",
      phoneNumber: nextPhone(),
      email: "x@example.com",
    };
    await expect404(contactsAction, "/sms/accountContacts", edit);
    await expect404(contactsAction, "/sms/accountContacts", { ...edit, groupIds: [String(ownGroupB.id)] });
    await expect404(contactsAction, "/sms/accountContacts", { intent: "delete", id: String(contactA.id) });
    await expect404(contactsAction, "/sms/accountContacts", { intent: "send", id: String(contactA.id), message: "hi" });
    // B's own contact into A's group: the membership update refuses A's group id.
    await expect404(contactsAction, "/sms/accountContacts", {
      ...edit,
      id: String(ownContactB.id),
      groupIds: [String(groupA.id)],
    });
    await expect404(createContactAction, "/sms/createContact", {
      name: "Sneaky",
      phoneNumber: nextPhone(),
      email: "s@example.com",
      groupIds: [String(groupA.id)],
    });
    // The domain functions the API will call say the same.
    expect(await setContactGroups(b.id, contactA.id, [])).toBe(false);
    await expect(setContactGroups(b.id, ownContactB.id, [groupA.id])).rejects.toThrow(NotFoundError);
    expect(await getContact(b.id, contactA.id)).toBeNull();
  });

  it("gets 404 editing, deleting or sending to A's group", async () => {
    await expect404(groupsAction, "/sms/accountGroups", {
      intent: "update",
      id: String(groupA.id),
      groupName: "Hacked",
      description: "x",
    });
    await expect404(groupsAction, "/sms/accountGroups", { intent: "delete", id: String(groupA.id) });
    await expect404(groupsAction, "/sms/accountGroups", { intent: "send", id: String(groupA.id), message: "hi" });
    expect(await getGroup(b.id, groupA.id)).toBeNull();
  });

  it("gets 404 for A's CSV upload and import report", async () => {
    const token = await saveImportUpload(
      a.id,
      "a.csv",
      new TextEncoder().encode("name,phone,email\nZed,+12025550100,z@example.com\n"),
    );
    await expect404(importLoader, `/sms/importContacts?file=${token}`);
    await expect404(importAction, "/sms/importContacts", {
      intent: "import",
      token,
      name: "0",
      phone: "1",
      email: "2",
      hasHeader: "on",
    });
    expect(statusOf(await call(importLoader, makeRequest(`/sms/importContacts?file=${token}`, { user: a })))).toBe(200);
  });

  it("leaves A's data as it was, and never lists it for B", async () => {
    expect(await getContact(a.id, contactA.id)).toMatchObject({
      name: "Alice A",
      groups: [{ id: groupA.id, name: "A's customers" }],
    });
    expect(await getGroup(a.id, groupA.id)).toMatchObject({ name: "A's customers", members: 1 });
    expect((await listContacts(b.id, { page: 1 })).contacts.map((c) => c.id)).toEqual([ownContactB.id]);
    expect((await listGroups(b.id, { page: 1 })).groups.map((g) => g.id)).toEqual([ownGroupB.id]);
    expect(await getDb().select().from(smsMessages).where(eq(smsMessages.userId, b.id)).all()).toEqual([]);
    expect(await getBalance(b.id)).toBe(10);
  });
});

async function post(
  fn: Parameters<typeof call>[0],
  path: string,
  user: TestUser,
  form: Record<string, string | string[]>,
) {
  return call(fn, makeRequest(path, { user, form }));
}

describe("creating contacts and groups", () => {
  it("creates a contact in its groups and opens the list where it sits, with the toast", async () => {
    const user = await createTestUser();
    const vip = await createGroup(user.id, { name: "VIP", description: "Best customers" });
    // Eleven names before "Zoe" push her to page 2.
    for (let i = 0; i < 11; i++) await createContact(user.id, contactInput([], `Anna ${String(i).padStart(2, "0")}`));
    const result = await post(createContactAction, "/sms/createContact", user, {
      name: "Zoe",
      phoneNumber: "(202) 555-0188",
      email: "Zoe@Example.com",
      groupIds: [String(vip.id)],
    });
    expect(locationOf(result)).toBe("/sms/accountContacts?page=2");
    expect((result as Response).headers.get("Set-Cookie")).toContain("en_toast=");
    const zoe = (await getDb().select().from(contacts).where(eq(contacts.name, "Zoe")).get())!;
    expect(zoe).toMatchObject({ phone: "+12025550188", email: "zoe@example.com", status: true, userId: user.id });
    expect((await getContact(user.id, zoe.id))?.groups).toEqual([{ id: vip.id, name: "VIP" }]);
    const page2 = dataOf<{ list: { contacts: { name: string }[]; page: number } }>(
      await call(contactsLoader, makeRequest("/sms/accountContacts?page=2", { user })),
    );
    expect(page2.list.contacts.map((c) => c.name)).toEqual(["Anna 10", "Zoe"]);
  });

  it("refuses the same phone number twice with a clear field error", async () => {
    const user = await createTestUser();
    await createContact(user.id, { name: "First", phone: "+12025550177", email: "f@example.com", groupIds: [] });
    const result = await post(createContactAction, "/sms/createContact", user, {
      name: "Second",
      phoneNumber: "202-555-0177",
      email: "s@example.com",
    });
    expect(statusOf(result)).toBe(400);
    const reason = "You already have a contact with the phone number +12025550177 (First)";
    expect(dataOf<Reply>(result).error).toMatchObject({
      "": ["Failed to create contact.", reason],
      phoneNumber: [reason],
    });
    // Another user may keep the same number.
    const other = await createTestUser();
    expect(
      locationOf(
        await post(createContactAction, "/sms/createContact", other, {
          name: "Mine",
          phoneNumber: "+12025550177",
          email: "m@example.com",
        }),
      ),
    ).toMatch(/^\/sms\/accountContacts/);
  });

  it("says why a contact was not created: required fields, a bad number, a bad email", async () => {
    const user = await createTestUser();
    const result = await post(createContactAction, "/sms/createContact", user, {
      name: "",
      phoneNumber: "555-CALL",
      email: "nope",
    });
    expect(statusOf(result)).toBe(400);
    expect(dataOf<Reply>(result).error).toMatchObject({
      "": [
        "Failed to create contact.",
        "Name is required",
        '"555-CALL" is not a valid phone number',
        "Enter a valid email address",
      ],
      name: ["Name is required"],
      email: ["Enter a valid email address"],
    });
    const loaded = dataOf<{ groups: unknown[] }>(
      await call(createContactLoader, makeRequest("/sms/createContact", { user })),
    );
    expect(loaded.groups).toEqual([]);
  });

  it("refuses a NUL character in a field beside that field, creates nothing, then takes the corrected form", async () => {
    const user = await createTestUser();
    const form = { name: "Nul\u0000Name", phoneNumber: nextPhone(), email: "nul@example.com" };
    const refused = await post(createContactAction, "/sms/createContact", user, form);
    expect(statusOf(refused)).toBe(400);
    expect(dataOf<Reply>(refused).error).toMatchObject({ name: [NUL_MESSAGE] });
    expect(await listContacts(user.id, { page: 1 })).toMatchObject({ total: 0 });
    const created = await post(createContactAction, "/sms/createContact", user, { ...form, name: "Nul Name" });
    expect(statusOf(created)).toBe(302);
    expect((await listContacts(user.id, { page: 1 })).contacts.map((c) => c.name)).toEqual(["Nul Name"]);
  });

  it("ignores a stranger field named __proto__ holding a NUL character (the fuzz's find): the form goes through", async () => {
    const user = await createTestUser();
    const form: Record<string, string> = Object.fromEntries([
      ["name", "Proto Name"],
      ["phoneNumber", nextPhone()],
      ["email", "proto@example.com"],
      ["__proto__", "\u0000"],
    ]);
    const created = await post(createContactAction, "/sms/createContact", user, form);
    expect(statusOf(created)).toBe(302);
    expect((await listContacts(user.id, { page: 1 })).contacts.map((c) => c.name)).toEqual(["Proto Name"]);
  });

  it("creates a group, refuses its name twice, and requires both fields", async () => {
    const user = await createTestUser();
    const created = await post(createGroupAction, "/sms/createGroup", user, {
      groupName: "Staff",
      description: "Everyone at work",
    });
    expect(locationOf(created)).toBe("/sms/accountGroups");
    const twice = await post(createGroupAction, "/sms/createGroup", user, { groupName: "staff", description: "Again" });
    expect(statusOf(twice)).toBe(400);
    expect(dataOf<Reply>(twice).error).toMatchObject({
      "": ["Failed to create group.", 'You already have a group named "staff"'],
      groupName: ['You already have a group named "staff"'],
    });
    const empty = await post(createGroupAction, "/sms/createGroup", user, { groupName: " ", description: "" });
    expect(dataOf<Reply>(empty).error).toMatchObject({
      groupName: ["Group name is required"],
      description: ["Group description is required"],
    });
  });
});

describe("the contacts list's panels", () => {
  it("edits a contact, its status and its group membership, keeping the page", async () => {
    const user = await createTestUser();
    const one = await createGroup(user.id, { name: "One", description: "1" });
    const two = await createGroup(user.id, { name: "Two", description: "2" });
    const contact = await createContact(user.id, contactInput([one.id], "Carl"));
    const panel = dataOf<{ panel: { kind: string; contact: { id: number } }; groups: { name: string }[] }>(
      await call(contactsLoader, makeRequest(`/sms/accountContacts?panel=edit&id=${contact.id}`, { user })),
    );
    expect(panel.panel).toMatchObject({ kind: "edit", contact: { id: contact.id } });
    expect(panel.groups.map((g) => g.name)).toEqual(["One", "Two"]);
    const result = await post(contactsAction, `/sms/accountContacts?page=3&panel=edit&id=${contact.id}`, user, {
      intent: "update",
      id: String(contact.id),
      name: "Carl Jr",
      phoneNumber: contact.phone,
      email: "carl@example.com",
      groupIds: [String(two.id)],
    });
    // Back to the page it came from, with the panel closed.
    expect(locationOf(result)).toBe("/sms/accountContacts?page=3");
    expect(await getContact(user.id, contact.id)).toMatchObject({
      name: "Carl Jr",
      email: "carl@example.com",
      status: false,
      groups: [{ id: two.id, name: "Two" }],
    });
  });

  it("sends to one contact through the normal send path, and refuses an inactive one", async () => {
    const user = await createTestUser();
    await grantCredits(user.id, 3);
    const contact = await createContact(user.id, contactInput([], "Dora"));
    const sent = await post(contactsAction, `/sms/accountContacts?panel=send&id=${contact.id}`, user, {
      intent: "send",
      id: String(contact.id),
      message: "Your table is ready",
    });
    expect(locationOf(sent)).toBe("/sms/accountContacts");
    const message = await getDb().select().from(smsMessages).where(eq(smsMessages.userId, user.id)).get();
    expect(message).toMatchObject({
      toPhone: contact.phone,
      body: "Your table is ready",
      contactId: contact.id,
      status: "queued",
    });
    expect(await getBalance(user.id)).toBe(2);

    const short = await post(contactsAction, "/sms/accountContacts", user, {
      intent: "send",
      id: String(contact.id),
      message: "y".repeat(400),
    });
    expect(dataOf<Reply>(short).error?.[""]).toEqual([
      "Failed to send SMS, please check to ensure that you have enough credits",
      "This message costs 3 credits; your balance is 2 credits.",
    ]);

    await getDb().update(contacts).set({ status: false }).where(eq(contacts.id, contact.id)).run();
    const inactive = await post(contactsAction, "/sms/accountContacts", user, {
      intent: "send",
      id: String(contact.id),
      message: "hi",
    });
    expect(dataOf<Reply>(inactive).error?.[""]).toEqual([
      "This contact is inactive (opted out): mark it active to send to it",
    ]);
    expect(await getBalance(user.id)).toBe(2);
  });

  it("checks the cost without sending (no JavaScript)", async () => {
    const user = await createTestUser();
    const contact = await createContact(user.id, contactInput([], "Eve"));
    const result = await post(contactsAction, "/sms/accountContacts", user, {
      intent: "check",
      id: String(contact.id),
      message: "Привет",
    });
    expect(statusOf(result)).toBe(200);
    expect(await getDb().select().from(smsMessages).where(eq(smsMessages.userId, user.id)).all()).toEqual([]);
  });

  it("deletes a contact, and deleting a group keeps its contacts", async () => {
    const user = await createTestUser();
    const group = await createGroup(user.id, { name: "Club", description: "Members" });
    const keep = await createContact(user.id, contactInput([group.id], "Kept"));
    const gone = await createContact(user.id, contactInput([group.id], "Gone"));
    const deleted = await post(contactsAction, `/sms/accountContacts?panel=delete&id=${gone.id}`, user, {
      intent: "delete",
      id: String(gone.id),
    });
    expect(locationOf(deleted)).toBe("/sms/accountContacts");
    expect(await getContact(user.id, gone.id)).toBeNull();
    const groupDeleted = await post(groupsAction, `/sms/accountGroups?panel=delete&id=${group.id}`, user, {
      intent: "delete",
      id: String(group.id),
    });
    expect(locationOf(groupDeleted)).toBe("/sms/accountGroups");
    expect(await getDb().select().from(contactGroups).where(eq(contactGroups.id, group.id)).get()).toBeUndefined();
    expect(await getContact(user.id, keep.id)).toMatchObject({ name: "Kept", groups: [] });
  });
});

describe("the groups list's send panel", () => {
  it("posts once, enqueues the fan-out and shows its result panel; every member gets the message", async () => {
    const user = await createTestUser();
    await grantCredits(user.id, 10);
    const group = await createGroup(user.id, { name: "Team", description: "All of us" });
    const members = [
      await createContact(user.id, contactInput([group.id])),
      await createContact(user.id, contactInput([group.id])),
    ];
    const opened = dataOf<{ panel: { activeMembers: number; requestKey: string } }>(
      await call(groupsLoader, makeRequest(`/sms/accountGroups?panel=send&id=${group.id}`, { user })),
    );
    expect(opened.panel.activeMembers).toBe(2);
    const form = {
      intent: "send",
      id: String(group.id),
      message: "Meeting at 10",
      requestKey: opened.panel.requestKey,
    };
    const result = await post(groupsAction, `/sms/accountGroups?panel=send&id=${group.id}`, user, form);
    const location = locationOf(result)!;
    expect(location).toMatch(new RegExp(`^/sms/accountGroups\\?panel=sent&id=${group.id}&send=\\d+$`));
    // Posted twice (a double click without JavaScript): the same send.
    expect(locationOf(await post(groupsAction, "/sms/accountGroups", user, form))).toBe(location);
    const sendId = Number(new URL(location, "http://x").searchParams.get("send"));
    await runGroupSend(sendId);

    const shown = dataOf<{ panel: { report: { finished: boolean; queued: number } } }>(
      await call(groupsLoader, makeRequest(location, { user })),
    );
    expect(shown.panel.report).toMatchObject({ finished: true, queued: 2 });
    const status = (await call(groupSendStatusLoader, makeRequest(`/sms/groupSends/${sendId}`, { user }), {
      id: String(sendId),
    })) as Response;
    expect(await status.json()).toMatchObject({ id: sendId, status: "done", queued: 2, credits: 2, skipped: 0 });
    const sentTo = (await getDb().select().from(smsMessages).where(eq(smsMessages.groupSendId, sendId)).all()).map(
      (m) => m.toPhone,
    );
    expect(sentTo.sort()).toEqual(members.map((m) => m.phone).sort());
  });

  it("says an empty group is an error, and how many credits a group send needs", async () => {
    const user = await createTestUser();
    await grantCredits(user.id, 1);
    const empty = await createGroup(user.id, { name: "Nobody", description: "Empty" });
    const none = await post(groupsAction, "/sms/accountGroups", user, {
      intent: "send",
      id: String(empty.id),
      message: "hi",
    });
    expect(statusOf(none)).toBe(400);
    expect(dataOf<Reply>(none).error?.[""]).toEqual(["This group has no contacts: add contacts to it first"]);

    const group = await createGroup(user.id, { name: "Pair", description: "Two" });
    await createContact(user.id, contactInput([group.id]));
    await createContact(user.id, contactInput([group.id]));
    const short = await post(groupsAction, "/sms/accountGroups", user, {
      intent: "send",
      id: String(group.id),
      message: "hi",
    });
    expect(dataOf<Reply>(short).error?.[""]).toEqual([
      "Failed to send SMS, please check to ensure that you have enough credits",
      "Sending this message to every active contact of the group costs 2 credits; your balance is 1 credit.",
    ]);
  });
});
