// Scheduled SMS to contacts and groups, against a real Redis: each occurrence of a group schedule
// fans out through one group send keyed by (schedule, occurrence); the schedule panels of the
// contacts and groups lists; what deleting a group does; and every id of another user is a 404.
import { asc, eq, inArray } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "#app/db/client.server.ts";
import { contacts, groupSends } from "#app/db/schema/contacts.ts";
import { schedules } from "#app/db/schema/scheduling.ts";
import { smsMessages } from "#app/db/schema/sms.ts";
import { createContact, deleteContact } from "#app/modules/contacts/contacts.server.ts";
import { NotFoundError } from "#app/modules/contacts/errors.ts";
import { describeGroupSend } from "#app/modules/group-sends/group-send.ts";
import { getGroupSendReport, runGroupSend } from "#app/modules/group-sends/group-send.server.ts";
import { createGroup, getGroup } from "#app/modules/contacts/groups.server.ts";
import { book, getBalance } from "#app/modules/credits/ledger.server.ts";
import { INSUFFICIENT_CREDITS_REASON, MISSED_REASON, runOccurrence } from "#app/modules/scheduling/runner.server.ts";
import { SCHEDULE_FAILED } from "#app/routes/sms/forms/schedule-sms.server.ts";
import {
  createSchedule,
  getSchedule,
  listSchedules,
  type NewSchedule,
} from "#app/modules/scheduling/schedules.server.ts";
import { applyReceipts } from "#app/modules/sms/dispatch.server.ts";
import { SimulatorTransport } from "#app/modules/sms/transports/simulator.server.ts";
import { action as contactsAction, loader as contactsLoader } from "#app/routes/sms/account-contacts.tsx";
import { action as groupsAction, loader as groupsLoader } from "#app/routes/sms/account-groups.tsx";
import { loader as scheduleLoader } from "#app/routes/sms/schedule-sms.tsx";
import { action as scheduledAction, loader as scheduledLoader } from "#app/routes/sms/scheduled.tsx";
import { resetClock, setClock } from "#app/utils/clock.server.ts";
import { groupSend } from "#worker/jobs/group-send.ts";
import { createSmsSendJob } from "#worker/jobs/sms-send.ts";
import { smsSchedule } from "#worker/jobs/sms-schedule.ts";
import { type RunningWorkers, startWorkers } from "#worker/workers.ts";
import { seedGroup } from "#tests/support/contacts.ts";
import {
  call,
  createTestUser,
  dataOf,
  locationOf,
  makeRequest,
  statusOf,
  type TestUser,
} from "#tests/support/requests.ts";
import { schedulerOf } from "#tests/support/schedules.ts";
import { grantCredits, ledgerKeys, waitForStatus } from "#tests/support/sms.ts";
import { waitFor } from "#tests/support/wait.ts";

type Reply = { status?: string; error?: Record<string, string[] | null> };

let workers: RunningWorkers;

beforeAll(async () => {
  workers = await startWorkers([
    smsSchedule,
    groupSend,
    createSmsSendJob(() => new SimulatorTransport({ dlrMs: 5, onReceipts: applyReceipts })),
  ]);
});
afterAll(async () => {
  await workers.close();
});
afterEach(() => resetClock());

const DAY = 86_400_000;
const TWO_SEGMENTS = "x".repeat(200);

async function customer(credits: number) {
  const user = await createTestUser();
  await grantCredits(user.id, credits);
  return user;
}

function scheduleGroup(userId: number, groupId: number, overrides: Partial<NewSchedule> = {}) {
  return createSchedule(userId, {
    target: { kind: "group", groupId },
    body: "Team meeting at 10",
    repeat: "daily",
    firstSendAt: Date.now() + 3_600_000,
    timeZone: "Europe/London",
    ...overrides,
  });
}

/** The group sends of a schedule's occurrences, oldest first. */
async function sendsOf(scheduleId: number) {
  return await getDb()
    .select()
    .from(groupSends)
    .where(eq(groupSends.scheduleId, scheduleId))
    .orderBy(asc(groupSends.occurrenceAt))
    .all();
}

/** The messages every occurrence of a group schedule created. */
async function messagesOf(scheduleId: number) {
  const ids = (await sendsOf(scheduleId)).map((send) => send.id);
  return ids.length === 0
    ? []
    : await getDb().select().from(smsMessages).where(inArray(smsMessages.groupSendId, ids)).all();
}

function finished(userId: number, groupSendId: number) {
  return waitFor(
    async () => {
      const report = await getGroupSendReport(userId, groupSendId);
      return report?.finished ? report : undefined;
    },
    { what: `group send ${groupSendId} to finish` },
  );
}

describe("a group schedule run by BullMQ", () => {
  it("fans a due occurrence out to every active member exactly once, then completes", async () => {
    const user = await customer(20);
    const { groupId, contactIds } = await seedGroup(user.id, 4, 1000);
    // Opted out after it was scheduled: "the group's members at that time".
    const schedule = await scheduleGroup(user.id, groupId, {
      repeat: "none",
      firstSendAt: Date.now() + 1_500,
      timeZone: "UTC",
    });
    await getDb().update(contacts).set({ status: false }).where(eq(contacts.id, contactIds[3])).run();
    expect(await schedulerOf(schedule.id)).toMatchObject({ next: schedule.firstSendAt });

    await waitFor(async () => (await getSchedule(user.id, schedule.id))?.status === "completed", {
      what: "the schedule to complete",
    });
    const [send] = await sendsOf(schedule.id);
    expect(await sendsOf(schedule.id)).toHaveLength(1);
    expect(send.occurrenceAt?.getTime()).toBe(schedule.firstSendAt);
    const report = await finished(user.id, send.id);
    expect(report).toMatchObject({
      status: "done",
      total: 4,
      queued: 3,
      credits: 3,
      skipped: 1,
      occurrenceAt: schedule.firstSendAt,
    });

    const messages = await messagesOf(schedule.id);
    expect(messages.map((m) => m.contactId).sort()).toEqual(contactIds.slice(0, 3).sort());
    expect(messages.every((m) => m.source === "schedule" && m.body === "Team meeting at 10")).toBe(true);
    for (const message of messages) await waitForStatus(message.id, "delivered");
    expect(await getBalance(user.id)).toBe(17);
    await waitFor(async () => (await schedulerOf(schedule.id)) === undefined, { what: "the job scheduler to go" });
  });

  it("sends nothing twice for a duplicate tick or a retried fan-out", async () => {
    const user = await customer(20);
    const { groupId, contactIds } = await seedGroup(user.id, 5, 2000);
    const schedule = await scheduleGroup(user.id, groupId);
    const at = schedule.firstSendAt;
    setClock(() => at);

    // Three ticks of one occurrence at once: one group send.
    const outcomes = await Promise.all([
      runOccurrence(schedule.id, at),
      runOccurrence(schedule.id, at),
      runOccurrence(schedule.id, at),
    ]);
    expect(outcomes.filter((o) => o === "queued")).toHaveLength(1);
    expect(await sendsOf(schedule.id)).toHaveLength(1);
    const [send] = await sendsOf(schedule.id);

    // The worker runs its fan-out job; meanwhile it is run twice more, then again after losing its progress.
    await Promise.all([runGroupSend(send.id), runGroupSend(send.id)]);
    await finished(user.id, send.id);
    await getDb().update(groupSends).set({ status: "running", cursor: 0 }).where(eq(groupSends.id, send.id)).run();
    await runGroupSend(send.id);

    // Even if the table forgets the occurrence was handled (BullMQ and the table disagreeing), the key holds.
    expect(await runOccurrence(schedule.id, at)).toBe("handled");
    await getDb()
      .update(schedules)
      .set({ nextRunAt: new Date(at) })
      .where(eq(schedules.id, schedule.id))
      .run();
    expect(await runOccurrence(schedule.id, at)).toBe("duplicate");

    expect(await sendsOf(schedule.id)).toHaveLength(1);
    const messages = await messagesOf(schedule.id);
    expect(messages).toHaveLength(5);
    expect(new Set(messages.map((m) => m.contactId))).toEqual(new Set(contactIds));
    const debits = (await ledgerKeys(user.id)).filter((key) => key.endsWith(":debit"));
    expect(debits.sort()).toEqual(messages.map((m) => `msg:${m.id}:debit`).sort());
    expect(await getBalance(user.id)).toBe(15);
    expect(await getGroupSendReport(user.id, send.id)).toMatchObject({ status: "done", queued: 5, credits: 5 });
    expect((await getSchedule(user.id, schedule.id))?.nextRunAt).toBe(at + DAY);
  });
});

describe("a group occurrence that cannot go out", () => {
  it("without credits for every active member: a failed group send that sends nothing; the schedule goes on", async () => {
    const user = await customer(6);
    const { groupId } = await seedGroup(user.id, 3, 3000);
    // 3 members x 2 segments: the balance pays one occurrence when it is scheduled...
    const schedule = await scheduleGroup(user.id, groupId, { body: TWO_SEGMENTS });
    const at = schedule.firstSendAt;
    // ...then some is spent elsewhere (scheduling reserves nothing).
    await book({ userId: user.id, kind: "debit", amount: -1, key: `spent:${user.id}` });
    setClock(() => at);
    expect(await runOccurrence(schedule.id, at)).toBe("insufficient-credits");

    const [failed] = await sendsOf(schedule.id);
    expect(failed).toMatchObject({
      status: "failed",
      stopReason: `${INSUFFICIENT_CREDITS_REASON}: 6 needed, 5 available`,
      total: 3,
    });
    expect(await messagesOf(schedule.id)).toEqual([]);
    expect(await getBalance(user.id)).toBe(5);
    expect(await getSchedule(user.id, schedule.id)).toMatchObject({ status: "active", nextRunAt: at + DAY });
    // The Scheduled SMS list says what happened.
    const [listed] = (await listSchedules(user.id)).schedules;
    expect(describeGroupSend(listed.lastGroupSend!)).toBe("Not sent: Insufficient credits: 6 needed, 5 available.");

    // Credits bought later do not resend that occurrence; the next one goes out to everyone.
    await grantCredits(user.id, 10);
    expect(await runOccurrence(schedule.id, at)).toBe("handled");
    setClock(() => at + DAY);
    expect(await runOccurrence(schedule.id, at + DAY)).toBe("queued");
    const next = (await sendsOf(schedule.id))[1];
    expect(await finished(user.id, next.id)).toMatchObject({ status: "done", queued: 3, credits: 6 });
    expect(await getBalance(user.id)).toBe(9);
    expect((await listSchedules(user.id)).schedules[0].lastGroupSend).toMatchObject({
      id: next.id,
      occurrenceAt: at + DAY,
    });
  });

  it("with nobody left in the group, or far too late: recorded as failed, and the schedule goes on", async () => {
    const user = await customer(10);
    const { groupId, contactIds } = await seedGroup(user.id, 1, 4000);
    const schedule = await scheduleGroup(user.id, groupId);
    const at = schedule.firstSendAt;
    await deleteContact(user.id, contactIds[0]);
    setClock(() => at);
    expect(await runOccurrence(schedule.id, at)).toBe("no-recipients");
    expect((await sendsOf(schedule.id))[0]).toMatchObject({
      status: "failed",
      stopReason: "This group has no contacts: add contacts to it first",
    });

    // The next one, two hours late (nothing was running): missed, not sent.
    await createContact(user.id, {
      name: "Back",
      phone: "+12025554100",
      email: "back@example.com",
      groupIds: [groupId],
    });
    setClock(() => at + DAY + 2 * 3_600_000);
    expect(await runOccurrence(schedule.id, at + DAY)).toBe("missed");
    expect((await sendsOf(schedule.id))[1]).toMatchObject({ status: "failed", stopReason: MISSED_REASON });
    expect(await messagesOf(schedule.id)).toEqual([]);
    expect(await getBalance(user.id)).toBe(10);
    expect(await getSchedule(user.id, schedule.id)).toMatchObject({ status: "active", nextRunAt: at + 2 * DAY });
  });
});

describe("deleting a group", () => {
  it("cancels its schedules and removes their job schedulers; what was sent stays; other schedules go on", async () => {
    const user = await customer(20);
    const { groupId } = await seedGroup(user.id, 2, 5000);
    const other = await seedGroup(user.id, 1, 5100);
    const daily = await scheduleGroup(user.id, groupId, { body: "Daily" });
    const once = await scheduleGroup(user.id, groupId, { repeat: "none", body: "Once" });
    const otherGroup = await scheduleGroup(user.id, other.groupId, { body: "Other group" });
    const phone = await createSchedule(user.id, {
      target: { kind: "phone", to: "+12025555200" },
      body: "Phone",
      repeat: "weekly",
      firstSendAt: Date.now() + 3_600_000,
      timeZone: "UTC",
    });
    setClock(() => daily.firstSendAt);
    expect(await runOccurrence(daily.id, daily.firstSendAt)).toBe("queued");
    await finished(user.id, (await sendsOf(daily.id))[0].id);
    resetClock();
    expect(await messagesOf(daily.id)).toHaveLength(2);

    // The confirmation says what else goes.
    const confirm = dataOf<{ panel: { activeSchedules: number } }>(
      await call(groupsLoader, makeRequest(`/sms/accountGroups?panel=delete&id=${groupId}`, { user })),
    );
    expect(confirm.panel.activeSchedules).toBe(2);
    const deleted = await call(
      groupsAction,
      makeRequest(`/sms/accountGroups?panel=delete&id=${groupId}`, {
        user,
        form: { intent: "delete", id: String(groupId) },
      }),
    );
    expect(locationOf(deleted)).toBe("/sms/accountGroups");
    expect(await getGroup(user.id, groupId)).toBeNull();

    for (const id of [daily.id, once.id]) {
      expect(await getSchedule(user.id, id)).toMatchObject({
        status: "cancelled",
        nextRunAt: null,
        finishedAt: expect.any(Number),
        target: { kind: "group", groupId: null, groupName: null },
      });
      expect(await schedulerOf(id)).toBeUndefined();
    }
    for (const id of [otherGroup.id, phone.id]) {
      expect((await getSchedule(user.id, id))?.status).toBe("active");
      expect(await schedulerOf(id)).toBeDefined();
    }
    // Its messages and the report of what it sent are kept.
    expect(await messagesOf(daily.id)).toHaveLength(2);
    expect((await sendsOf(daily.id))[0]).toMatchObject({ groupId: null, status: "done", queued: 2 });
    setClock(() => daily.firstSendAt + DAY);
    expect(await runOccurrence(daily.id, daily.firstSendAt + DAY)).toBe("inactive");
    expect(await sendsOf(daily.id)).toHaveLength(1);
  });

  it("a group schedule left active without its group (not through deleteGroup) is cancelled when it runs", async () => {
    const user = await customer(10);
    const { groupId } = await seedGroup(user.id, 1, 5300);
    const schedule = await scheduleGroup(user.id, groupId);
    await getDb().update(schedules).set({ groupId: null }).where(eq(schedules.id, schedule.id)).run();
    setClock(() => schedule.firstSendAt);
    expect(await runOccurrence(schedule.id, schedule.firstSendAt)).toBe("inactive");
    expect(await getSchedule(user.id, schedule.id)).toMatchObject({ status: "cancelled", nextRunAt: null });
    expect(await schedulerOf(schedule.id)).toBeUndefined();
    expect(await sendsOf(schedule.id)).toEqual([]);
  });
});

describe("the schedule panels", () => {
  const timing = { firstSend: "2030-01-15T09:00", repeat: "weekly", endDate: "2030-03-01", timeZone: "Europe/London" };
  const post = (
    fn: typeof contactsAction | typeof groupsAction,
    path: string,
    user: TestUser,
    form: Record<string, string>,
  ) => call(fn, makeRequest(path, { user, form }));

  it("contacts list: the panel schedules for the contact's number and closes with the toast", async () => {
    const user = await customer(5);
    const contact = await createContact(user.id, {
      name: "Sam Stone",
      phone: "+12025556100",
      email: "sam@example.com",
      groupIds: [],
    });
    const path = `/sms/accountContacts?page=1&panel=schedule&id=${contact.id}`;
    const opened = dataOf<{ panel: { kind: string }; schedule: { timeZone: string; timeZones: string[] } }>(
      await call(contactsLoader, makeRequest(path, { user })),
    );
    expect(opened.panel.kind).toBe("schedule");
    expect(opened.schedule).toMatchObject({ timeZone: "UTC", timeZones: expect.arrayContaining(["Europe/London"]) });

    // Check cost (no JavaScript) and bad input keep the panel open and create nothing.
    expect(
      statusOf(
        await post(contactsAction, path, user, { ...timing, intent: "check", id: String(contact.id), message: "Hi" }),
      ),
    ).toBe(200);
    const bad = await post(contactsAction, path, user, {
      ...timing,
      intent: "schedule",
      id: String(contact.id),
      firstSend: "2020-01-15T09:00",
      message: "",
    });
    expect(statusOf(bad)).toBe(400);
    expect(dataOf<Reply>(bad).error).toMatchObject({
      firstSend: ["The first send must be in the future"],
      message: ["Message is required"],
    });
    expect((await listSchedules(user.id)).total).toBe(0);

    const result = (await post(contactsAction, path, user, {
      ...timing,
      intent: "schedule",
      id: String(contact.id),
      message: "See you Monday",
    })) as Response;
    expect(locationOf(result)).toBe("/sms/accountContacts");
    expect(result.headers.get("Set-Cookie")).toContain("en_toast=");
    const [schedule] = (await listSchedules(user.id)).schedules;
    expect(schedule).toMatchObject({
      target: { kind: "phone", to: "+12025556100" },
      body: "See you Monday",
      repeat: "weekly",
      timeZone: "Europe/London",
      firstSendAt: Date.parse("2030-01-15T09:00:00Z"),
      endDate: "2030-03-01",
      status: "active",
    });
    expect(await schedulerOf(schedule.id)).toBeDefined();

    // An opted-out contact is refused, as a send to it is.
    await getDb().update(contacts).set({ status: false }).where(eq(contacts.id, contact.id)).run();
    const inactive = await post(contactsAction, path, user, {
      ...timing,
      intent: "schedule",
      id: String(contact.id),
      message: "Again",
    });
    expect(dataOf<Reply>(inactive).error?.[""]).toEqual([
      "This contact is inactive (opted out): mark it active to send to it",
    ]);
    expect((await listSchedules(user.id)).total).toBe(1);
  });

  it("groups list: credits for every active member are checked; the schedule shows the group's name", async () => {
    const user = await customer(5);
    const { groupId } = await seedGroup(user.id, 3, 6200);
    const group = (await getGroup(user.id, groupId))!;
    const path = `/sms/accountGroups?panel=schedule&id=${groupId}`;
    const form = { ...timing, intent: "schedule", id: String(groupId), message: TWO_SEGMENTS };

    const short = await post(groupsAction, path, user, form);
    expect(statusOf(short)).toBe(400);
    expect(dataOf<Reply>(short).error?.[""]).toEqual([
      SCHEDULE_FAILED,
      "Each time, sending it to the group's 3 active contacts costs 6 credits; your balance is 5 credits.",
    ]);
    expect((await listSchedules(user.id)).total).toBe(0);

    await grantCredits(user.id, 1);
    expect(locationOf(await post(groupsAction, path, user, form))).toBe("/sms/accountGroups");
    const [schedule] = (await listSchedules(user.id)).schedules;
    expect(schedule).toMatchObject({
      target: { kind: "group", groupId, groupName: group.name },
      repeat: "weekly",
      lastGroupSend: null,
    });
    // Scheduling reserves nothing.
    expect(await getBalance(user.id)).toBe(6);

    const listed = dataOf<{ schedules: { target: unknown }[] }>(
      await call(scheduledLoader, makeRequest("/sms/scheduled", { user })),
    );
    expect(listed.schedules[0].target).toEqual({ kind: "group", groupId, groupName: group.name });

    const empty = await createGroup(user.id, { name: "Nobody yet", description: "Empty" });
    const refused = await post(groupsAction, `/sms/accountGroups?panel=schedule&id=${empty.id}`, user, {
      ...form,
      id: String(empty.id),
    });
    expect(dataOf<Reply>(refused).error?.[""]).toEqual(["This group has no contacts: add contacts to it first"]);
  });

  it("/sms/scheduleSms fills in ?phoneNumber= and sends ?groupId= to the group's schedule panel", async () => {
    const user = await customer(1);
    const loaded = dataOf<{ phoneNumber?: string }>(
      await call(scheduleLoader, makeRequest("/sms/scheduleSms?phoneNumber=%2B12025550151", { user })),
    );
    expect(loaded.phoneNumber).toBe("+12025550151");
    const { groupId } = await seedGroup(user.id, 1, 7200);
    const panel = locationOf(await call(scheduleLoader, makeRequest(`/sms/scheduleSms?groupId=${groupId}`, { user })));
    expect(panel).toBe(`/sms/accountGroups?panel=schedule&id=${groupId}`);
  });
});

describe("customer B and customer A's contacts, groups and schedules", async () => {
  const a = await customer(20);
  const b = await customer(20);
  const { groupId: groupA, contactIds } = await seedGroup(a.id, 2, 7000);
  const contactA = contactIds[0];
  const scheduleA = await scheduleGroup(a.id, groupA, { body: "A's group reminder" });
  const ownGroupB = (await seedGroup(b.id, 1, 7100)).groupId;
  const timing = { firstSend: "2030-01-15T09:00", repeat: "none", timeZone: "UTC", message: "hi", intent: "schedule" };

  const expect404 = async (fn: Parameters<typeof call>[0], path: string, form?: Record<string, string>) => {
    const result = await call(fn, makeRequest(path, { user: b, form }));
    expect(statusOf(result), `${form ? "POST" : "GET"} ${path} ${JSON.stringify(form ?? {})}`).toBe(404);
  };

  it("gets 404 opening or posting the schedule panels with A's contact or group", async () => {
    await expect404(contactsLoader, `/sms/accountContacts?panel=schedule&id=${contactA}`);
    await expect404(groupsLoader, `/sms/accountGroups?panel=schedule&id=${groupA}`);
    await expect404(contactsAction, `/sms/accountContacts?panel=schedule&id=${contactA}`, {
      ...timing,
      id: String(contactA),
    });
    await expect404(groupsAction, `/sms/accountGroups?panel=schedule&id=${groupA}`, { ...timing, id: String(groupA) });
    // ?groupId= on the schedule screen refuses it the same way.
    await expect404(scheduleLoader, `/sms/scheduleSms?groupId=${groupA}`);
    // The domain function the REST API will call says the same.
    await expect(scheduleGroup(b.id, groupA)).rejects.toBeInstanceOf(NotFoundError);
    expect((await listSchedules(b.id)).total).toBe(0);
  });

  it("gets 404 asking to cancel, or cancelling, A's group schedule, or deleting A's group", async () => {
    await expect404(scheduledLoader, `/sms/scheduled?cancel=${scheduleA.id}`);
    await expect404(scheduledAction, "/sms/scheduled", { intent: "cancel", id: String(scheduleA.id) });
    await expect404(groupsLoader, `/sms/accountGroups?panel=delete&id=${groupA}`);
    await expect404(groupsAction, "/sms/accountGroups", { intent: "delete", id: String(groupA) });
    expect(await getSchedule(a.id, scheduleA.id)).toMatchObject({ status: "active", target: { groupId: groupA } });
    expect(await schedulerOf(scheduleA.id)).toBeDefined();
  });

  it("never shows A's schedules or group names to B, and B's own group schedule works", async () => {
    const ownB = await scheduleGroup(b.id, ownGroupB, { body: "B's own" });
    const listed = dataOf<{ schedules: { id: number; body: string }[] }>(
      await call(scheduledLoader, makeRequest("/sms/scheduled", { user: b })),
    );
    expect(listed.schedules.map((s) => s.id)).toEqual([ownB.id]);
    expect(await getSchedule(b.id, scheduleA.id)).toBeNull();
    expect((await listSchedules(a.id)).schedules.map((s) => s.body)).toEqual(["A's group reminder"]);
  });
});
