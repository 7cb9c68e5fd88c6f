// Templates with merge fields: each group member's text rendered and priced for them, the quote
// shown before sending equal to the charge, group schedule occurrences rendered per member, single
// sends rendered from the contact with that number, and templates that are their owner's only.
import { eq } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { getDb } from "#app/db/client.server.ts";
import { contactGroupMembers, contacts, groupSends } from "#app/db/schema/contacts.ts";
import { smsMessages } from "#app/db/schema/sms.ts";
import { createContact } from "#app/modules/contacts/contacts.server.ts";
import { runGroupSend, startGroupSend } from "#app/modules/group-sends/group-send.server.ts";
import { getBalance, InsufficientCreditsError } from "#app/modules/credits/ledger.server.ts";
import { runOccurrence } from "#app/modules/scheduling/runner.server.ts";
import { createSchedule, listSchedules } from "#app/modules/scheduling/schedules.server.ts";
import { quoteTemplatedGroupSend } from "#app/modules/group-sends/group-quote.server.ts";
import { describeQuote, type TemplateSendQuote } from "#app/modules/templates/quote.ts";
import { action as groupsAction } from "#app/routes/sms/account-groups.tsx";
import { action as sendSmsAction, loader as sendSmsLoader } from "#app/routes/sms/send-sms.tsx";
import { action as templatesAction } from "#app/routes/sms/templates.tsx";
import {
  createTemplate,
  deleteTemplate,
  DuplicateTemplateNameError,
  getTemplate,
  listTemplates,
  renderForPhone,
  UnrenderableMessageError,
  updateTemplate,
} from "#app/modules/templates/templates.server.ts";
import { resetClock, setClock } from "#app/utils/clock.server.ts";
import { messagesOfGroupSend, seedGroup } from "#tests/support/contacts.ts";
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

afterEach(() => resetClock());

const BODY = `Hi {{name}}, your code is ready. ${"x".repeat(30)}`;

/** A group of 4: two GSM names, one UCS-2 name that needs a second segment, one without a name. */
async function mixedGroup(credits: number) {
  const user = await createTestUser();
  await grantCredits(user.id, credits);
  const { groupId, contactIds } = await seedGroup(user.id, 4, 5000);
  const rename = async (i: number, name: string) =>
    await getDb().update(contacts).set({ name }).where(eq(contacts.id, contactIds[i])).run();
  await rename(0, "Ana");
  await rename(1, "Bo");
  await rename(2, "Łukasz Nowakowski");
  await rename(3, "");
  return { user, groupId, contactIds };
}

describe("a templated group send", () => {
  it("renders each member's text, prices it by its own segments, skips a member with no name, and charges the quote", async () => {
    const { user, groupId, contactIds } = await mixedGroup(20);
    const quote = await quoteTemplatedGroupSend(user.id, groupId, BODY);
    expect(quote).toMatchObject({
      messages: 3,
      credits: 4,
      skipped: 1,
      skipReasons: { "no name and no fallback": 1 },
    });
    expect(quote.examples.map((e) => e.name)).toEqual(["Ana", "Bo", "Łukasz Nowakowski"]);
    expect(describeQuote(quote)).toBe("3 messages, 4 credits; 1 skipped: no name and no fallback");

    const started = await startGroupSend(user.id, groupId, BODY);
    const report = await runGroupSend(started.id);
    expect(report).toMatchObject({ status: "done", queued: quote.messages, credits: quote.credits, skipped: 1 });
    expect(report?.skips).toEqual([expect.objectContaining({ name: "", reason: "no name and no fallback" })]);
    expect(await getBalance(user.id)).toBe(20 - quote.credits);

    const byContact = new Map((await messagesOfGroupSend(started.id)).map((m) => [m.contactId, m]));
    expect(byContact.get(contactIds[0])).toMatchObject({
      body: BODY.replace("{{name}}", "Ana"),
      segments: 1,
      credits: 1,
    });
    expect(byContact.get(contactIds[1])).toMatchObject({ body: BODY.replace("{{name}}", "Bo"), segments: 1 });
    expect(byContact.get(contactIds[2])).toMatchObject({
      body: BODY.replace("{{name}}", "Łukasz Nowakowski"),
      encoding: "UCS-2",
      segments: 2,
      credits: 2,
    });
    expect(byContact.has(contactIds[3])).toBe(false);
  });

  it("with a fallback sends to everyone; the balance is checked against the members' own costs", async () => {
    const { user, groupId } = await mixedGroup(4);
    const withFallback = BODY.replace("{{name}}", "{{name|there}}");
    // 1 + 1 + 2 + 1 = 5 credits: one more than the balance, though 4 members x 1 segment would pass.
    await expect(startGroupSend(user.id, groupId, withFallback)).rejects.toBeInstanceOf(InsufficientCreditsError);
    await grantCredits(user.id, 1);
    const started = await startGroupSend(user.id, groupId, withFallback);
    expect(await runGroupSend(started.id)).toMatchObject({ queued: 4, credits: 5, skipped: 0 });
    expect((await messagesOfGroupSend(started.id)).map((m) => m.body)).toContain(BODY.replace("{{name}}", "there"));
    expect(await getBalance(user.id)).toBe(0);
  });

  it("a body without merge fields goes out unchanged to everyone", async () => {
    const { user, groupId } = await mixedGroup(10);
    const started = await startGroupSend(user.id, groupId, "Plain {{ text");
    expect(await runGroupSend(started.id)).toMatchObject({ queued: 4, credits: 4, skipped: 0 });
    expect(new Set((await messagesOfGroupSend(started.id)).map((m) => m.body))).toEqual(new Set(["Plain {{ text"]));
  });
});

describe("a templated group schedule", () => {
  it("renders each occurrence for the members of that moment", async () => {
    const { user, groupId, contactIds } = await mixedGroup(20);
    const schedule = await createSchedule(user.id, {
      target: { kind: "group", groupId },
      body: "Hello {{name|friend}}, see you at 10",
      repeat: "daily",
      firstSendAt: Date.now() + 3_600_000,
      timeZone: "UTC",
    });
    const at = schedule.firstSendAt;
    // Renamed after scheduling: the occurrence uses the name of that moment.
    await getDb().update(contacts).set({ name: "Bea" }).where(eq(contacts.id, contactIds[1])).run();
    setClock(() => at);
    expect(await runOccurrence(schedule.id, at)).toBe("queued");
    const row = (await getDb().select().from(groupSends).where(eq(groupSends.scheduleId, schedule.id)).get())!;
    expect(await runGroupSend(row.id)).toMatchObject({ queued: 4, skipped: 0 });
    const bodies = new Map((await messagesOfGroupSend(row.id)).map((m) => [m.contactId, m.body]));
    expect(bodies.get(contactIds[0])).toBe("Hello Ana, see you at 10");
    expect(bodies.get(contactIds[1])).toBe("Hello Bea, see you at 10");
    expect(bodies.get(contactIds[3])).toBe("Hello friend, see you at 10");
    expect((await messagesOfGroupSend(row.id)).every((m) => m.source === "schedule")).toBe(true);
  });
});

describe("a templated message to one number", () => {
  it("renders from the contact with that number, else from the fallback, else is refused", async () => {
    const user = await createTestUser();
    await createContact(user.id, { name: "Ana", phone: "+12025556001", email: "", groupIds: [] });
    expect(await renderForPhone(user.id, "+12025556001", "Hi {{name}} at {{phone}}")).toBe("Hi Ana at +12025556001");
    expect(await renderForPhone(user.id, "+12025556002", "Hi {{name|there}} at {{phone}}")).toBe(
      "Hi there at +12025556002",
    );
    await expect(renderForPhone(user.id, "+12025556002", "Hi {{name}}")).rejects.toThrow(UnrenderableMessageError);
    await expect(renderForPhone(user.id, "+12025556001", "Mail {{email}}")).rejects.toThrow(/has no email/);
    // Another account's contact with that number is not used.
    const other = await createTestUser();
    await expect(renderForPhone(other.id, "+12025556001", "Hi {{name}}")).rejects.toThrow(/not one of your contacts/);
  });
});

describe("templates", () => {
  it("are their owner's only; names are unique per account, case aside", async () => {
    const a = await createTestUser();
    const b = await createTestUser();
    const t = await createTemplate(a.id, { name: "Welcome", body: "Hi {{name|there}}" });
    await expect(createTemplate(a.id, { name: "welcome", body: "x" })).rejects.toThrow(DuplicateTemplateNameError);
    expect(await createTemplate(b.id, { name: "Welcome", body: "Mine" })).toMatchObject({ name: "Welcome" });
    expect(await getTemplate(b.id, t.id)).toBeNull();
    expect(await updateTemplate(b.id, t.id, { name: "Taken", body: "x" })).toBeNull();
    expect(await deleteTemplate(b.id, t.id)).toBe(false);
    expect(await listTemplates(a.id)).toEqual([expect.objectContaining({ id: t.id, body: "Hi {{name|there}}" })]);
    expect(await updateTemplate(a.id, t.id, { name: "Hello", body: "Hello {{name}}" })).toMatchObject({
      name: "Hello",
    });
    expect(await deleteTemplate(a.id, t.id)).toBe(true);
    expect(await listTemplates(a.id)).toEqual([]);
  });
});

type Reply = { status?: string; error?: Record<string, string[] | null>; templateQuote?: TemplateSendQuote };
const post = (fn: unknown, path: string, user: TestUser, form: Record<string, string>) =>
  call(fn as never, makeRequest(path, { user, form }));

describe("the screens", () => {
  it("the Templates screen: an unknown field is an error beside the message, a fixed one saves; preview without JavaScript", async () => {
    const user = await createTestUser();
    const bad = await post(templatesAction, "/sms/templates", user, { name: "Welcome", body: "Hi {{nmae}}" });
    expect(statusOf(bad)).toBe(400);
    expect(dataOf<Reply>(bad).error?.body?.[0]).toMatch(/^Unknown merge field \{\{nmae\}\}/);
    expect(await listTemplates(user.id)).toEqual([]);

    const preview = await post(templatesAction, "/sms/templates", user, {
      intent: "preview",
      name: "Welcome",
      body: "Hi {{name|there}}",
    });
    expect(statusOf(preview)).toBe(200);
    expect(await listTemplates(user.id)).toEqual([]);

    const saved = await post(templatesAction, "/sms/templates", user, { name: "Welcome", body: "Hi {{name|there}}" });
    expect(locationOf(saved)).toBe("/sms/templates");
    const [template] = await listTemplates(user.id);
    const again = await post(templatesAction, "/sms/templates", user, { name: "WELCOME", body: "Other" });
    expect(dataOf<Reply>(again).error?.name).toEqual(['You already have a template named "WELCOME"']);

    const loaded = dataOf<{ template: { templateBody: string } }>(
      await call(sendSmsLoader, makeRequest(`/sms/sendSms?template=${template.id}`, { user })),
    );
    expect(loaded.template.templateBody).toBe("Hi {{name|there}}");
    const other = await createTestUser();
    expect(
      statusOf(await call(sendSmsLoader, makeRequest(`/sms/sendSms?template=${template.id}`, { user: other }))),
    ).toBe(404);
  });

  it("Send SMS to a number renders from the contact with that number, else the fallback, else refuses beside the message", async () => {
    const user = await createTestUser();
    await grantCredits(user.id, 5);
    await createContact(user.id, { name: "Ana", phone: "+12025556101", email: "", groupIds: [] });
    const send = (phoneNumber: string, message: string) =>
      post(sendSmsAction, "/sms/sendSms", user, { intent: "send", phoneNumber, message });
    expect(locationOf(await send("+12025556101", "Hi {{name}}"))).toBe("/sms/sendSms");
    expect(locationOf(await send("+12025556102", "Hi {{name|there}}"))).toBe("/sms/sendSms");
    const refused = await send("+12025556102", "Hi {{name}}");
    expect(statusOf(refused)).toBe(400);
    expect(dataOf<Reply>(refused).error?.message?.[0]).toMatch(/is not one of your contacts/);
    const bodies = (await getDb().select().from(smsMessages).where(eq(smsMessages.userId, user.id)).all()).map(
      (m) => m.body,
    );
    expect(bodies.sort()).toEqual(["Hi Ana", "Hi there"]);
  });

  it("a group's Send panel shows the total first; Send charges exactly it; a changed group asks again", async () => {
    const { user, groupId } = await mixedGroup(20);
    const path = `/sms/accountGroups?panel=send&id=${groupId}`;
    const form = { intent: "send", id: String(groupId), message: BODY, requestKey: "k1" };
    const first = await post(groupsAction, path, user, form);
    expect(statusOf(first)).toBe(200);
    const quote = dataOf<Reply>(first).templateQuote!;
    expect(quote.description).toBe("3 messages, 4 credits; 1 skipped: no name and no fallback");
    expect(await getBalance(user.id)).toBe(20);

    // A member added since the total was shown: the new total is shown, nothing is sent.
    const [extra] = (await seedGroup(user.id, 1, 5900)).contactIds;
    await getDb().insert(contactGroupMembers).values({ groupId, contactId: extra }).run();
    const stale = await post(groupsAction, path, user, { ...form, quoted: quote.key });
    const fresh = dataOf<Reply>(stale).templateQuote!;
    expect(fresh.description).toMatch(/^The total changed since you checked it: 4 messages, 5 credits; 1 skipped/);

    const sent = await post(groupsAction, path, user, { ...form, quoted: fresh.key });
    const sendId = Number(new URL(locationOf(sent)!, "http://x").searchParams.get("send"));
    expect(await runGroupSend(sendId)).toMatchObject({ queued: 4, credits: 5, skipped: 1 });
    expect(await getBalance(user.id)).toBe(15);

    // Someone else's group: 404, even for the total.
    const other = await createTestUser();
    expect(statusOf(await post(groupsAction, path, other, form))).toBe(404);
  });

  it("a group's Schedule panel shows today's total before adding a templated schedule", async () => {
    const { user, groupId } = await mixedGroup(20);
    const path = `/sms/accountGroups?panel=schedule&id=${groupId}`;
    const form = {
      intent: "schedule",
      id: String(groupId),
      message: BODY,
      firstSend: "2030-01-15T09:00",
      repeat: "none",
      timeZone: "UTC",
    };
    const first = await post(groupsAction, path, user, form);
    const quote = dataOf<Reply>(first).templateQuote!;
    expect(quote.description).toBe("3 messages, 4 credits; 1 skipped: no name and no fallback");
    expect((await listSchedules(user.id)).total).toBe(0);
    expect(locationOf(await post(groupsAction, path, user, { ...form, quoted: quote.key }))).toBe("/sms/accountGroups");
    expect((await listSchedules(user.id)).schedules[0]).toMatchObject({ body: BODY });
  });
});
