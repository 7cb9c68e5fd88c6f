// An extension's answer (the API's above all) is written in one writeHead with the base headers, its
// request's id and its own, on a response with no header set before (Node's fast path). This holds
// what reaches the wire: every header, in the order the per-header path wrote them before.
import { connect } from "node:net";
import type { AddressInfo } from "node:net";
import { expect, it } from "vitest";
import { apiCustomer } from "#tests/support/api.ts";
import { api } from "#server/api.ts";
import { health } from "#server/health.ts";
import { startHttpServer, stopHttpServer } from "#server/http.ts";

/** The raw answer to a raw request on a connection of its own. */
function exchange(port: number, request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = "";
    const socket = connect(port, "127.0.0.1", () => socket.write(request));
    socket.setEncoding("latin1");
    socket.on("data", (chunk: string) => (text += chunk));
    socket.on("end", () => resolve(text));
    socket.on("error", reject);
  });
}

const BASE = [
  "X-Content-Type-Options: nosniff",
  "Referrer-Policy: strict-origin-when-cross-origin",
  "X-Frame-Options: DENY",
  "Cross-Origin-Opener-Policy: same-origin",
  'Permissions-Policy: camera=(), microphone=(), geolocation=(), usb=(), payment=(self "https://js.stripe.com")',
];
const REQUEST_ID = /^Request-Id: [0-9a-f-]{36}$/;
const DATE = /^Date: .+ GMT$/;

function head(answer: string): string[] {
  return answer.slice(0, answer.indexOf("\r\n\r\n")).split("\r\n");
}

it("writes the API's and the 413's headers in the same order and bytes as header by header", async () => {
  process.env.PORT = "0";
  process.env.HOST = "127.0.0.1";
  const customer = await apiCustomer(5);
  const server = await startHttpServer([health, api]);
  const port = (server.address() as AddressInfo).port;
  const body = JSON.stringify({ to: "+12025550140", body: "hi" });
  try {
    const sent = await exchange(
      port,
      `POST /api/v1/messages HTTP/1.1\r\nHost: a\r\nAuthorization: Bearer ${customer.key}\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`,
    );
    const sentBody = sent.slice(sent.indexOf("\r\n\r\n") + 4);
    expect(head(sent)).toEqual([
      "HTTP/1.1 201 Created",
      ...BASE,
      expect.stringMatching(REQUEST_ID),
      "Content-Security-Policy: default-src 'none'; frame-ancestors 'none'",
      "Content-Type: application/json; charset=utf-8",
      "Cache-Control: no-store",
      "RateLimit-Limit: 600",
      "RateLimit-Remaining: 599",
      expect.stringMatching(/^RateLimit-Reset: \d+$/),
      `Content-Length: ${Buffer.byteLength(sentBody)}`,
      expect.stringMatching(DATE),
      "Connection: close",
    ]);
    expect(JSON.parse(sentBody)).toMatchObject({ to: "+12025550140", status: "queued" });

    // A body declared too large for any route is refused before the extensions, with the same base headers.
    const refused = await exchange(
      port,
      "POST /api/v1/messages HTTP/1.1\r\nHost: a\r\nContent-Length: 99999999\r\nConnection: close\r\n\r\n",
    );
    expect(head(refused)).toEqual([
      "HTTP/1.1 413 Payload Too Large",
      ...BASE,
      expect.stringMatching(REQUEST_ID),
      "Content-Type: application/json",
      "Content-Security-Policy: default-src 'none'; frame-ancestors 'none'",
      "Cache-Control: no-store",
      expect.stringMatching(/^Content-Length: \d+$/),
      expect.stringMatching(DATE),
      "Connection: close",
    ]);

    const healthy = await exchange(port, "GET /healthz HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n");
    expect(head(healthy)).toEqual([
      "HTTP/1.1 200 OK",
      ...BASE,
      expect.stringMatching(REQUEST_ID),
      "Content-Security-Policy: default-src 'none'; frame-ancestors 'none'",
      "Content-Type: application/json",
      "Cache-Control: no-store",
      "Content-Length: 15",
      expect.stringMatching(DATE),
      "Connection: close",
    ]);
  } finally {
    await stopHttpServer(server, 1_000);
  }
});
