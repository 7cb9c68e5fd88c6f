import { describe, expect, it } from "vitest";
import { getDb } from "#app/db/client.server.ts";
import { smsMessages } from "#app/db/schema/sms.ts";
import { setUserTimeZone } from "#app/modules/auth/users.server.ts";
import { getMessageHistory } from "#app/modules/sms/history.server.ts";
import { queueMessages } from "#app/modules/sms/send.server.ts";
import { loader } from "#app/routes/sms/message-history.tsx";
import { call, createTestUser, dataOf, makeRequest, type TestUser } from "#tests/support/requests.ts";
import { grantCredits } from "#tests/support/sms.ts";

type History = {
  messages: { id: number; body: string; toPhone: string; status: string }[];
  page: number;
  totalPages: number;
  total: number;
  timeZone: string;
  previousHref: string | null;
  nextHref: string | null;
};

async function history(user: TestUser, search = "") {
  return dataOf<History>(await call(loader, makeRequest(`/sms/messageHistory${search}`, { user })));
}

async function userWithMessages(n: number) {
  const user = await createTestUser();
  await grantCredits(user.id, n);
  const { messages } = await queueMessages(
    user.id,
    Array.from({ length: n }, (_, i) => ({ to: "+12025550180", body: `message ${i + 1}` })),
  );
  return { user, ids: messages.map((m) => m.id) };
}

describe("message history", () => {
  it("shows the user's own messages, newest first, 10 a page", async () => {
    const { user, ids } = await userWithMessages(23);
    const other = await userWithMessages(2);
    const first = await history(user);
    expect(first).toMatchObject({ page: 1, totalPages: 3, total: 23, previousHref: null });
    expect(first.messages.map((m) => m.id)).toEqual(ids.slice(-10).reverse());
    expect(first.messages[0]).toMatchObject({ body: "message 23", toPhone: "+12025550180", status: "queued" });
    const last = await history(user, "?page=3");
    expect(last.messages.map((m) => m.body)).toEqual(["message 3", "message 2", "message 1"]);
    expect(last.nextHref).toBeNull();
    expect((await history(other.user)).messages.map((m) => m.id)).toEqual(other.ids.slice().reverse());
  });

  it("finds the next and previous pages by key, with the same rows as by number", async () => {
    const { user } = await userWithMessages(25);
    const page1 = await history(user);
    const page2ByKey = await history(user, page1.nextHref!);
    const page2ByNumber = await history(user, "?page=2");
    expect(page2ByKey.page).toBe(2);
    expect(page2ByKey.messages).toEqual(page2ByNumber.messages);
    const page3 = await history(user, page2ByKey.nextHref!);
    expect(page3.messages).toHaveLength(5);
    const back = await history(user, page3.previousHref!);
    expect(back.messages).toEqual(page2ByNumber.messages);
    expect(back.previousHref).toBe("?page=1");
  });

  it("clamps a page out of range and ignores junk", async () => {
    const { user } = await userWithMessages(3);
    expect((await history(user, "?page=99")).page).toBe(1);
    expect((await history(user, "?page=abc&after=-4")).messages).toHaveLength(3);
    const empty = await createTestUser();
    expect(await history(empty)).toMatchObject({ page: 1, totalPages: 1, total: 0, messages: [] });
  });

  it("stops at 10,000 rows however long the history is", async () => {
    const user = await createTestUser();
    const rows = Array.from({ length: 10_005 }, (_, i) => ({
      userId: user.id,
      toPhone: "+12025550181",
      body: `bulk ${i}`,
      encoding: "GSM-7" as const,
      segments: 1,
      credits: 1,
      status: "delivered" as const,
      updatedAt: new Date(0),
    }));
    // In slices: PostgreSQL takes at most 65,535 parameters a statement.
    for (let i = 0; i < rows.length; i += 1000)
      await getDb()
        .insert(smsMessages)
        .values(rows.slice(i, i + 1000))
        .run();
    const first = await history(user);
    expect(first).toMatchObject({ total: 10_000, totalPages: 1_000 });
    const last = await history(user, "?page=1000");
    expect(last.messages).toHaveLength(10);
    expect(last.nextHref).toBeNull();
    expect(last.messages.at(-1)?.body).toBe("bulk 5");
  });

  it("labels times with the user's time zone", async () => {
    const { user } = await userWithMessages(1);
    await setUserTimeZone(user.id, "Europe/Berlin");
    expect((await history(user)).timeZone).toBe("Europe/Berlin");
  });
});

describe("getMessageHistory's links", () => {
  it("keys the next page from this page's last id and the previous one from its first; page 1 has no cursor", async () => {
    const { user, ids } = await userWithMessages(25);
    const newestFirst = ids.slice().reverse();
    expect(await getMessageHistory(user.id, 1)).toMatchObject({
      previousHref: null,
      nextHref: `?page=2&after=${newestFirst[9]}`,
    });
    const page2 = await getMessageHistory(user.id, 2, { after: newestFirst[9] });
    expect(page2).toMatchObject({ previousHref: "?page=1", nextHref: `?page=3&after=${newestFirst[19]}` });
    expect(await getMessageHistory(user.id, 3)).toMatchObject({
      previousHref: `?page=2&before=${newestFirst[20]}`,
      nextHref: null,
    });
  });

  it("has no links for an empty history", async () => {
    const empty = await createTestUser();
    expect(await getMessageHistory(empty.id, 1)).toMatchObject({ previousHref: null, nextHref: null });
  });
});
