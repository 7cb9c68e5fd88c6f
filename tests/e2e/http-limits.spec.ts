// The HTTP server's own defences, against a production server of this file's own (its own data,
// Redis and settings: behind one proxy, a small sign-up limit), so its memory can be read and its
// limits cannot be disturbed by other specs: the body cap (413), the client address behind a proxy,
// no-store on signed-in answers. HTTP only: it runs in the "js" project.
import { type ChildProcess, spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "#server/free-port.ts";
import { png } from "#tests/support/images.ts";
import { expect, test } from "#tests/e2e/fixtures.ts";

const REGISTER_LIMIT = 3;
const CSV_LIMIT = 2_000_000;
const admin = { email: "http-admin@example.com", password: `Admin-${randomUUID()}` };

// One server for the file's tests, so they run one after another in one worker.
test.describe.configure({ mode: "serial" });

let server: ChildProcess;
let base: string;
let dataDir: string;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  dataDir = mkdtempSync(join(tmpdir(), "smsgw-http-"));
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  server = spawn("node", ["scripts/run.mjs", "scripts/start.ts"], {
    stdio: ["ignore", "ignore", "inherit"],
    env: {
      ...process.env,
      NODE_ENV: "production",
      PORT: String(port),
      HOST: "127.0.0.1",
      DATA_DIR: dataDir,
      REDIS_URL: "",
      SESSION_SECRET: "http-limits-session-secret-32-characters",
      SEED_DEMO: "0",
      LOG_LEVEL: "error",
      ADMIN_EMAIL: admin.email,
      ADMIN_PASSWORD: admin.password,
      TRUST_PROXY: "1",
      REGISTER_LIMIT_PER_HOUR: String(REGISTER_LIMIT),
      CSV_IMPORT_MAX_BYTES: String(CSV_LIMIT),
    },
  });
  await expect(async () => expect((await fetch(`${base}/healthz`)).status).toBe(200)).toPass({ timeout: 90_000 });
});

test.afterAll(async () => {
  if (!server) return;
  const exited = new Promise((done) => server.once("exit", done));
  server.kill("SIGTERM");
  await exited;
  rmSync(dataDir, { recursive: true, force: true });
});

type Answer = { status: number; headers: Record<string, string | string[] | undefined>; body: string };

/**
 * A raw request: the body sent with its Content-Length, or chunked. Resolves with the answer as soon
 * as it comes, even while the body is still being written.
 */
function send(
  path: string,
  options: {
    method?: string;
    body?: Buffer;
    chunked?: boolean;
    expectContinue?: boolean;
    headers?: Record<string, string>;
  } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { ...options.headers };
    if (options.body && !options.chunked) headers["Content-Length"] = String(options.body.length);
    // The body waits for "100 Continue": a server that refuses from the headers alone never gets it
    // (and the client never races the server's close with its writes).
    if (options.expectContinue) headers.Expect = "100-continue";
    if (options.chunked) headers["Transfer-Encoding"] = "chunked";
    // Kept alive, the server reads away what it refuses instead of closing on a body still being
    // written (a busy client could see that close, EPIPE, before the 413 it follows).
    if (options.body) headers.Connection = "keep-alive";
    let answered = false;
    const req = httpRequest(
      `${base}${path}`,
      { method: options.method ?? (options.body ? "POST" : "GET"), headers, agent: false },
      (res) => {
        answered = true;
        let body = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => (body += chunk));
        res.on("end", () => {
          resolve({ status: res.statusCode!, headers: res.headers, body });
          req.destroy();
        });
        res.on("error", reject);
      },
    );
    // Writing past the answer may fail once the server closes (a busy client is slower than the
    // server's drain): the answer is what counts.
    req.on("error", (error) => {
      if (!answered) reject(error);
    });
    if (!options.body) return void req.end();
    if (options.expectContinue) {
      const body = options.body;
      req.once("continue", () => req.end(body));
      req.once("response", () => req.destroy());
      return void req.flushHeaders();
    }
    if (!options.chunked) return void req.end(options.body);
    for (let offset = 0; offset < options.body.length; offset += 64 * 1024)
      req.write(options.body.subarray(offset, offset + 64 * 1024));
    req.end();
  });
}

const FORM = { "Content-Type": "application/x-www-form-urlencoded" };
const twoMegabytes = () => Buffer.from(`email=a%40example.com&password=${"x".repeat(2 * 1024 * 1024)}`);

function form(fields: Record<string, string>): Buffer {
  return Buffer.from(new URLSearchParams(fields).toString());
}

/** Signs in through the login form and returns the session cookie. */
async function signIn(email: string, password: string, ip = "203.0.113.50"): Promise<string> {
  const answer = await send("/login", { body: form({ email, password }), headers: { ...FORM, "X-Forwarded-For": ip } });
  expect(answer.status, answer.body.slice(0, 200)).toBe(302);
  const cookies = ([] as string[]).concat(answer.headers["set-cookie"] ?? []);
  const session = cookies.map((c) => c.split(";")[0]).find((c) => /session=/i.test(c));
  expect(session).toBeTruthy();
  return session!;
}

/** Resident memory of the server process (it runs in the process spawned: scripts/run.mjs imports start.ts). */
function residentBytes(): number {
  const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${server.pid}/status`, "utf8"))![1];
  return Number(kb) * 1024;
}

test("a 2 MB post is refused 413 whether it declares its length or streams it, signed in or not, and memory stays flat", async () => {
  test.setTimeout(90_000);
  const cookie = await signIn(admin.email, admin.password);
  const declared = await send("/login", { body: twoMegabytes(), headers: FORM });
  expect(declared.status).toBe(413);
  expect(declared.headers["content-type"]).toContain("text/html");
  expect(declared.body).toContain("<h1>Request too large</h1>");
  const streamed = await send("/login", { body: twoMegabytes(), chunked: true, headers: FORM });
  expect(streamed.status).toBe(413);
  const signedIn = await send("/sms/createGroup", {
    body: twoMegabytes(),
    chunked: true,
    headers: { ...FORM, Cookie: cookie },
  });
  expect(signedIn.status).toBe(413);
  const data = await send("/sms/createGroup.data", { body: twoMegabytes(), headers: { ...FORM, Cookie: cookie } });
  expect(data.status).toBe(413);
  // The REST API keeps its own, smaller limit and its JSON error shape.
  const api = await send("/api/v1/messages", {
    body: twoMegabytes(),
    headers: { "Content-Type": "application/json", Authorization: "Bearer sk_x" },
  });
  expect(api.status).toBe(413);
  expect(JSON.parse(api.body).error.code).toBe("payload_too_large");

  // Nothing of those was acted on: the group does not exist, the session still works.
  const groups = await send("/sms/accountGroups", { headers: { Cookie: cookie } });
  expect(groups.status).toBe(200);

  // Twenty at once, each way: the server holds at most the limit of each, never the bodies.
  const before = residentBytes();
  const answers = await Promise.all([
    ...Array.from({ length: 20 }, () => send("/login", { body: twoMegabytes(), headers: FORM })),
    ...Array.from({ length: 20 }, () =>
      send("/sms/createGroup", { body: twoMegabytes(), chunked: true, headers: { ...FORM, Cookie: cookie } }),
    ),
  ]);
  const grown = residentBytes() - before;
  expect(answers.map((a) => a.status)).toEqual(Array(40).fill(413));
  // Forty 2 MB bodies read whole (twice for login, as before) are well over 100 MB; the cap keeps it to a few.
  expect(grown).toBeLessThan(48 * 1024 * 1024);
  // The server still answers.
  expect((await send("/healthz")).status).toBe(200);
});

test("the two uploads still take what their own limits allow", async () => {
  test.setTimeout(60_000);
  const cookie = await signIn(admin.email, admin.password);
  // A 1.5 MB CSV: over the 1 MB cap of an ordinary form, within CSV_IMPORT_MAX_BYTES, and in long
  // rows so that it stays under the import's row cap (CSV_IMPORT_MAX_ROWS).
  const rows = ["name,phone"];
  const filler = "x".repeat(60);
  for (let i = 0, size = 0; size < 1_500_000; i++)
    size += rows[rows.push(`Person ${i} ${filler},+1202555${String(i % 10000).padStart(4, "0")}`) - 1].length + 1;
  const csv = new FormData();
  csv.append("intent", "upload");
  csv.append("file", new Blob([rows.join("\n")], { type: "text/csv" }), "contacts.csv");
  const upload = await fetch(`${base}/sms/importContacts`, {
    method: "POST",
    body: csv,
    headers: { Cookie: cookie },
    redirect: "manual",
  });
  expect(upload.status).toBe(302);
  expect(upload.headers.get("location")).toMatch(/\/sms\/importContacts\?file=/);

  // A package image just under its 1,024,000-byte limit.
  const image = new FormData();
  for (const [name, value] of Object.entries({
    name: "Big picture",
    description: "",
    specialTag: "",
    category: "appetizer",
    price: "10.00",
    credits: "100",
  }))
    image.append(name, value);
  image.append("image", new Blob([png(200, 200, { length: 1_000_000 })], { type: "image/png" }), "big.png");
  const saved = await fetch(`${base}/menuItem/menuItemUpsert`, {
    method: "POST",
    body: image,
    headers: { Cookie: cookie },
    redirect: "manual",
  });
  expect(saved.status).toBe(302);
  expect(saved.headers.get("location")).toBe("/menuItem/menuitemlist");

  // Past the upload's own limit and the cap above it: 413 before the route reads it.
  const huge = await send("/sms/importContacts", {
    body: Buffer.alloc(CSV_LIMIT + 1024 * 1024 + 1, "a"),
    expectContinue: true,
    headers: { "Content-Type": "multipart/form-data; boundary=x", Cookie: cookie },
  });
  expect(huge.status).toBe(413);
});

/** A sign-up through the proxy, which appends the address it sees to whatever the client sent. */
function registerAs(spoofed: string, address: string) {
  const id = randomUUID().slice(0, 8);
  return send("/register", {
    body: form({ email: `proxied-${id}@example.com`, fullName: `Proxied ${id}`, password: `pw-${id}-Secret!` }),
    headers: { ...FORM, "X-Forwarded-For": `${spoofed}, ${address}` },
  });
}

test("behind one proxy, what the client writes into X-Forwarded-For does not change its address: the sign-up limit holds", async () => {
  const client = "198.51.100.23";
  for (let i = 0; i < REGISTER_LIMIT; i++) expect((await registerAs(`10.0.0.${i}`, client)).status).toBe(302);
  // A new made-up address in front each time: before, the left-most entry was the address and each got a fresh limit.
  expect((await registerAs("1.2.3.4", client)).status).toBe(429);
  expect((await registerAs("5.6.7.8", client)).status).toBe(429);
  // Another client behind the same proxy has its own limit.
  expect((await registerAs("1.2.3.4", "198.51.100.24")).status).toBe(302);
});

test("an IPv6 client counts by its /64: 2001:db8::1 and 2001:db8::2 share one sign-up limit, the next /64 has its own", async () => {
  for (let i = 0; i < REGISTER_LIMIT; i++)
    expect((await registerAs("1.2.3.4", i % 2 ? "2001:db8::1" : "2001:db8::2")).status).toBe(302);
  const refused = await registerAs("1.2.3.4", "2001:db8::2");
  expect(refused.status).toBe(429);
  expect(refused.body).toContain("Too many accounts were created from your network.");
  expect((await registerAs("1.2.3.4", "2001:db8:0:1::1")).status).toBe(302);
});

test("signed-in answers are never stored: pages, data requests, redirects, a route's own Cache-Control; pages carry the hardened headers", async () => {
  const cookie = await signIn(admin.email, admin.password);
  const answers = {
    page: await send("/sms/sendSms", { headers: { Cookie: cookie } }),
    data: await send("/sms/sendSms.data", { headers: { Cookie: cookie } }),
    redirect: await send("/login", { headers: { Cookie: cookie } }),
    ownCacheControl: await send("/sms/documentation", { headers: { Cookie: cookie } }),
    notFound: await send("/no/such/page", { headers: { Cookie: cookie } }),
  };
  expect(answers.page.status).toBe(200);
  expect(answers.data.status).toBe(200);
  expect(answers.redirect.status).toBe(302);
  expect(answers.ownCacheControl.status).toBe(200);
  expect(answers.notFound.status).toBe(404);
  for (const [what, answer] of Object.entries(answers)) expect(answer.headers["cache-control"], what).toBe("no-store");

  const visitor = await send("/");
  expect(visitor.headers["cache-control"]).toBeUndefined();
  for (const answer of [visitor, answers.page]) {
    expect(answer.headers["cross-origin-opener-policy"]).toBe("same-origin");
    expect(answer.headers["permissions-policy"]).toContain("camera=()");
    const csp = String(answer.headers["content-security-policy"]);
    expect(csp).toContain("base-uri 'none'");
    expect(csp).toContain("form-action 'self'");
    expect(csp).toMatch(/style-src 'self'(;|$)/);
    expect(csp).not.toContain("unsafe-inline");
    // No style attribute in the markup, which the policy would block.
    expect(answer.body).not.toMatch(/<[^>]+\sstyle="/);
  }
});

test("/healthz says only ok", async () => {
  const health = await send("/healthz");
  expect(health.status).toBe(200);
  expect(JSON.parse(health.body)).toEqual({ status: "ok" });
});
