// What writing an API answer costs the web process, two ways, on real loopback sockets: the server's
// CPU per answer of a 201 as POST /api/v1/messages sends it (its headers and a body of the same size).
//   setheader  the base headers and Request-Id set one by one with setHeader as each request came
//              in, then writeHead with the rest (Node's header-by-header path; the server before
//              the 2026-11-27 change)
//   answer     server/http.ts's answer(): everything in one writeHead of a flat list, nothing set before
// Each way runs in a server process of its own; rounds alternate between them (drift falls on both),
// and a keep-alive client in this process loads the one whose turn it is.
//   node scripts/run.mjs scripts/bench/answer-path.ts [--requests 20000] [--rounds 9] [--concurrency 32]
import { fork } from "node:child_process";
import { randomUUID } from "node:crypto";
import { Agent, createServer, request, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { parseArgs } from "node:util";
import { runWithLogContext } from "#app/utils/log.server.ts";
import { answer } from "#server/http.ts";
import { cpuSeconds } from "./process-cpu.ts";
import { queuedResource } from "./queued-resource.ts";

const WAYS = ["setheader", "answer"] as const;
type Way = (typeof WAYS)[number];

const BODY = JSON.stringify(
  queuedResource(123456, "+12025550140", "Your code is 123456", Date.parse("2026-11-27T18:59:12.423Z")),
);
const HEADERS = {
  "Content-Type": "application/json; charset=utf-8",
  "Cache-Control": "no-store",
  "RateLimit-Limit": "600",
  "RateLimit-Remaining": "599",
  "RateLimit-Reset": "60",
};
// server/http.ts's base headers outside production.
const BASE: Record<string, string> = {
  "X-Content-Type-Options": "nosniff",
  "Referrer-Policy": "strict-origin-when-cross-origin",
  "X-Frame-Options": "DENY",
  "Cross-Origin-Opener-Policy": "same-origin",
  "Permissions-Policy": 'camera=(), microphone=(), geolocation=(), usb=(), payment=(self "https://js.stripe.com")',
};

function headerByHeader(res: ServerResponse, requestId: string) {
  for (const name in BASE) res.setHeader(name, BASE[name]);
  res.setHeader("Request-Id", requestId);
  res.writeHead(201, {
    ...BASE,
    "Content-Security-Policy": "default-src 'none'; frame-ancestors 'none'",
    ...HEADERS,
    "Content-Length": String(Buffer.byteLength(BODY)),
  });
  res.end(BODY);
}

function serve(way: Way) {
  const server = createServer((req, res) => {
    const requestId = randomUUID();
    req.resume();
    req.once("end", () => {
      // Inside the request's log context, as the web server answers.
      runWithLogContext({ requestId }, () =>
        way === "setheader" ? headerByHeader(res, requestId) : answer(res, 201, HEADERS, BODY),
      );
    });
  });
  server.keepAliveTimeout = 65_000;
  server.listen(0, "127.0.0.1", () => process.send!((server.address() as AddressInfo).port));
}

async function load(port: number, requests: number, concurrency: number, agent: Agent) {
  let sent = 0;
  const one = () =>
    new Promise<void>((resolve, reject) => {
      const req = request({ port, host: "127.0.0.1", method: "POST", path: "/api/v1/messages", agent }, (res) => {
        res.resume();
        res.once("end", resolve);
      });
      req.once("error", reject);
      req.end('{"to":"+12025550140","body":"Your code is 123456"}');
    });
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (sent++ < requests) await one();
    }),
  );
}

async function main() {
  const { values: args } = parseArgs({
    options: {
      requests: { type: "string", default: "20000" },
      rounds: { type: "string", default: "9" },
      concurrency: { type: "string", default: "32" },
    },
  });
  const requests = Number(args.requests);
  const servers = await Promise.all(
    WAYS.map(
      (way) =>
        new Promise<{ way: Way; pid: number; port: number; kill: () => void }>((resolve) => {
          const child = fork("scripts/run.mjs", [import.meta.filename, "--serve", way], { execArgv: process.execArgv });
          child.once("message", (port) =>
            resolve({ way, pid: child.pid!, port: Number(port), kill: () => child.kill() }),
          );
        }),
    ),
  );
  const agent = new Agent({ keepAlive: true, maxSockets: Number(args.concurrency) });
  const perWay = new Map<Way, number[]>(WAYS.map((way) => [way, []]));
  // A first round each warms the code up and is not counted.
  for (let round = 0; round <= Number(args.rounds); round++) {
    for (const server of round % 2 ? [...servers].reverse() : servers) {
      const before = cpuSeconds(server.pid);
      await load(server.port, requests, Number(args.concurrency), agent);
      if (round > 0) perWay.get(server.way)!.push(((cpuSeconds(server.pid) - before) / requests) * 1e6);
    }
  }
  agent.destroy();
  for (const server of servers) server.kill();
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
  console.log("| way | server CPU µs per answer, median | rounds |\n|---|---|---|");
  for (const [way, values] of perWay)
    console.log(`| ${way} | ${median(values).toFixed(1)} | ${values.map((v) => v.toFixed(1)).join(", ")} |`);
}

if (process.argv[2] === "--serve") serve(process.argv[3] as Way);
else await main();
