// The REST API behind the real HTTP server at LOG_LEVEL=info, its log lines captured as JSON, for
// the access log's tests (one file per ACCESS_LOG mode: the configuration is read once per process).
import type { AddressInfo } from "node:net";
import { captureLogs } from "#app/utils/log.server.ts";
import { api } from "#server/api.ts";
import { startHttpServer, stopHttpServer } from "#server/http.ts";
import { apiCustomer } from "#tests/support/api.ts";

export type Line = Record<string, unknown> & { msg: string; level: string; scope: string };

export async function startLoggedApi(accessLog: "summary" | "full") {
  process.env.PORT = "0";
  process.env.HOST = "127.0.0.1";
  process.env.LOG_LEVEL = "info";
  process.env.ACCESS_LOG = accessLog;
  const captured = captureLogs();
  const server = await startHttpServer([api]);
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const customer = await apiCustomer(1_000);
  let stopped: Promise<void> | undefined;

  /** `count` API sends, eight at a time; their statuses. */
  const send = async (count: number) => {
    const statuses: number[] = [];
    const one = async () => {
      const response = await fetch(`${base}/api/v1/messages`, {
        method: "POST",
        headers: { Authorization: `Bearer ${customer.key}`, "Content-Type": "application/json" },
        body: JSON.stringify({ to: "+12025550142", body: "Access log test" }),
      });
      await response.arrayBuffer();
      statuses.push(response.status);
    };
    for (let i = 0; i < count; i += 8) await Promise.all(Array.from({ length: Math.min(8, count - i) }, one));
    return statuses;
  };

  return {
    send,
    lines: () => captured.lines.map((line) => JSON.parse(line) as Line),
    /** Stops the server (which writes the last summary) and the capture; once. */
    stop: () => (stopped ??= stopHttpServer(server, 1_000).then(captured.stop)),
  };
}
