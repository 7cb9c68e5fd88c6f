// While Redis is down, requests that can go on without it do so at once: the API checks its key in
// SQLite and queues into SQLite (the outbox), a group send and a schedule are saved for their
// reconcilers, logins and sign-ups count their rate limits in memory, /readyz says 503 (redis unreachable). Nothing waits for ioredis to give up on a command, and the outage is one log line, not
// one per request. This file runs its own redis-server, so stopping it touches no other file.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { eq } from "drizzle-orm";
import { expect, it, vi } from "vitest";
import { getDb } from "#app/db/client.server.ts";
import { groupSends } from "#app/db/schema/contacts.ts";
import { schedules } from "#app/db/schema/scheduling.ts";
import { smsMessages, smsOutbox } from "#app/db/schema/sms.ts";
import { createGroup } from "#app/modules/contacts/groups.server.ts";
import { SMS_SEND_QUEUE } from "#app/queue/jobs/sms-send.server.ts";
import { getQueue } from "#app/queue/queues.server.ts";
import { getRedis } from "#app/queue/redis.server.ts";
import { getEnv } from "#app/utils/env.server.ts";
import { action as loginAction } from "#app/routes/auth/login.tsx";
import { health } from "#server/health.ts";
import { apiCustomer, callApi } from "#tests/support/api.ts";
import { ownTestRedis } from "#tests/support/own-redis.ts";
import { call, createTestUser, locationOf, makeRequest } from "#tests/support/requests.ts";
import { waitFor } from "#tests/support/wait.ts";

const redis = ownTestRedis("requests-outage");

async function probe(path: "/healthz" | "/readyz"): Promise<{ status: number; reasons: string[] }> {
  const server = createServer((req, res) => void health(req, res));
  await new Promise<void>((ready) => server.listen(0, "127.0.0.1", ready));
  const response = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`);
  server.close();
  const body = (await response.json()) as { status: string; reasons?: string[] };
  return { status: response.status, reasons: body.reasons ?? [] };
}

it("the API, a group send, a schedule, login and /readyz answer at once while Redis is down, and all is as before when it is back", async () => {
  const customer = await apiCustomer(10);
  const user = await createTestUser();
  const group = await createGroup(customer.id, { name: "Regulars", description: "Weekly" });
  const contact = { name: "Ada", phone: "+12025550160", email: "ada@example.com", groupIds: [group.id] };
  expect((await callApi("POST", "/api/v1/contacts", { key: customer.key, json: contact })).status).toBe(201);
  expect(
    (await callApi("POST", "/api/v1/messages", { key: customer.key, json: { to: "+12025550161", body: "Before" } }))
      .status,
  ).toBe(201);
  // The API answers before the message's job reaches Redis: on a busy machine that can take longer
  // than the next line takes to stop Redis, and that command would wait in ioredis's retries.
  await waitFor(
    async () => (await getQueue(SMS_SEND_QUEUE).getJobCountByTypes("waiting", "delayed", "prioritized")) > 0,
    {
      what: "the first message's job in Redis",
    },
  );

  // Warnings are what this test reads (the test setup keeps only errors).
  getEnv().LOG_LEVEL = "warn";
  const logged = vi.spyOn(console, "error").mockImplementation(() => {});
  await redis.stop();
  const lines = () => logged.mock.calls.map((args) => String(args[0]));
  await waitFor(() => lines().some((line) => line.startsWith("[redis] connection lost")), {
    what: "the connection to report Redis gone",
  });
  expect(getRedis().status).toBe("reconnecting");

  const sent = await callApi("POST", "/api/v1/messages", {
    key: customer.key,
    json: { to: "+12025550162", body: "During" },
  });
  expect(sent.status).toBe(201);
  for (const to of ["+12025550165", "+12025550166", "+12025550167"]) {
    expect(
      (await callApi("POST", "/api/v1/messages", { key: customer.key, json: { to, body: "During too" } })).status,
    ).toBe(201);
  }
  // The rate limit holds in memory meanwhile, and the message waits in SQLite for the reconciler.
  expect(sent.headers["RateLimit-Limit"]).toBeDefined();
  const row = (await getDb().select().from(smsMessages).where(eq(smsMessages.id, sent.json.id)).get())!;
  expect(row.status).toBe("queued");
  expect(await getDb().select().from(smsOutbox).where(eq(smsOutbox.messageId, row.id)).get()).toBeDefined();
  expect((await callApi("GET", `/api/v1/messages/${row.id}`, { key: customer.key })).status).toBe(200);
  expect((await callApi("GET", "/api/v1/messages", { key: "sk_wrong" })).status).toBe(401);

  const started = await callApi("POST", `/api/v1/groups/${group.id}/messages`, {
    key: customer.key,
    json: { body: "Sale today" },
  });
  expect(started.status).toBe(202);
  expect((await getDb().select().from(groupSends).where(eq(groupSends.id, started.json.id)).get())?.status).toBe(
    "queued",
  );
  const sendAt = new Date(Date.now() + 3_600_000).toISOString();
  const scheduled = await callApi("POST", "/api/v1/messages", {
    key: customer.key,
    json: { to: "+12025550164", body: "Later", sendAt },
  });
  expect(scheduled.status).toBe(201);
  expect(scheduled.json.status).toBe("scheduled");
  expect(
    (
      await getDb()
        .select()
        .from(schedules)
        .where(eq(schedules.id, Number(String(scheduled.json.id).slice("sch_".length))))
        .get()
    )?.status,
  ).toBe("active");

  const login = await call(
    loginAction,
    makeRequest("/login", { form: { email: user.email, password: user.password } }),
  );
  expect(locationOf(login)).toBe("/sms/sendSms");
  // The process answers; it is not ready, and says why in a fixed phrase (no internal error text).
  expect(await probe("/healthz")).toEqual({ status: 200, reasons: [] });
  expect(await probe("/readyz")).toEqual({ status: 503, reasons: expect.arrayContaining(["redis unreachable"]) });

  // Every request above went the way without Redis at once: none waited for ioredis to give up
  // (its error says "max retries"; the API's fallback logs "did not answer"), and the outage was
  // reported once, not once per request; so were the jobs left to the reconcilers (four messages,
  // a group send and a schedule: one line).
  const errors = logged.mock.calls.map((args) => String(args[1] ?? ""));
  expect(errors.filter((error) => /max retries/i.test(error))).toEqual([]);
  expect(lines().filter((line) => line.includes("did not answer"))).toEqual([]);
  expect(lines().filter((line) => line.startsWith("[redis] connection lost"))).toHaveLength(1);
  expect(lines().filter((line) => line.startsWith("[queue] could not add the job"))).toHaveLength(1);
  logged.mockRestore();
  getEnv().LOG_LEVEL = "error";

  await redis.restart();
  await waitFor(() => getRedis().status === "ready", { what: "the connection to come back" });
  const after = await callApi("POST", "/api/v1/messages", {
    key: customer.key,
    json: { to: "+12025550163", body: "After" },
  });
  expect(after.status).toBe(201);
  expect(after.headers["RateLimit-Limit"]).toBeDefined();
  // No worker runs in this file, so /readyz still waits for a heartbeat, but Redis is no reason any more.
  expect((await probe("/readyz")).reasons).toEqual(["no worker heartbeat in the last 30 s"]);
});
