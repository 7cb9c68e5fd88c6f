import { eq, inArray } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "#app/db/client.server.ts";
import { inboundMessages } from "#app/db/schema/inbound.ts";
import { smsMessages } from "#app/db/schema/sms.ts";
import { setUserTimeZone } from "#app/modules/auth/users.server.ts";
import { startGroupSend, runGroupSend } from "#app/modules/group-sends/group-send.server.ts";
import { EXPORT_CHUNK, TEXT_SEARCH_WINDOW } from "#app/modules/sms/history.server.ts";
import { queueMessages } from "#app/modules/sms/send.server.ts";
import { loader as exportLoader } from "#app/routes/sms/message-history-export.ts";
import { loader } from "#app/routes/sms/message-history.tsx";
import { spreadsheetSafe } from "#app/utils/csv.server.ts";
import { seedGroup } from "#tests/support/contacts.ts";
import { call, createTestUser, dataOf, makeRequest, statusOf, type TestUser } from "#tests/support/requests.ts";
import { grantCredits } from "#tests/support/sms.ts";

type History = {
  messages: { id: number; body: string; toPhone: string; status: string | null; direction: string }[];
  total: number;
  page: number;
  totalPages: number;
  nextHref: string | null;
  previousHref: string | null;
  errors: Record<string, string>;
};

async function history(user: TestUser, search = "") {
  return dataOf<History>(await call(loader, makeRequest(`/sms/messageHistory${search}`, { user })));
}

async function openExport(user: TestUser, search = "") {
  return (await call(exportLoader, makeRequest(`/sms/messageHistory/export${search}`, { user }))) as Response;
}

async function exportCsv(user: TestUser, search = "") {
  const response = (await call(exportLoader, makeRequest(`/sms/messageHistory/export${search}`, { user }))) as Response;
  return { response, text: response.status === 200 ? await response.text() : "" };
}

/** Messages for a fresh user, with the given statuses and creation times (UTC ms) set on them. */
async function userWith(rows: { to?: string; body: string; status?: string; createdAt?: number }[]) {
  const user = await createTestUser();
  await grantCredits(user.id, rows.length);
  const { messages } = await queueMessages(
    user.id,
    rows.map((r) => ({ to: r.to ?? "+12025550180", body: r.body })),
  );
  for (const [i, r] of rows.entries()) {
    const set: Record<string, unknown> = {};
    if (r.status) set.status = r.status;
    if (r.createdAt) set.createdAt = new Date(r.createdAt);
    if (Object.keys(set).length)
      await getDb().update(smsMessages).set(set).where(eq(smsMessages.id, messages[i].id)).run();
  }
  return { user, ids: messages.map((m) => m.id) };
}

const bodies = (h: History) => h.messages.map((m) => m.body);

describe("message history filters", () => {
  it("filters by status, keeping the filter in the paging links", async () => {
    const { user } = await userWith(
      Array.from({ length: 25 }, (_, i) => ({ body: `m${i}`, status: i % 2 ? "delivered" : "failed" })),
    );
    const delivered = await history(user, "?status=delivered");
    expect(delivered.total).toBe(12);
    expect(delivered.messages.every((m) => m.status === "delivered")).toBe(true);
    expect(delivered.nextHref).toContain("status=delivered");
    const page2 = await history(user, delivered.nextHref!);
    expect(page2.messages.map((m) => m.status)).toEqual(["delivered", "delivered"]);
    expect(page2.previousHref).toBe("?status=delivered&page=1");
    expect((await history(user, "?status=nonsense")).errors.status).toMatch(/Choose a status/);
  });

  it("filters by phone, normalising what was typed", async () => {
    const { user } = await userWith([
      { to: "+12025550111", body: "to 111" },
      { to: "+12025550122", body: "to 122" },
    ]);
    expect(bodies(await history(user, "?phone=%2B1 (202) 555-0122"))).toEqual(["to 122"]);
    expect((await history(user, "?phone=12ab")).errors.phone).toMatch(/not a valid phone number/);
  });

  it("filters by text contained anywhere in the message, case-insensitively, % and _ literal", async () => {
    const { user } = await userWith([
      { body: "Your code is 4711" },
      { body: "Sale: 50% off" },
      { body: "Sale: 500 off" },
      { body: "nothing" },
    ]);
    expect(bodies(await history(user, "?text=CODE"))).toEqual(["Your code is 4711"]);
    expect(bodies(await history(user, "?text=50%25"))).toEqual(["Sale: 50% off"]);
    expect((await history(user, "?text=x")).errors.text).toMatch(/at least 2/);
  });

  it("looks for text only in the newest messages of the window", async () => {
    const user = await createTestUser();
    await insertMessages(user.id, TEXT_SEARCH_WINDOW + 5, (i) =>
      i === 1 ? "needle old" : i === TEXT_SEARCH_WINDOW + 5 ? "needle new" : `hay ${i}`,
    );
    expect(bodies(await history(user, "?text=needle"))).toEqual(["needle new"]);
  });

  it("filters by dates in the user's time zone, both ends inclusive", async () => {
    // 2026-03-08 00:30 in New York is 05:30 UTC; 2026-03-07 23:30 there is 04:30 UTC the next day.
    const { user } = await userWith([
      { body: "before", createdAt: Date.UTC(2026, 2, 8, 4, 30) },
      { body: "first minute", createdAt: Date.UTC(2026, 2, 8, 5, 0) },
      { body: "last minute", createdAt: Date.UTC(2026, 2, 10, 3, 59) },
      { body: "after", createdAt: Date.UTC(2026, 2, 10, 4, 0) },
    ]);
    await setUserTimeZone(user.id, "America/New_York");
    const zoned = { ...user, timeZone: "America/New_York" };
    // Clocks spring forward on 2026-03-08 in New York: the 9th ends at 04:00 UTC on the 10th.
    expect(bodies(await history(zoned, "?from=2026-03-08&to=2026-03-09"))).toEqual(["last minute", "first minute"]);
    expect(bodies(await history(zoned, "?from=2026-03-10"))).toEqual(["after"]);
    const bad = await history(zoned, "?from=2026-02-30&to=2026-01-01");
    expect(bad.errors.from).toMatch(/YYYY-MM-DD/);
    const reversed = await history(zoned, "?from=2026-03-09&to=2026-03-08");
    expect(reversed.errors.to).toMatch(/on or after/);
    expect(reversed.messages).toEqual([]);
  });

  it("pages a date range by key, newest first", async () => {
    const start = Date.UTC(2026, 0, 10);
    const { user } = await userWith(
      Array.from({ length: 23 }, (_, i) => ({ body: `d${i}`, createdAt: start + i * 60_000 })),
    );
    const page1 = await history(user, "?from=2026-01-10&to=2026-01-10");
    expect(page1.total).toBe(23);
    const page2 = await history(user, page1.nextHref!);
    const page3 = await history(user, page2.nextHref!);
    expect([...bodies(page1), ...bodies(page2), ...bodies(page3)]).toEqual(
      Array.from({ length: 23 }, (_, i) => `d${22 - i}`),
    );
    expect(bodies(await history(user, page3.previousHref!))).toEqual(bodies(page2));
  });

  it("filters by campaign (group send) and by direction", async () => {
    const { user } = await userWith([{ body: "single" }]);
    await grantCredits(user.id, 10);
    const { groupId } = await seedGroup(user.id, 3);
    const send = await startGroupSend(user.id, groupId, "to the group");
    await runGroupSend(send.id);
    const campaign = await history(user, `?campaign=${send.id}`);
    expect(campaign.total).toBe(3);
    expect(new Set(bodies(campaign))).toEqual(new Set(["to the group"]));
    await getDb()
      .insert(inboundMessages)
      .values({
        userId: user.id,
        fromPhone: "+12025550199",
        toAddress: "+447700900123",
        body: "a reply",
        encoding: "GSM-7",
        parts: 1,
        dedupeKey: `k-${user.id}`,
        receivedAt: new Date(),
      })
      .run();
    const inbound = await history(user, "?direction=inbound");
    expect(inbound.messages).toMatchObject([{ body: "a reply", direction: "inbound", status: null }]);
    expect(bodies(await history(user, "?direction=inbound&phone=%2B12025550199"))).toEqual(["a reply"]);
    expect((await history(user, "?direction=inbound&status=delivered")).errors.status).toMatch(/Outbound/);
    // Another account's campaign id is a 404, on the page and the export.
    const other = await createTestUser();
    expect(statusOf(await call(loader, makeRequest(`/sms/messageHistory?campaign=${send.id}`, { user: other })))).toBe(
      404,
    );
    expect(statusOf(await openExport(other, `?campaign=${send.id}`))).toBe(404);
  });
});

/** `count` messages for a user straight into the database (bodies by 1-based index), oldest first. */
async function insertMessages(userId: number, count: number, body: (i: number) => string) {
  const now = Date.now() - count * 1000;
  const rows = Array.from({ length: count }, (_, i) => ({
    userId,
    toPhone: "+12025550180",
    body: body(i + 1),
    encoding: "GSM-7" as const,
    segments: 1,
    credits: 1,
    status: "delivered" as const,
    source: "api" as const,
    createdAt: new Date(now + (i + 1) * 1000),
    updatedAt: new Date(now + (i + 1) * 1000),
  }));
  // In slices: PostgreSQL takes at most 65,535 parameters a statement.
  for (let i = 0; i < rows.length; i += 1000)
    await getDb()
      .insert(smsMessages)
      .values(rows.slice(i, i + 1000))
      .run();
}

describe("history export", () => {
  it("downloads every filtered row as CSV, times in the user's zone, formulas defused", async () => {
    const { user, ids } = await userWith([
      { body: '=HYPERLINK("http://evil")', status: "delivered", createdAt: Date.UTC(2026, 6, 1, 12, 0, 5) },
      { body: 'plain, with "quotes"\nand a line', status: "delivered", createdAt: Date.UTC(2026, 6, 1, 13, 0) },
      { body: "@SUM(A1)", status: "failed", createdAt: Date.UTC(2026, 6, 1, 14, 0) },
    ]);
    await setUserTimeZone(user.id, "Europe/Berlin");
    const { response, text } = await exportCsv({ ...user, timeZone: "Europe/Berlin" }, "?status=delivered");
    expect(response.headers.get("Content-Type")).toBe("text/csv; charset=utf-8");
    expect(response.headers.get("Content-Disposition")).toBe('attachment; filename="messages.csv"');
    expect(text).toBe(
      [
        "Message ID,Direction,Delivery Status,Status Detail,Receiver Phone,Sender,Message Content,Segments,Campaign,Created At (Europe/Berlin)",
        `${ids[1]},outbound,Delivered,,'+12025550180,,"plain, with ""quotes""\nand a line",1,,2026-07-01 15:00:00`,
        `${ids[0]},outbound,Delivered,,'+12025550180,,"'=HYPERLINK(""http://evil"")",1,,2026-07-01 14:00:05`,
        "",
      ].join("\n"),
    );
    expect((await exportCsv(user, "?from=bad")).response.status).toBe(400);
  });

  it("escapes every cell a spreadsheet would run as a formula", () => {
    for (const cell of ["=1+1", "+1", "-1", "@A1", "\tx", "\rx"]) expect(spreadsheetSafe(cell)).toBe(`'${cell}`);
    for (const cell of ["1", "a=b", " =x", ""]) expect(spreadsheetSafe(cell)).toBe(cell);
    expect(spreadsheetSafe(null)).toBe("");
  });

  it("streams 100,000 rows chunk by chunk, reading only as fast as the reader takes them", async () => {
    const user = await createTestUser();
    const total = 100_000;
    await insertMessages(user.id, total, (i) => `bulk message ${i}`);
    const response = await openExport(user);
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    let lines = 0;
    let chunks = 0;
    let firstChunk = "";
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      const text = decoder.decode(value, { stream: true });
      if (chunks === 0) firstChunk = text;
      lines += text.split("\n").length - 1;
      chunks += 1;
    }
    expect(lines).toBe(total + 1);
    // Each pull is one query of EXPORT_CHUNK rows: 100 reads, not one body of ~4 MB.
    // One query of EXPORT_CHUNK rows per read (the next test shows nothing is read ahead).
    expect(chunks).toBe(total / EXPORT_CHUNK);
    expect(firstChunk.split("\n")).toHaveLength(EXPORT_CHUNK + 2);
    expect(firstChunk).toContain(`,bulk message ${total},`);
    // PostgreSQL takes about 30 s here on 2 cores (16 s of it the fixture's inserts).
  }, 120_000);

  it("reads lazily: rows deleted after the first chunk never reach the file", async () => {
    const user = await createTestUser();
    await insertMessages(user.id, 5 * EXPORT_CHUNK, (i) => `lazy ${i}`);
    const response = await openExport(user);
    const reader = response.body!.getReader();
    const first = await reader.read();
    expect(new TextDecoder().decode(first.value).split("\n")).toHaveLength(EXPORT_CHUNK + 2);
    // Nothing else was read ahead, and no cursor holds the connection: other statements run meanwhile.
    const ids = await getDb()
      .select({ id: smsMessages.id })
      .from(smsMessages)
      .where(eq(smsMessages.userId, user.id))
      .all();
    await getDb()
      .delete(smsMessages)
      .where(
        inArray(
          smsMessages.id,
          ids.map((r) => r.id),
        ),
      )
      .run();
    let rest = "";
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      rest += new TextDecoder().decode(value);
    }
    expect(rest).toBe("");
  });

  it("is for signed-in users only", async () => {
    const result = await call(exportLoader, makeRequest("/sms/messageHistory/export"));
    expect(statusOf(result)).toBe(302);
  });
});
