// Quiet hours end to end: the setting, the recipient's zone, the held message's outbox due time,
// and its delivery through the loopback SMSC once the window has ended.
import { eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "#app/db/client.server.ts";
import { contacts, groupSends } from "#app/db/schema/contacts.ts";
import { smsMessages, smsOutbox } from "#app/db/schema/sms.ts";
import { getBalance } from "#app/modules/credits/ledger.server.ts";
import { getGroupSendReport, runGroupSend, startGroupSend } from "#app/modules/group-sends/group-send.server.ts";
import { holdForQuietHours, saveQuietHours } from "#app/modules/quiet-hours/quiet-hours.server.ts";
import { runOccurrence } from "#app/modules/scheduling/runner.server.ts";
import { createSchedule } from "#app/modules/scheduling/schedules.server.ts";
import { applyReceipts } from "#app/modules/sms/dispatch.server.ts";
import { OUTBOX_GRACE_MS, reconcileSms } from "#app/modules/sms/reconcile.server.ts";
import { queueMessage } from "#app/modules/sms/send.server.ts";
import { SmppTransport } from "#app/modules/sms/transports/smpp.server.ts";
import { previewImport, runImport, saveImportUpload } from "#app/modules/contacts/import.server.ts";
import { action as sendSmsAction } from "#app/routes/sms/send-sms.tsx";
import { action as createContactAction } from "#app/routes/sms/create-contact.tsx";
import { action as settingsAction, loader as settingsLoader } from "#app/routes/account/settings.tsx";
import { resetClock, setClock } from "#app/utils/clock.server.ts";
import { createSmsSendJob } from "#worker/jobs/sms-send.ts";
import { type RunningWorkers, startWorkers } from "#worker/workers.ts";
import { callApi, apiCustomer } from "#tests/support/api.ts";
import { messagesOfGroupSend, seedGroup } from "#tests/support/contacts.ts";
import { call, createTestUser, dataOf, locationOf, makeRequest, statusOf } from "#tests/support/requests.ts";
import { TestSmsc } from "#tests/support/smpp-server.ts";
import { grantCredits, messageRow, waitForStatus } from "#tests/support/sms.ts";

let smsc: TestSmsc;
let transport: SmppTransport;
let workers: RunningWorkers;

beforeAll(async () => {
  smsc = await TestSmsc.start();
  workers = await startWorkers([
    createSmsSendJob(() => {
      transport = new SmppTransport({
        url: smsc.url(),
        sourceAddr: "SMSGateway",
        tps: 0,
        window: 10,
        onReceipts: applyReceipts,
        throttlePauseMs: 20,
        reconnectMinMs: 50,
        reconnectMaxMs: 200,
      });
      return transport;
    }),
  ]);
  expect(await transport.ready()).toBe(true);
});

afterAll(async () => {
  await workers?.close();
  await smsc?.stop();
});

afterEach(() => resetClock());

/** Time runs on from `iso` (the worker's timers need it to move). */
function clockAt(iso: string) {
  const offset = Date.parse(iso) - Date.now();
  setClock(() => Date.now() + offset);
}

const NIGHT = { enabled: true, startMinute: 21 * 60, endMinute: 8 * 60 };
const outboxDue = async (id: number) =>
  (await getDb().select().from(smsOutbox).where(eq(smsOutbox.messageId, id)).get())?.dueAt.getTime();

async function customer(credits = 10) {
  const user = await createTestUser();
  await grantCredits(user.id, credits);
  return user;
}

describe("a group send across New York's fall back", () => {
  it("holds the New York member until 08:00 EST, sends the Tokyo member now, and delivers both", async () => {
    const user = await customer();
    await saveQuietHours(user.id, NIGHT);
    const { groupId, contactIds } = await seedGroup(user.id, 2, 7100); // +1 202 555 7100 and 7101: US numbers
    // The second member lives in Tokyo whatever the number says.
    await getDb().update(contacts).set({ timeZone: "Asia/Tokyo" }).where(eq(contacts.id, contactIds[1])).run();

    // 23:00 EDT on 31 October in New York, 12:00 in Tokyo; New York's clocks go back at 02:00.
    clockAt("2026-11-01T03:00:00Z");
    const started = await startGroupSend(user.id, groupId, "Doors open at 9");
    await runGroupSend(started.id);

    const [newYork, tokyo] = (await messagesOfGroupSend(started.id)).sort((a, b) => a.contactId! - b.contactId!);
    const endInNewYork = Date.parse("2026-11-01T13:00:00Z"); // 08:00 EST, ten hours later
    expect(newYork.deferredUntil?.getTime()).toBe(endInNewYork);
    expect(await outboxDue(newYork.id)).toBe(endInNewYork);
    expect(tokyo.deferredUntil).toBeNull();
    // Both are paid for when queued, the held one too.
    expect(await getBalance(user.id)).toBe(8);

    await waitForStatus(tokyo.id, "delivered");
    expect((await messageRow(newYork.id))?.status).toBe("queued");
    const report = await getGroupSendReport(user.id, started.id);
    expect(report?.deferred).toEqual({ messages: 1, until: endInNewYork });

    // After the window the due-outbox sweep hands it to a worker and it reaches the SMSC: nothing is dropped.
    clockAt(new Date(endInNewYork + OUTBOX_GRACE_MS + 1_000).toISOString());
    expect((await reconcileSms()).enqueued).toBeGreaterThanOrEqual(1);
    await waitForStatus(newYork.id, "delivered");
    expect(smsc.accepted.filter((s) => s.destination === newYork.toPhone.slice(1))).toHaveLength(1);
    expect((await getGroupSendReport(user.id, started.id))?.deferred).toBeNull();
    expect(await getBalance(user.id)).toBe(8);
  });
});

describe("a group send across Berlin's spring forward", () => {
  it("holds a German number (by its country) until 08:00 CEST", async () => {
    const user = await customer();
    await saveQuietHours(user.id, NIGHT);
    const { groupId, contactIds } = await seedGroup(user.id, 1, 7200);
    await getDb().update(contacts).set({ phone: "+4930901820" }).where(eq(contacts.id, contactIds[0])).run();
    clockAt("2026-03-28T23:00:00Z"); // 00:00 CET; at 02:00 the clocks jump to 03:00
    const started = await startGroupSend(user.id, groupId, "Guten Morgen");
    await runGroupSend(started.id);
    const [message] = await messagesOfGroupSend(started.id);
    expect(message.deferredUntil?.getTime()).toBe(Date.parse("2026-03-29T06:00:00Z"));
  });
});

describe("single sends", () => {
  it("respect quiet hours by default; the send form's checkbox overrides them", async () => {
    const user = await customer();
    await saveQuietHours(user.id, NIGHT);
    clockAt("2026-06-11T03:00:00Z"); // 23:00 in New York
    const send = (form: Record<string, string>) =>
      call(sendSmsAction, makeRequest("/sms/sendSms", { user, form: { phoneNumber: "+12025550188", ...form } }));

    expect(locationOf(await send({ message: "held" }))).toBe("/sms/sendSms");
    expect(locationOf(await send({ message: "now", ignoreQuietHours: "on" }))).toBe("/sms/sendSms");
    const [held, now] = await getDb().select().from(smsMessages).where(eq(smsMessages.userId, user.id)).all();
    expect([held.body, held.deferredUntil?.getTime()]).toEqual(["held", Date.parse("2026-06-11T12:00:00Z")]);
    expect([now.body, now.deferredUntil]).toEqual(["now", null]);
    const asked = await queueMessage(user.id, { to: "+12025550189", body: "held too", respectQuietHours: true });
    expect(asked.deferredUntil).toBe(Date.parse("2026-06-11T12:00:00Z"));
    // Keyword replies and single schedules do not ask.
    const notAsked = await queueMessage(user.id, { to: "+12025550189", body: "not asked" });
    expect(notAsked.deferredUntil).toBeUndefined();
  });

  it("through the API: held unless ignoreQuietHours is true", async () => {
    const user = await apiCustomer(10);
    await saveQuietHours(user.id, NIGHT);
    clockAt("2026-06-11T03:00:00Z");
    const held = await callApi("POST", "/api/v1/messages", { key: user.key, json: { to: "+12025550190", body: "a" } });
    const sent = await callApi("POST", "/api/v1/messages", {
      key: user.key,
      json: { to: "+12025550190", body: "b", ignoreQuietHours: true },
    });
    expect([held.status, sent.status]).toEqual([201, 201]);
    expect((await messageRow(held.json.id))?.deferredUntil?.getTime()).toBe(Date.parse("2026-06-11T12:00:00Z"));
    expect((await messageRow(sent.json.id))?.deferredUntil).toBeNull();
  });
});

describe("when quiet hours are off", () => {
  it("leaves the messages as they are (the same array: nothing per message)", async () => {
    const user = await customer();
    const messages = [{ to: "+12025550191", body: "x", respectQuietHours: true }];
    expect(await holdForQuietHours(user.id, messages, Date.parse("2026-06-11T03:00:00Z"))).toBe(messages);
    await saveQuietHours(user.id, { ...NIGHT, enabled: false });
    expect(await holdForQuietHours(user.id, messages, Date.parse("2026-06-11T03:00:00Z"))).toBe(messages);
  });

  it("uses the account's zone for a number whose country is unknown", async () => {
    const user = await customer();
    await saveQuietHours(user.id, NIGHT); // the test user's zone is UTC
    const [held] = await holdForQuietHours(
      user.id,
      [{ to: "+9991234567", body: "x", respectQuietHours: true }],
      Date.parse("2026-06-11T22:00:00Z"),
    );
    expect(held.deferredUntil).toBe(Date.parse("2026-06-12T08:00:00Z"));
  });
});

describe("the settings form", () => {
  it("says what is wrong next to the field, changing nothing, then saves", async () => {
    const user = await customer();
    const post = (form: Record<string, string>) =>
      call(settingsAction, makeRequest("/account/settings", { user, form: { intent: "quiet-hours", ...form } }));
    const wrong = await post({ enabled: "on", start: "21:00", end: "21:00" });
    expect(statusOf(wrong)).toBe(400);
    expect(dataOf<{ error: Record<string, string[]> }>(wrong).error.end?.[0]).toMatch(/must differ/);
    const loaded = dataOf<{ quietHours: { enabled: boolean } }>(
      await call(settingsLoader, makeRequest("/account/settings", { user })),
    );
    expect(loaded.quietHours.enabled).toBe(false);

    expect(locationOf(await post({ enabled: "on", start: "21:30", end: "07:45" }))).toBe("/account/settings");
    const saved = dataOf<{ quietHours: unknown }>(
      await call(settingsLoader, makeRequest("/account/settings", { user })),
    );
    expect(saved.quietHours).toEqual({ enabled: true, startMinute: 21 * 60 + 30, endMinute: 7 * 60 + 45 });
  });
});

describe("a contact's time zone", () => {
  it("is set by the contact form (a wrong one is a field error) and by an optional CSV column", async () => {
    const user = await customer();
    const create = (timeZone: string) =>
      call(
        createContactAction,
        makeRequest("/sms/createContact", {
          user,
          form: { name: "Zed", phoneNumber: "+12025550192", email: "zed@example.com", timeZone },
        }),
      );
    const wrong = await create("Mars/Olympus");
    expect(statusOf(wrong)).toBe(400);
    expect(dataOf<{ error: Record<string, string[]> }>(wrong).error.timeZone?.[0]).toMatch(/Europe\/Berlin/);
    expect(locationOf(await create("europe/berlin"))).toMatch(/^\/sms\/accountContacts/);

    const csv = [
      "Name,Phone,Email,Time Zone",
      "Ann,+12025550193,ann@example.com,Asia/Tokyo",
      "Ben,+12025550194,ben@example.com,",
      "Cat,+12025550195,cat@example.com,Nowhere/Special",
    ].join("\n");
    const token = await saveImportUpload(user.id, "zones.csv", new TextEncoder().encode(csv));
    expect((await previewImport(user.id, token))?.guess).toMatchObject({ hasHeader: true, timeZone: 3 });
    const report = await runImport(user.id, token, { hasHeader: true, name: 0, phone: 1, email: 2, timeZone: 3 });
    expect(report).toMatchObject({ imported: 2, skipped: 1 });
    expect(report.skippedRows[0].reason).toMatch(/time zone/);
    const zones = Object.fromEntries(
      (
        await getDb()
          .select({ name: contacts.name, timeZone: contacts.timeZone })
          .from(contacts)
          .where(eq(contacts.userId, user.id))
          .all()
      ).map((c) => [c.name, c.timeZone]),
    );
    expect(zones).toEqual({ Zed: "Europe/Berlin", Ann: "Asia/Tokyo", Ben: null });
  });
});

describe("a group schedule's occurrence", () => {
  it("holds the members inside the window like a group send", async () => {
    const user = await customer();
    await saveQuietHours(user.id, NIGHT);
    const { groupId } = await seedGroup(user.id, 1, 7300); // a US number: New York
    clockAt("2026-12-01T02:00:00Z"); // 21:00 EST
    const schedule = await createSchedule(user.id, {
      target: { kind: "group", groupId },
      body: "Reminder",
      repeat: "none",
      firstSendAt: Date.parse("2026-12-01T03:00:00Z"), // 22:00 in New York
      timeZone: "UTC",
    });
    clockAt("2026-12-01T03:00:00Z");
    expect(await runOccurrence(schedule.id, schedule.firstSendAt)).toBe("queued");
    const send = (await getDb().select().from(groupSends).where(eq(groupSends.scheduleId, schedule.id)).get())!;
    await runGroupSend(send.id);
    const [message] = await messagesOfGroupSend(send.id);
    expect([message.source, message.status, message.deferredUntil?.getTime()]).toEqual([
      "schedule",
      "queued",
      Date.parse("2026-12-01T13:00:00Z"),
    ]);
  });
});
