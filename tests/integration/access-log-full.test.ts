// ACCESS_LOG=full: a line per API request through the real HTTP server (decision 117).
import { afterAll, beforeAll, expect, it } from "vitest";
import { startLoggedApi } from "#tests/support/access-log.ts";

let logged: Awaited<ReturnType<typeof startLoggedApi>>;

beforeAll(async () => {
  logged = await startLoggedApi("full");
}, 60_000);

afterAll(() => logged?.stop());

it("logs every API request on its own line", async () => {
  expect(await logged.send(20)).toEqual(Array(20).fill(201));
  await logged.stop();
  const http = logged.lines().filter((line) => line.scope === "http");
  expect(http).toHaveLength(20);
  for (const line of http)
    expect(line).toMatchObject({ level: "info", msg: "POST /api/v1/messages 201", requestId: expect.any(String) });
});
