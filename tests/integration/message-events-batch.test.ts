// The message.* events and group_send.completed noted for a batch of status changes at once
// (decision 116): the events each move wants, in the moves' order, to the endpoints and statusCallback
// URLs they always went to, for a bounded number of statements per batch; delivered by the webhooks
// worker to a real HTTP receiver on loopback, a job of them answered in one transaction.
import { and, eq, inArray } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import pg from "pg";
import { getDb, getSqlite, usesPostgres, withTx } from "#app/db/client.server.ts";
import { groupSends } from "#app/db/schema/contacts.ts";
import { smsMessages } from "#app/db/schema/sms.ts";
import { webhookDeliveries, webhookEvents } from "#app/db/schema/webhooks.ts";
import { completeGroupSendsIfDone } from "#app/modules/sms/group-send-completion.server.ts";
import { listDeliveries } from "#app/modules/webhooks/deliveries.server.ts";
import { getEndpoint } from "#app/modules/webhooks/endpoints.server.ts";
import type { MessageStatus } from "#app/modules/messaging/message-status.ts";
import { type MessageMove, noteMessageStatuses, saveStatusCallbacks } from "#app/modules/sms/message-events.server.ts";
import { createTestUser } from "#tests/support/requests.ts";
import { waitFor } from "#tests/support/wait.ts";
import { useWebhookGateway } from "#tests/support/webhook-gateway.ts";
import { itOnSqlite } from "#tests/support/engines.ts";

const { receiver, customerWithEndpoint } = useWebhookGateway({ receiptFor: () => null });

let clock = 1_900_000_000_000;

// Read at most once a second whatever runs (which accounts have endpoints): not the batch's cost.
const SUBSCRIPTIONS = usesPostgres()
  ? `select user_id as "userId", events from webhook_endpoints where enabled`
  : "select user_id as userId, events from webhook_endpoints where enabled = 1";
const ENDPOINTS_OF_ACCOUNT = usesPostgres()
  ? "select id, events from webhook_endpoints where user_id = $1 and enabled"
  : "select id, events from webhook_endpoints where user_id = ? and enabled = 1";

/** Records the SQL of every statement run until the returned function is called. */
function recordSqlite(sources: string[]): () => void {
  const prototype = Object.getPrototypeOf(getSqlite().prepare("select 1")) as Record<
    string,
    (...a: unknown[]) => unknown
  >;
  const methods = ["get", "all", "run", "iterate"] as const;
  const saved = Object.fromEntries(methods.map((name) => [name, prototype[name]]));
  for (const name of methods)
    prototype[name] = function (this: { source: string }, ...params: unknown[]) {
      sources.push(this.source);
      return saved[name].apply(this, params);
    };
  return () => Object.assign(prototype, saved);
}

/** recordSqlite on PostgreSQL: every query a pooled client sends, but a transaction's savepoints. */
function recordPostgres(sources: string[]): () => void {
  const prototype = pg.Client.prototype as unknown as { query: (...a: unknown[]) => unknown };
  const saved = prototype.query;
  prototype.query = function (this: unknown, ...args: unknown[]) {
    const text = typeof args[0] === "string" ? args[0] : (args[0] as { text: string }).text;
    if (!/^(savepoint|release|rollback to)\b/i.test(text)) sources.push(text);
    return saved.apply(this, args);
  };
  return () => (prototype.query = saved);
}

/** The SQL of every statement `work` runs, but the subscriptions' read. */
async function statementsOf(work: () => Promise<unknown>): Promise<string[]> {
  const sources: string[] = [];
  const restore = usesPostgres() ? recordPostgres(sources) : recordSqlite(sources);
  try {
    await work();
  } finally {
    restore();
  }
  return sources.filter((source) => source !== SUBSCRIPTIONS);
}

/** Stored messages in `status` (no outbox row: the worker leaves them alone), their ids. */
async function storeMessages(userId: number, count: number, status: MessageStatus, groupSendId: number | null = null) {
  const at = new Date(clock);
  return (
    await getDb()
      .insert(smsMessages)
      .values(
        Array.from({ length: count }, (_, i) => ({
          userId,
          toPhone: `+1202555${String(8000 + i).padStart(4, "0")}`,
          body: `Batch message ${i}`,
          encoding: "GSM-7" as const,
          segments: 1,
          credits: 1,
          status,
          groupSendId,
          createdAt: at,
          updatedAt: at,
        })),
      )
      .returning({ id: smsMessages.id })
      .all()
  ).map((row) => row.id);
}

/** Moves the messages (as the sms module does) and notes them in the same transaction; the statements noting ran. */
async function move(moves: MessageMove[]): Promise<string[]> {
  const now = ++clock;
  return await withTx(async () => {
    for (const { messageId, status } of moves)
      await getDb()
        .update(smsMessages)
        .set({ status, updatedAt: new Date(now) })
        .where(eq(smsMessages.id, messageId))
        .run();
    return await statementsOf(async () => await noteMessageStatuses(moves, now));
  });
}

const eventsOfMessages = async (ids: number[]) =>
  (
    await getDb()
      .select({ id: webhookEvents.id, type: webhookEvents.type, payload: webhookEvents.payload })
      .from(webhookEvents)
      .all()
  )
    .map((event) => ({ ...event, data: (JSON.parse(event.payload) as { data: { id: number; status: string } }).data }))
    .filter((event) => ids.includes(event.data.id))
    .sort((a, b) => (a.id < b.id ? -1 : 1));

describe("noteMessageStatuses", () => {
  it("records the events a batch of accounts with and without endpoints wants, in the moves' order, with statusCallbacks", async () => {
    const subscribed = await customerWithEndpoint(["message.sent", "message.delivered"], "/batch-endpoint");
    const quiet = await createTestUser();
    const calling = await createTestUser();
    const [a1, a2] = await storeMessages(subscribed.user.id, 2, "submitting");
    const [b1] = await storeMessages(quiet.id, 1, "submitting");
    const [c1, c2] = await storeMessages(calling.id, 2, "submitting");
    await withTx(
      async (tx) =>
        await saveStatusCallbacks(tx, calling.id, [{ messageId: c1, url: receiver().url("/batch-callback") }]),
    );

    const statements = await move([
      { userId: subscribed.user.id, messageId: a1, status: "submitted" },
      { userId: quiet.id, messageId: b1, status: "submitted" },
      { userId: calling.id, messageId: c1, status: "submitted" },
      { userId: calling.id, messageId: c2, status: "submitted" },
      { userId: subscribed.user.id, messageId: a2, status: "submitted" },
      { userId: subscribed.user.id, messageId: a1, status: "delivered" },
      { userId: calling.id, messageId: c1, status: "undelivered" },
      // Not subscribed to message.failed, no callback: nothing.
      { userId: subscribed.user.id, messageId: a2, status: "failed" },
    ]);
    // Per batch: which accounts have callbacks (messages newer than the last look), the callbacks, the
    // messages, the events and the deliveries once each; the endpoints once per account with events.
    const perAccount = statements.filter((source) => source === ENDPOINTS_OF_ACCOUNT);
    const perBatch = statements.filter((source) => source !== ENDPOINTS_OF_ACCOUNT);
    expect(perAccount).toHaveLength(2);
    expect(perBatch.length).toBeLessThanOrEqual(5);
    expect(new Set(perBatch).size).toBe(perBatch.length);

    const events = await eventsOfMessages([a1, a2, b1, c1, c2]);
    // One event per wanted move, in the batch's order (event ids grow); each carries its message as it now is.
    expect(events.map((e) => [e.type, e.data.id])).toEqual([
      ["message.sent", a1],
      ["message.sent", c1],
      ["message.sent", a2],
      ["message.delivered", a1],
      ["message.failed", c1],
    ]);
    expect(events.map((e) => e.data.status)).toEqual([
      "delivered",
      "undelivered",
      "failed",
      "delivered",
      "undelivered",
    ]);
    const targets = await getDb()
      .select({
        eventId: webhookDeliveries.eventId,
        endpointId: webhookDeliveries.endpointId,
        url: webhookDeliveries.url,
      })
      .from(webhookDeliveries)
      .where(
        inArray(
          webhookDeliveries.eventId,
          events.map((e) => e.id),
        ),
      )
      .all();
    expect(targets).toHaveLength(5);
    for (const event of events) {
      const target = targets.find((t) => t.eventId === event.id)!;
      expect(target).toEqual(
        event.data.id === c1
          ? { eventId: event.id, endpointId: null, url: receiver().url("/batch-callback") }
          : { eventId: event.id, endpointId: subscribed.endpoint.id, url: null },
      );
    }
    // Delivered after the commit, by the webhooks worker, with their event ids.
    await waitFor(() => events.every((e) => receiver().received.some((r) => r.id === e.id)));
  });

  it("runs no statement for a batch nobody wants and no message of which can have a statusCallback", async () => {
    const quiet = await createTestUser();
    const ids = await storeMessages(quiet.id, 50, "submitting");
    // One look at which accounts have callbacks, for messages newer than the last look; then none.
    expect(await move(ids.map((messageId) => ({ userId: quiet.id, messageId, status: "submitted" })))).toHaveLength(1);
    expect(await move(ids.map((messageId) => ({ userId: quiet.id, messageId, status: "delivered" })))).toEqual([]);
    expect(await eventsOfMessages(ids)).toEqual([]);
  });

  it("finds the statusCallback of a message newer than the last look, of an account that had none before", async () => {
    const quiet = await createTestUser();
    const [old] = await storeMessages(quiet.id, 1, "submitting");
    await move([{ userId: quiet.id, messageId: old, status: "submitted" }]);
    const [fresh] = await storeMessages(quiet.id, 1, "submitting");
    await withTx(
      async (tx) => await saveStatusCallbacks(tx, quiet.id, [{ messageId: fresh, url: receiver().url("/fresh") }]),
    );
    await move([
      { userId: quiet.id, messageId: old, status: "delivered" },
      { userId: quiet.id, messageId: fresh, status: "submitted" },
    ]);
    expect((await eventsOfMessages([old, fresh])).map((e) => [e.type, e.data.id])).toEqual([["message.sent", fresh]]);
  });

  // PostgreSQL's sequences never give an id twice: the case is SQLite's.
  itOnSqlite("finds the statusCallback of a message whose id a rolled-back transaction had used", async () => {
    const quiet = await createTestUser();
    const callbackEvents = async () => (await eventsOfMessages(storedIds)).filter((e) => e.type === "message.sent");
    const storedIds: number[] = [];
    // Inserted and noted, then rolled back: SQLite gives its id again.
    await expect(
      withTx(async () => {
        const [gone] = await storeMessages(quiet.id, 1, "submitted");
        storedIds.push(gone);
        await noteMessageStatuses([{ userId: quiet.id, messageId: gone, status: "submitted" }], ++clock);
        throw new Error("rolled back");
      }),
    ).rejects.toThrow("rolled back");
    const [again] = await storeMessages(quiet.id, 1, "submitting");
    expect(again).toBe(storedIds[0]);
    await withTx(
      async (tx) => await saveStatusCallbacks(tx, quiet.id, [{ messageId: again, url: receiver().url("/again") }]),
    );
    await move([{ userId: quiet.id, messageId: again, status: "submitted" }]);
    expect(await callbackEvents()).toHaveLength(1);
  });
});

describe("completeGroupSendsIfDone", () => {
  async function storeGroupSend(userId: number, status: "running" | "done", total: number) {
    return (
      await getDb()
        .insert(groupSends)
        .values({
          userId,
          groupName: "Batch group",
          body: "Hi",
          segments: 1,
          status,
          total,
          queued: total,
          updatedAt: new Date(clock),
        })
        .returning({ id: groupSends.id })
        .get()
    ).id;
  }
  const completedAt = async (id: number) =>
    (await getDb().select({ at: groupSends.completedAt }).from(groupSends).where(eq(groupSends.id, id)).get())!.at;
  const completions = async (userId: number) =>
    await getDb()
      .select()
      .from(webhookEvents)
      .where(and(eq(webhookEvents.userId, userId), eq(webhookEvents.type, "group_send.completed")))
      .all();

  it("completes a send whose last two messages finish in one batch, once, and leaves the others open", async () => {
    const { user } = await customerWithEndpoint(["group_send.completed"], "/batch-group");
    const finishing = await storeGroupSend(user.id, "done", 3);
    const unfinished = await storeGroupSend(user.id, "done", 2);
    const fanningOut = await storeGroupSend(user.id, "running", 1);
    const [first, second, third] = await storeMessages(user.id, 3, "submitted", finishing);
    await storeMessages(user.id, 2, "submitted", unfinished);
    const [lone] = await storeMessages(user.id, 1, "submitted", fanningOut);
    const finish = async (ids: number[], status: MessageStatus) => {
      const now = ++clock;
      return await withTx(async () => {
        if (ids.length > 0) await getDb().update(smsMessages).set({ status }).where(inArray(smsMessages.id, ids)).run();
        return await statementsOf(
          async () => await completeGroupSendsIfDone([finishing, finishing, unfinished, fanningOut], now),
        );
      });
    };
    // One statement for the batch's sends, while none completes.
    expect(await finish([first, lone], "delivered")).toHaveLength(1);
    expect(await completedAt(finishing)).toBeNull();
    await finish([second, third], "undelivered");
    expect(await completedAt(finishing)).toEqual(new Date(clock));
    expect(await completedAt(unfinished)).toBeNull();
    expect(await completedAt(fanningOut)).toBeNull();
    const [event] = await completions(user.id);
    expect(JSON.parse(event.payload).data).toMatchObject({ id: finishing, total: 3, delivered: 1, failed: 2 });
    // Asked again: nothing more.
    await finish([], "delivered");
    expect(await completions(user.id)).toHaveLength(1);
    await waitFor(() => receiver().received.some((r) => r.id === event.id));
  });
});

describe("a webhook job of several deliveries", () => {
  it("records each delivery's own answer, and the endpoint failing when its last answer failed, until a retry succeeds", async () => {
    const { user, endpoint } = await customerWithEndpoint(["message.delivered"], "/job-answers");
    const ids = await storeMessages(user.id, 3, "submitted");
    const down = ids[2];
    receiver().answer = (delivery) =>
      delivery.body.data.id === down ? { status: 503, body: "down for now" } : { status: 200, body: "ok" };
    // One batch: one job of three deliveries to the endpoint, answered in one transaction.
    await move(ids.map((messageId) => ({ userId: user.id, messageId, status: "delivered" })));
    const answered = await waitFor(async () => {
      const rows = await listDeliveries(user.id, endpoint.id);
      // A claim counts the attempt before the answer comes back: wait for the answers themselves.
      return rows.length === 3 && rows.every((row) => row.lastStatusCode !== null) ? rows : undefined;
    });
    const [failed, ...delivered] = answered;
    expect(failed).toMatchObject({ status: "pending", lastStatusCode: 503, lastAnswer: "down for now" });
    expect(failed.deliveredAt).toBeNull();
    for (const row of delivered) {
      expect(row).toMatchObject({ status: "delivered", attempts: 1, lastStatusCode: 200, lastAnswer: "ok" });
      expect(row.deliveredAt).not.toBeNull();
    }
    expect((await getEndpoint(user.id, endpoint.id)).failingSince).not.toBeNull();
    receiver().answer = () => ({ status: 200 });
    await waitFor(async () => (await listDeliveries(user.id, endpoint.id)).every((row) => row.status === "delivered"));
    expect((await getEndpoint(user.id, endpoint.id)).failingSince).toBeNull();
  });
});
