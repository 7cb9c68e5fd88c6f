// STOP, then a send by every path: the form, the contact panel, the API, a group and a schedule
// occurrence are refused or skipped and nothing is charged; START, and the send goes out. And the
// From choice: a send goes from the sender asked for, which must be the account's.
import { describe, expect, it } from "vitest";
import { createContact } from "#app/modules/contacts/contacts.server.ts";
import { runGroupSend, startGroupSend } from "#app/modules/group-sends/group-send.server.ts";
import { createGroup } from "#app/modules/contacts/groups.server.ts";
import { getBalance } from "#app/modules/credits/ledger.server.ts";
import { applyInboundKeyword } from "#app/modules/inbound/keywords.server.ts";
import { UnknownSenderError } from "#app/modules/senders/errors.ts";
import { createSender } from "#app/modules/senders/senders.server.ts";
import { runOccurrence } from "#app/modules/scheduling/runner.server.ts";
import { createSchedule } from "#app/modules/scheduling/schedules.server.ts";
import { action as contactsAction } from "#app/routes/sms/account-contacts.tsx";
import { action as sendSmsAction } from "#app/routes/sms/send-sms.tsx";
import { apiCustomer, callApi } from "#tests/support/api.ts";
import { call, dataOf, locationOf, makeRequest, statusOf } from "#tests/support/requests.ts";
import { scheduleMessages } from "#tests/support/schedules.ts";
import { messageRow } from "#tests/support/sms.ts";
import { setClock, resetClock } from "#app/utils/clock.server.ts";

type Reply = { error?: Record<string, string[] | null> };

let received = 1_900_000_000_000;
const stop = (phone: string, toAddress = "SMSGateway") =>
  applyInboundKeyword({ phone, toAddress, accountId: null, body: "STOP", receivedAt: received++ });
const start = (phone: string, toAddress = "SMSGateway") =>
  applyInboundKeyword({ phone, toAddress, accountId: null, body: "START", receivedAt: received++ });

describe("a phone that replied STOP", () => {
  it("is refused by the send form next to the phone field, nothing charged; after START the form sends", async () => {
    const user = await apiCustomer(10);
    await stop("+12025550401");
    const form = { intent: "send", phoneNumber: "+1 202 555 0401", message: "Sale today" };
    const refused = await call(sendSmsAction, makeRequest("/sms/sendSms", { user, form }));
    expect(statusOf(refused)).toBe(400);
    expect(dataOf<Reply>(refused).error?.phoneNumber?.[0]).toMatch(/\+12025550401 has opted out/);
    expect(await getBalance(user.id)).toBe(10);

    await start("12025550401");
    const sent = await call(sendSmsAction, makeRequest("/sms/sendSms", { user, form }));
    expect(locationOf(sent)).toBe("/sms/sendSms");
    expect(await getBalance(user.id)).toBe(9);
  });

  it("is refused by the contact panel, nothing charged", async () => {
    const user = await apiCustomer(10);
    const contact = await createContact(user.id, {
      name: "Ann",
      phone: "+12025550402",
      email: "ann@example.com",
      groupIds: [],
    });
    await stop("+12025550402");
    const form = { intent: "send", id: String(contact.id), message: "Hi Ann" };
    const refused = await call(contactsAction, makeRequest("/sms/accountContacts?panel=send", { user, form }));
    expect(statusOf(refused)).toBe(400);
    expect(dataOf<Reply>(refused).error?.[""]?.[0]).toMatch(/\+12025550402 has opted out/);
    expect(await getBalance(user.id)).toBe(10);
  });

  it("is refused by the API with recipient_opted_out, nothing charged", async () => {
    const user = await apiCustomer(10);
    await stop("+12025550403");
    const answer = await callApi("POST", "/api/v1/messages", {
      key: user.key,
      json: { to: "+12025550403", body: "Your code is 1234" },
    });
    expect(answer.status).toBe(422);
    expect(answer.json.error).toMatchObject({ code: "recipient_opted_out", field: "to" });
    expect(await getBalance(user.id)).toBe(10);
    // Another recipient in the same millisecond is not held back by it.
    const [refused, sent] = await Promise.all([
      callApi("POST", "/api/v1/messages", { key: user.key, json: { to: "+12025550403", body: "again" } }),
      callApi("POST", "/api/v1/messages", { key: user.key, json: { to: "+12025550404", body: "fine" } }),
    ]);
    expect([refused.status, sent.status]).toEqual([422, 201]);
    expect(await getBalance(user.id)).toBe(9);
  });

  it("is skipped by a group send, which says so in its report and charges only the others", async () => {
    const user = await apiCustomer(10);
    const group = await createGroup(user.id, { name: "Club", description: "Members" });
    for (const [name, phone] of [
      ["Bea", "+12025550405"],
      ["Cy", "+12025550406"],
    ])
      await createContact(user.id, { name, phone, email: `${name}@example.com`, groupIds: [group.id] });
    await stop("+12025550405");
    const started = await startGroupSend(user.id, group.id, "Meeting at 7");
    const report = (await runGroupSend(started.id))!;
    expect(report).toMatchObject({ queued: 1, skipped: 1, credits: 1 });
    expect(report.skips).toEqual([
      { name: "Bea", phone: "+12025550405", reason: "opted out (replied STOP or on your opt-out list)" },
    ]);
    expect(await getBalance(user.id)).toBe(9);
  });

  it("makes a schedule's occurrence a failed 'Opted out' message at no charge", async () => {
    const user = await apiCustomer(10);
    const at = Date.now() + 3_600_000;
    const schedule = await createSchedule(user.id, {
      target: { kind: "phone", to: "+12025550407" },
      body: "Weekly reminder",
      repeat: "none",
      firstSendAt: at,
      timeZone: "UTC",
    });
    await stop("+12025550407");
    setClock(() => schedule.firstSendAt);
    try {
      expect(await runOccurrence(schedule.id, schedule.firstSendAt)).toBe("opted-out");
    } finally {
      resetClock();
    }
    expect(await scheduleMessages(schedule.id)).toEqual([
      expect.objectContaining({ status: "failed", error: "Opted out", credits: 0 }),
    ]);
    expect(await getBalance(user.id)).toBe(10);
  });
});

describe("the From choice", () => {
  it("sends from the sender chosen, and refuses one that is not the account's, by form and by API", async () => {
    const user = await apiCustomer(10);
    await createSender({ address: "AcmeShop", kind: "alphanumeric", ton: 5, npi: 0, userId: user.id });
    await createSender({ address: "+447700900401", kind: "long_number", ton: 1, npi: 1, userId: user.id });
    const other = await apiCustomer(0);
    await createSender({ address: "NotYours", kind: "alphanumeric", ton: 5, npi: 0, userId: other.id });

    const api = await callApi("POST", "/api/v1/messages", {
      key: user.key,
      json: { to: "+12025550408", body: "hi", from: "+447700900401" },
    });
    expect(api.status).toBe(201);
    expect((await messageRow(api.json.id))?.fromAddress).toBe("+447700900401");
    // Without `from`: the default, the first sender assigned.
    const byDefault = await callApi("POST", "/api/v1/messages", {
      key: user.key,
      json: { to: "+12025550408", body: "x" },
    });
    expect((await messageRow(byDefault.json.id))?.fromAddress).toBe("AcmeShop");

    const wrong = await callApi("POST", "/api/v1/messages", {
      key: user.key,
      json: { to: "+12025550408", body: "hi", from: "NotYours" },
    });
    expect(wrong.status).toBe(422);
    expect(wrong.json.error).toMatchObject({ code: "unknown_sender", field: "from" });

    const form = { intent: "send", phoneNumber: "+12025550408", message: "hello", from: "NotYours" };
    const refused = await call(sendSmsAction, makeRequest("/sms/sendSms", { user, form }));
    expect(dataOf<Reply>(refused).error?.from?.[0]).toBe('"NotYours" is not one of your senders');
    expect(await getBalance(user.id)).toBe(8);

    await expect(startGroupSend(user.id, 1, "x", { from: "NotYours" })).rejects.toBeInstanceOf(UnknownSenderError);
  });
});
