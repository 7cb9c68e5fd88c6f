// A Redis that hangs with its socket open (SIGSTOP: no error, no reconnect) costs a page request at
// most one REDIS_COMMAND_TIMEOUT_MS; the requests after it go on without Redis at once, and when
// Redis answers again (SIGCONT) everything uses it again (docs/decisions/080-redis-command-timeouts.md).
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { expect, it, vi } from "vitest";
import { getRedis, redisForRequest } from "#app/queue/redis.server.ts";
import { action as loginAction } from "#app/routes/auth/login.tsx";
import { getEnv } from "#app/utils/env.server.ts";
import { health } from "#server/health.ts";
import { ownTestRedis } from "#tests/support/own-redis.ts";
import { call, createTestUser, locationOf, makeRequest } from "#tests/support/requests.ts";
import { waitFor } from "#tests/support/wait.ts";

const TIMEOUT_MS = 1_000;
process.env.REDIS_COMMAND_TIMEOUT_MS = String(TIMEOUT_MS);
// What a busy test machine may add to a request on top of the timeout.
const SLACK_MS = 1_500;

const redis = ownTestRedis("hung");

/** /readyz's reasons (no worker runs here, so only the Redis one is this test's). */
async function readinessReasons(): Promise<string[]> {
  const server = createServer((req, res) => void health(req, res));
  await new Promise<void>((ready) => server.listen(0, "127.0.0.1", ready));
  const response = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/readyz`);
  server.close();
  return ((await response.json()) as { reasons?: string[] }).reasons ?? [];
}

async function timedLogin(user: { email: string; password: string }) {
  const started = performance.now();
  const response = await call(
    loginAction,
    makeRequest("/login", { form: { email: user.email, password: user.password } }),
  );
  return { location: locationOf(response), ms: performance.now() - started };
}

it("a page request waits at most the command timeout on a stopped Redis, the next ones not at all, and all is well after SIGCONT", async () => {
  const user = await createTestUser();
  expect((await timedLogin(user)).location).toBe("/sms/sendSms");
  expect(getRedis().status).toBe("ready");

  getEnv().LOG_LEVEL = "warn";
  const logged = vi.spyOn(console, "error").mockImplementation(() => {});
  redis.pause();
  try {
    const first = await timedLogin(user);
    expect(first.location).toBe("/sms/sendSms");
    expect(first.ms).toBeLessThan(TIMEOUT_MS + SLACK_MS);
    // The connection still says ready (the socket is open), yet requests now skip Redis at once.
    expect(getRedis().status).toBe("ready");
    expect(() => redisForRequest()).toThrow(/not answering/);
    const second = await timedLogin(user);
    expect(second.location).toBe("/sms/sendSms");
    expect(second.ms).toBeLessThan(TIMEOUT_MS);
    expect(await readinessReasons()).toContain("redis unreachable");
    const lines = logged.mock.calls.map((args) => String(args[0]));
    expect(lines.filter((line) => line.startsWith("[redis] a command got no answer"))).toHaveLength(1);
  } finally {
    redis.resume();
    logged.mockRestore();
    getEnv().LOG_LEVEL = "error";
  }

  await waitFor(
    () => {
      try {
        return redisForRequest().status === "ready";
      } catch {
        return false;
      }
    },
    { what: "the connection to be trusted again" },
  );
  expect((await timedLogin(user)).location).toBe("/sms/sendSms");
  expect(await readinessReasons()).not.toContain("redis unreachable");
});
