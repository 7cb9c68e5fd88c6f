// The API access log's summary: percentiles, statuses, slow and failed requests, windows (decision 117).
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { captureLogs } from "#app/utils/log.server.ts";
import { ApiAccessLog } from "#server/access-log.ts";

process.env.LOG_LEVEL = "info";
const captured = { lines: [] as string[], stop: () => {} };
const lines = () => captured.lines.splice(0).map((line) => JSON.parse(line) as Record<string, unknown>);

beforeAll(() => {
  Object.assign(captured, captureLogs());
  vi.useFakeTimers();
});
afterAll(() => {
  vi.useRealTimers();
  captured.stop();
});

it("writes one line per window with traffic: count, statuses, p50, p99 and the longest", () => {
  const access = new ApiAccessLog("summary", 1_000, 10_000);
  for (let ms = 1; ms <= 100; ms++) access.record("POST", "/api/v1/messages", ms === 50 ? 422 : 201, ms);
  expect(lines()).toEqual([]);
  vi.advanceTimersByTime(10_000);
  expect(lines()).toEqual([
    expect.objectContaining({
      level: "info",
      msg: "API 100 requests",
      requests: 100,
      statuses: "201:99 422:1",
      p50_ms: 50,
      p99_ms: 99,
      max_ms: 100,
    }),
  ]);
  // A window without traffic writes nothing.
  vi.advanceTimersByTime(30_000);
  access.flush();
  expect(lines()).toEqual([]);
});

it("gives failed (5xx) and slow requests a line of their own and counts them in the summary", () => {
  const access = new ApiAccessLog("summary", 1_000, 10_000);
  access.record("POST", "/api/v1/messages", 503, 3);
  access.record("POST", "/api/v1/messages/batch", 201, 12_000);
  access.record("POST", "/api/v1/messages", 201, 999);
  expect(lines()).toEqual([
    expect.objectContaining({ level: "warn", msg: "POST /api/v1/messages 503", ms: 3 }),
    expect.objectContaining({ level: "warn", msg: "POST /api/v1/messages/batch 201", ms: 12_000 }),
  ]);
  access.flush();
  expect(lines()).toEqual([
    expect.objectContaining({ requests: 3, statuses: "201:2 503:1", p50_ms: 999, p99_ms: 10_000, max_ms: 12_000 }),
  ]);
});

it("writes a line per request in full mode", () => {
  const access = new ApiAccessLog("full", 1_000, 10_000);
  access.record("POST", "/api/v1/messages", 201, 4);
  access.record("GET", "/api/v1/messages/:id", 404, 2);
  expect(lines()).toEqual([
    expect.objectContaining({ level: "info", msg: "POST /api/v1/messages 201", ms: 4 }),
    expect.objectContaining({ level: "info", msg: "GET /api/v1/messages/:id 404", ms: 2 }),
  ]);
});
