// Every API answer names its request (Request-Id), and an error's log line carries the same id, so
// a customer's "request 4f1c... failed" leads straight to the log.
import type { AddressInfo } from "node:net";
import { z } from "zod";
import { expect, it } from "vitest";
import { API_BASE, defineRoute } from "#app/api/define-route.ts";
import { createApiHandler } from "#app/api/handler.server.ts";
import { captureLogs } from "#app/utils/log.server.ts";
import { apiExtension } from "#server/api.ts";
import { startHttpServer, stopHttpServer } from "#server/http.ts";

const failing = defineRoute({
  method: "GET",
  path: `${API_BASE}/failing`,
  operationId: "failing",
  tag: "Test",
  summary: "Fails on our side",
  auth: false,
  scope: null,
  success: { status: 200, description: "Never.", schema: z.object({}) },
  handle: () => {
    throw new Error("a bug on our side");
  },
});

it("answers a 500 with a Request-Id that its error log line carries", async () => {
  process.env.PORT = "0";
  process.env.HOST = "127.0.0.1";
  const captured = captureLogs();
  const server = await startHttpServer([apiExtension(createApiHandler({ routes: [failing] }))]);
  try {
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const answer = await fetch(`${base}/api/v1/failing`);
    expect(answer.status).toBe(500);
    const requestId = answer.headers.get("request-id");
    expect(requestId).toMatch(/^[0-9a-f-]{36}$/);
    const lines = captured.lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines).toContainEqual(
      expect.objectContaining({ level: "error", scope: "api", msg: "unexpected error", requestId }),
    );
  } finally {
    await stopHttpServer(server, 1_000);
    captured.stop();
  }
});
