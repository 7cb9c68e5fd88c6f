// The logs of a run through the real HTTP server and an inline worker, in production's JSON format
// at LOG_LEVEL=debug: a login, a group send posted from its screen (and the job it enqueued), an API
// send, both through to delivered. Every line carries its request's or job's id; no line holds a
// password, an API key, a session cookie, a secret or a message body.
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { getDb } from "#app/db/client.server.ts";
import { groupSends } from "#app/db/schema/contacts.ts";
import { applyReceipts } from "#app/modules/sms/dispatch.server.ts";
import { SimulatorTransport } from "#app/modules/sms/transports/simulator.server.ts";
import { getSecrets } from "#app/utils/env.server.ts";
import { captureLogs } from "#app/utils/log.server.ts";
import { api } from "#server/api.ts";
import { health } from "#server/health.ts";
import { startHttpServer, stopHttpServer } from "#server/http.ts";
import { sameOrigin } from "#server/same-origin.ts";
import { groupSend } from "#worker/jobs/group-send.ts";
import { createSmsSendJob } from "#worker/jobs/sms-send.ts";
import { type RunningWorkers, startWorkers } from "#worker/workers.ts";
import { apiCustomer } from "#tests/support/api.ts";
import { messagesOfGroupSend, seedGroup } from "#tests/support/contacts.ts";
import { waitForStatus } from "#tests/support/sms.ts";
import { waitFor } from "#tests/support/wait.ts";

let server: Server;
let workers: RunningWorkers;
let base: string;
const captured = { lines: [] as string[], stop: () => {} };

beforeAll(async () => {
  process.env.PORT = "0";
  process.env.HOST = "127.0.0.1";
  process.env.SIMULATOR_DLR_MS = "10";
  process.env.LOG_LEVEL = "debug";
  Object.assign(captured, captureLogs());
  server = await startHttpServer([health, sameOrigin, api]);
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  workers = await startWorkers([
    groupSend,
    createSmsSendJob(() => new SimulatorTransport({ dlrMs: 10, onReceipts: applyReceipts })),
  ]);
}, 120_000);

afterAll(async () => {
  await workers?.close();
  if (server) await stopHttpServer(server, 1_000);
  captured.stop();
});

type Line = Record<string, unknown> & { msg: string; level: string; scope: string };
const parsed = () => captured.lines.map((line) => JSON.parse(line) as Line);

it("logs one JSON line per page request and the job it enqueued under the request's id, and no secret or message body", async () => {
  const customer = await apiCustomer(100);
  const { groupId } = await seedGroup(customer.id, 3, 7100);

  // A login through the form, with the password in the body.
  const login = await fetch(`${base}/login`, {
    method: "POST",
    redirect: "manual",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: base },
    body: new URLSearchParams({ email: customer.email, password: customer.password }),
  });
  expect(login.status).toBe(302);
  const cookie = login.headers.get("set-cookie")!.split(";")[0];

  const groupBody = "Group secret-ish text 7f3a";
  const posted = await fetch(`${base}/sms/accountGroups?panel=send&id=${groupId}`, {
    method: "POST",
    redirect: "manual",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: base, Cookie: cookie },
    body: new URLSearchParams({ intent: "send", id: String(groupId), message: groupBody }),
  });
  expect(posted.status).toBe(302);
  const postId = posted.headers.get("request-id");
  expect(postId).toMatch(/^[0-9a-f-]{36}$/);

  const apiBody = "API body text 9c2e";
  const sent = await fetch(`${base}/api/v1/messages`, {
    method: "POST",
    headers: { Authorization: `Bearer ${customer.key}`, "Content-Type": "application/json" },
    body: JSON.stringify({ to: "+12025550142", body: apiBody }),
  });
  expect(sent.status).toBe(201);
  const apiId = sent.headers.get("request-id");
  expect(apiId).toMatch(/^[0-9a-f-]{36}$/);
  const { id } = (await sent.json()) as { id: number };
  await waitForStatus(id, "delivered");
  await waitFor(
    async () => {
      const row = await getDb().select().from(groupSends).where(eq(groupSends.userId, customer.id)).get();
      const messages = row ? await messagesOfGroupSend(row.id) : [];
      return messages.length === 3 && messages.every((m) => m.status === "delivered");
    },
    { what: "the group's three messages delivered" },
  );

  const lines = parsed();
  // Every line is JSON with a time, a level and a scope.
  for (const line of lines) expect(line).toMatchObject({ time: expect.any(String), level: expect.any(String) });

  // One line for the page request, with its status and duration, under the id it answered.
  const page = lines.filter((l) => l.scope === "http" && l.requestId === postId);
  expect(page).toEqual([
    expect.objectContaining({ level: "info", msg: "POST /sms/accountGroups 302", ms: expect.any(Number) }),
  ]);
  // The job it enqueued logs under the job's id and the same request id.
  const job = lines.filter((l) => l.queue === "group-send" && l.requestId === postId);
  expect(job.length).toBeGreaterThan(0);
  expect(job[0].jobId).toBeTruthy();
  // The API's hot path logs its request only at debug level.
  expect(lines.filter((l) => l.requestId === apiId)).toEqual([
    expect.objectContaining({ level: "debug", msg: "POST /api/v1/messages 201" }),
  ]);

  const all = captured.lines.join("\n");
  const secrets = [
    customer.password,
    customer.key,
    cookie.split("=")[1],
    ...getSecrets().session,
    getSecrets().apiKey,
    groupBody,
    apiBody,
  ];
  for (const secret of secrets) expect(all).not.toContain(secret);
});
