// The inbox screens: conversations, a thread with both directions (read when seen), a reply through
// the normal send path, the admin's unassigned list and the test-mode simulator.
import { describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { getEnv } from "#app/utils/env.server.ts";
import { getDb } from "#app/db/client.server.ts";
import { senders } from "#app/db/schema/senders.ts";
import { smsMessages } from "#app/db/schema/sms.ts";
import { simulateInbound } from "#app/modules/inbound/simulate.server.ts";
import { getBalance } from "#app/modules/credits/ledger.server.ts";
import { createContact } from "#app/modules/contacts/contacts.server.ts";
import { queueMessage } from "#app/modules/sms/send.server.ts";
import * as inbox from "#app/routes/sms/inbox.tsx";
import * as thread from "#app/routes/sms/inbox-thread.tsx";
import * as unassigned from "#app/routes/admin/inbound.tsx";
import * as simulate from "#app/routes/admin/simulate.tsx";
import { MessageListSchema } from "#app/api/resources/message-schemas.ts";
import { apiCustomer, callApi } from "#tests/support/api.ts";
import { inboundFrom, newPhone } from "#tests/support/inbound.ts";
import { call, createTestUser, dataOf, locationOf, makeRequest, statusOf } from "#tests/support/requests.ts";
import { grantCredits } from "#tests/support/sms.ts";

const SHARED = () => getEnv().SMPP_SOURCE_ADDR;

async function conversationWith(credits = 10) {
  const user = await createTestUser();
  await grantCredits(user.id, credits);
  const phone = newPhone();
  await queueMessage(user.id, { to: phone, body: "Shall we meet at 5? Please reply" });
  await simulateInbound({ from: phone, to: SHARED(), text: "Yes, see you then" });
  return { user, phone };
}

const threadPath = (phone: string) => `/sms/inbox/${phone}`;

describe("the inbox", () => {
  it("lists conversations with the contact's name and the unread count; the thread page marks them read", async () => {
    const { user, phone } = await conversationWith();
    await createContact(user.id, { name: "Maria", phone, email: "maria@example.com", groupIds: [] });
    const list = dataOf<Awaited<ReturnType<typeof inbox.loader>>>(
      await call(inbox.loader, makeRequest("/sms/inbox", { user })),
    );
    expect(list.conversations).toEqual([
      expect.objectContaining({ phone, contactName: "Maria", unread: 1, lastBody: "Yes, see you then" }),
    ]);

    const seen = dataOf<Awaited<ReturnType<typeof thread.loader>>>(
      await call(thread.loader, makeRequest(threadPath(phone), { user }), { phone }),
    );
    expect(seen.messages.map((m) => [m.direction, m.body])).toEqual([
      ["outbound", "Shall we meet at 5? Please reply"],
      ["inbound", "Yes, see you then"],
    ]);
    // Seeing it changes nothing (a GET never writes); the page then posts that it was read.
    expect(seen.unread).toBe(1);
    expect((await inboundFrom(phone))[0].readAt).toBeNull();
    const read = await call(thread.action, makeRequest(threadPath(phone), { user, form: { intent: "read" } }), {
      phone,
    });
    expect(locationOf(read)).toBe(threadPath(phone));
    expect((await inboundFrom(phone))[0].readAt).not.toBeNull();
    // The page's own post in the background answers in place instead of redirecting.
    const background = await call(
      thread.action,
      makeRequest(threadPath(phone), { user, form: { intent: "read", background: "1" } }),
      { phone },
    );
    expect(locationOf(background)).toBeNull();
    expect(statusOf(background)).toBe(200);
  });

  it("a reply goes through the send path: charged, queued, in the thread", async () => {
    const { user, phone } = await conversationWith(10);
    const before = await getBalance(user.id);
    const result = await call(
      thread.action,
      makeRequest(threadPath(phone), { user, form: { intent: "send", phoneNumber: phone, message: "Great!" } }),
      { phone },
    );
    expect(locationOf(result)).toBe(threadPath(phone));
    expect(await getBalance(user.id)).toBe(before - 1);
    const seen = dataOf<Awaited<ReturnType<typeof thread.loader>>>(
      await call(thread.loader, makeRequest(threadPath(phone), { user }), { phone }),
    );
    expect(seen.messages.at(-1)).toMatchObject({ direction: "outbound", body: "Great!" });
  });

  it("a reply goes from the account's number the phone wrote to", async () => {
    const user = await createTestUser();
    await grantCredits(user.id, 5);
    await getDb()
      .insert(senders)
      .values({ address: "+4479460077", kind: "long_number", ton: 1, npi: 1, userId: user.id, updatedAt: new Date() })
      .run();
    const phone = newPhone();
    await simulateInbound({ from: phone, to: "+4479460077", text: "Is the shop open?" });
    const seen = dataOf<Awaited<ReturnType<typeof thread.loader>>>(
      await call(thread.loader, makeRequest(threadPath(phone), { user }), { phone }),
    );
    expect(seen.replyFrom).toBe("+4479460077");
    await call(
      thread.action,
      makeRequest(threadPath(phone), {
        user,
        form: { intent: "send", phoneNumber: phone, message: "Yes, until 6", from: seen.replyFrom! },
      }),
      { phone },
    );
    const sent = (await getDb()
      .select({ fromAddress: smsMessages.fromAddress })
      .from(smsMessages)
      .where(eq(smsMessages.toPhone, phone))
      .get())!;
    expect(sent.fromAddress).toBe("+4479460077");
  });

  it("a reply the balance cannot pay says so next to the form, and nothing is sent", async () => {
    const { user, phone } = await conversationWith(1);
    const result = await call(
      thread.action,
      makeRequest(threadPath(phone), { user, form: { intent: "send", phoneNumber: phone, message: "Hello again" } }),
      { phone },
    );
    expect(statusOf(result)).toBe(400);
    expect(JSON.stringify(dataOf(result))).toContain("enough credits");
  });

  it("another account's conversation is not found", async () => {
    const { phone } = await conversationWith();
    const stranger = await createTestUser();
    expect(statusOf(await call(thread.loader, makeRequest(threadPath(phone), { user: stranger }), { phone }))).toBe(
      404,
    );
    expect((await inboundFrom(phone))[0].readAt).toBeNull();
  });
});

describe("admin: unassigned messages and the simulator", () => {
  it("an inbound nobody owns is listed for admins", async () => {
    const admin = await createTestUser("admin");
    const phone = newPhone();
    await simulateInbound({ from: phone, to: SHARED(), text: "Who is this?" });
    const list = dataOf<Awaited<ReturnType<typeof unassigned.loader>>>(
      await call(unassigned.loader, makeRequest("/admin/inbound", { user: admin })),
    );
    expect(list.messages).toContainEqual(expect.objectContaining({ from: phone, body: "Who is this?" }));
  });

  it("a reply with two accounts in the window lands in /admin/inbound, in neither inbox, until an admin assigns it once", async () => {
    const admin = await createTestUser("admin");
    const [first, second] = [await apiCustomer(5), await apiCustomer(5)];
    const phone = newPhone();
    for (const user of [first, second]) await queueMessage(user.id, { to: phone, body: "Can you come on Friday?" });
    await simulateInbound({ from: phone, to: SHARED(), text: "YES" });

    const listed = async () =>
      dataOf<Awaited<ReturnType<typeof unassigned.loader>>>(
        await call(unassigned.loader, makeRequest("/admin/inbound", { user: admin })),
      ).messages.find((m) => m.from === phone);
    const row = await listed();
    expect(row).toMatchObject({ body: "YES", to: SHARED() });
    expect(row!.candidates.map((c) => c.email)).toEqual([first.email, second.email]);
    const inboundOf = async (user: { key: string }) =>
      MessageListSchema.parse((await callApi("GET", "/api/v1/messages?direction=inbound", { key: user.key })).json)
        .data;
    for (const user of [first, second]) {
      const conversations = dataOf<Awaited<ReturnType<typeof inbox.loader>>>(
        await call(inbox.loader, makeRequest("/sms/inbox", { user })),
      ).conversations;
      expect(conversations).toEqual([]);
      expect(await inboundOf(user)).toEqual([]);
    }

    const assign = (account: string) =>
      call(unassigned.action, makeRequest("/admin/inbound", { user: admin, form: { id: String(row!.id), account } }));
    const unknown = await assign("nobody@example.com");
    expect(statusOf(unknown)).toBe(400);
    expect(JSON.stringify(dataOf(unknown))).toContain("No account with the e-mail nobody@example.com");
    expect(await listed()).toBeDefined();

    expect(locationOf(await assign(second.email.toUpperCase()))).toBe("/admin/inbound");
    expect(await listed()).toBeUndefined();
    const again = await assign(first.email);
    expect(statusOf(again)).toBe(409);
    expect(JSON.stringify(dataOf(again))).toContain("assigned already");

    expect(await inboundOf(first)).toEqual([]);
    expect(await inboundOf(second)).toEqual([expect.objectContaining({ from: phone, body: "YES" })]);
    const theirs = dataOf<Awaited<ReturnType<typeof inbox.loader>>>(
      await call(inbox.loader, makeRequest("/sms/inbox", { user: second })),
    );
    expect(theirs.conversations).toEqual([expect.objectContaining({ phone, unread: 1, lastBody: "YES" })]);
  });

  it("the simulator takes a long message through the inbound path in parts, joined again", async () => {
    const admin = await createTestUser("admin");
    const phone = newPhone();
    const text = "Long message ".repeat(20).trim();
    const result = await call(
      simulate.action,
      makeRequest("/admin/simulate", { user: admin, form: { from: phone, to: SHARED(), message: text } }),
    );
    expect(locationOf(result)).toBe("/admin/simulate");
    expect(await inboundFrom(phone)).toEqual([expect.objectContaining({ body: text, parts: 2, userId: null })]);
  });

  it("is not there outside test mode", async () => {
    const admin = await createTestUser("admin");
    const { testMode } = getEnv();
    const active = testMode.active;
    testMode.active = false;
    try {
      expect(statusOf(await call(simulate.loader, makeRequest("/admin/simulate", { user: admin })))).toBe(404);
      const form = { from: newPhone(), to: SHARED(), message: "x" };
      expect(statusOf(await call(simulate.action, makeRequest("/admin/simulate", { user: admin, form })))).toBe(404);
    } finally {
      testMode.active = active;
    }
  });

  it("bad input is answered next to the field, nothing stored", async () => {
    const admin = await createTestUser("admin");
    const result = await call(
      simulate.action,
      makeRequest("/admin/simulate", { user: admin, form: { from: "not a phone", to: SHARED(), message: "x" } }),
    );
    expect(statusOf(result)).toBe(400);
  });
});

describe("GET /api/v1/messages?direction=inbound", () => {
  it("lists the messages phones sent the account, newest first, and no one else's", async () => {
    const customer = await apiCustomer(10);
    const phone = newPhone();
    await queueMessage(customer.id, { to: phone, body: "Table for two?" });
    await simulateInbound({ from: phone, to: SHARED(), text: "Yes please" });
    await simulateInbound({ from: phone, to: SHARED(), text: "At 8" });
    const answer = await callApi("GET", "/api/v1/messages?direction=inbound&limit=1", { key: customer.key });
    expect(answer.status).toBe(200);
    const page = MessageListSchema.parse(answer.json);
    expect(page.data).toEqual([
      expect.objectContaining({ direction: "inbound", from: phone, to: SHARED(), body: "At 8", parts: 1 }),
    ]);
    const next = MessageListSchema.parse(
      (
        await callApi("GET", `/api/v1/messages?direction=inbound&cursor=${encodeURIComponent(page.nextCursor!)}`, {
          key: customer.key,
        })
      ).json,
    );
    expect(next.data.map((m) => m.body)).toEqual(["Yes please"]);

    const sent = MessageListSchema.parse((await callApi("GET", "/api/v1/messages", { key: customer.key })).json);
    expect(sent.data).toEqual([expect.objectContaining({ direction: "outbound", to: phone })]);

    const other = await apiCustomer();
    const theirs = MessageListSchema.parse(
      (await callApi("GET", "/api/v1/messages?direction=inbound", { key: other.key })).json,
    );
    expect(theirs.data).toEqual([]);
  });

  it("refuses a status filter on inbound messages, which have none", async () => {
    const customer = await apiCustomer();
    const answer = await callApi("GET", "/api/v1/messages?direction=inbound&status=delivered", { key: customer.key });
    expect(answer.status).toBe(400);
  });
});
