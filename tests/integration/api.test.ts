import { request as httpRequest } from "node:http";
import { count, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "#app/db/client.server.ts";
import { smsMessages } from "#app/db/schema/sms.ts";
import { createApiHandler, MAX_BODY_BYTES } from "#app/api/handler.server.ts";
import { generateApiKey, getOwnApiKey, insertApiKey } from "#app/modules/api-keys/keys.server.ts";
import { API_SCOPES } from "#app/modules/api-keys/scopes.ts";
import { ErrorSchema } from "#app/api/schemas.ts";
import { MessageListSchema, MessageSchema } from "#app/api/resources/message-schemas.ts";
import { BalanceSchema } from "#app/api/resources/account.server.ts";
import { getBalance } from "#app/modules/credits/ledger.server.ts";
import { apiCustomer, callApi, startApiServer } from "#tests/support/api.ts";
import { ledgerKeys, messageRow, sendJobsFor } from "#tests/support/sms.ts";
import { waitFor } from "#tests/support/wait.ts";

const TWO_SEGMENTS = "x".repeat(161);

async function messagesOf(userId: number): Promise<number> {
  return (await getDb().select({ n: count() }).from(smsMessages).where(eq(smsMessages.userId, userId)).get())!.n;
}

function expectError(response: { status: number; json: unknown }, status: number, code: string, field?: string) {
  expect(response.status).toBe(status);
  const body = ErrorSchema.parse(response.json);
  expect(body.error.code).toBe(code);
  expect(body.error.message.length).toBeGreaterThan(0);
  if (field !== undefined) expect(body.error.field).toBe(field);
}

describe("POST /api/v1/messages", () => {
  it("queues the message, charges it and answers 201 with the message", async () => {
    const customer = await apiCustomer(5);
    const sent = await callApi("POST", "/api/v1/messages", {
      key: customer.key,
      json: { to: "(202) 555-0140", body: TWO_SEGMENTS },
    });
    expect(sent.status).toBe(201);
    const message = MessageSchema.parse(sent.json);
    expect(message).toMatchObject({
      to: "+12025550140",
      body: TWO_SEGMENTS,
      encoding: "GSM-7",
      segments: 2,
      credits: 2,
      status: "queued",
    });
    expect(Date.parse(message.createdAt)).toBe((await messageRow(message.id))!.createdAt.getTime());
    expect(await messageRow(message.id)).toMatchObject({ userId: customer.id, source: "api", status: "queued" });
    expect(await getBalance(customer.id)).toBe(3);
    // The answer does not wait for Redis: the job follows the commit.
    await waitFor(async () => (await sendJobsFor(message.id)).length > 0, { what: "the message's send job" });
    expect(await sendJobsFor(message.id)).toHaveLength(1);
    expect(sent.headers["RateLimit-Limit"]).toBeDefined();
  });

  it("stores the body as counted: CRLF becomes LF, emoji make it UCS-2", async () => {
    const customer = await apiCustomer(5);
    const sent = await callApi("POST", "/api/v1/messages", {
      key: customer.key,
      json: { to: "+44 7911 123456", body: "Hi 👋\r\nBye" },
    });
    expect(sent.status).toBe(201);
    expect(sent.json).toMatchObject({ to: "+447911123456", body: "Hi 👋\nBye", encoding: "UCS-2", segments: 1 });
  });

  it("refuses bad input with the field at fault, and sends nothing", async () => {
    const customer = await apiCustomer(100);
    const post = (json: unknown) => callApi("POST", "/api/v1/messages", { key: customer.key, json });
    expectError(await post({ body: "hi" }), 422, "validation_failed", "to");
    expectError(await post({ to: "+12025550140" }), 422, "validation_failed", "body");
    expectError(await post({ to: "+12025550140", body: "   " }), 422, "validation_failed", "body");
    const badNumber = await post({ to: "555-CALL-NOW", body: "hi" });
    expectError(badNumber, 422, "validation_failed", "to");
    expect(badNumber.json.error.message).toBe('"555-CALL-NOW" is not a valid phone number');
    expectError(await post({ to: "+12025550140", body: "z".repeat(153 * 10 + 1) }), 422, "validation_failed", "body");
    expectError(await post({ to: 12025550140, body: "hi" }), 422, "validation_failed", "to");
    // U+0000: no field takes it (PostgreSQL cannot store it), on either engine; a batch names the item.
    const nul = await post({ to: "+12025550140", body: "a\u0000b" });
    expectError(nul, 422, "validation_failed", "body");
    expect(nul.json.error.message).toBe("Text may not contain the NUL character (U+0000)");
    expectError(
      await callApi("POST", "/api/v1/messages/batch", {
        key: customer.key,
        json: { body: "hi", messages: [{ to: "+12025550140" }, { to: "+12025550141", body: "\u0000" }] },
      }),
      422,
      "validation_failed",
      "messages.1.body",
    );
    // Never silently sent now: a sendAt that cannot be read, or is past, is an error.
    expectError(
      await post({ to: "+12025550140", body: "hi", sendAt: "2030-01-01 09:00" }),
      422,
      "validation_failed",
      "sendAt",
    );
    expectError(
      await post({ to: "+12025550140", body: "hi", sendAt: "2030-01-01T09:00:00" }),
      422,
      "validation_failed",
      "sendAt",
    );
    expectError(
      await post({ to: "+12025550140", body: "hi", sendAt: "2001-01-01T00:00:00Z" }),
      422,
      "validation_failed",
      "sendAt",
    );
    expectError(
      await post({ to: "+12025550140", body: "hi", sendAt: 1893456000000 }),
      422,
      "validation_failed",
      "sendAt",
    );
    expectError(await post({ to: "+12025550140", body: "hi", sendAt: null }), 422, "validation_failed", "sendAt");
    expectError(
      await post({ to: "+12025550140", body: "hi", scheduledAt: "2030-01-01T00:00:00Z" }),
      422,
      "validation_failed",
      "scheduledAt",
    );
    expectError(await post([{ to: "+12025550140", body: "hi" }]), 422, "validation_failed");
    expectError(await post(null), 422, "validation_failed");
    const raw = (body: string, contentType = "application/json") =>
      callApi("POST", "/api/v1/messages", { key: customer.key, body, headers: { "content-type": contentType } });
    expectError(await raw('{"to": "+12025550140", "body": "hi"'), 400, "invalid_request");
    expectError(await raw(""), 400, "invalid_request");
    expectError(await raw('{"to":"+12025550140","body":"hi"}', "text/plain"), 415, "unsupported_media_type");
    expectError(
      await raw('{"to":"+12025550140","body":"hi"}', "application/json; charset=latin1"),
      415,
      "unsupported_media_type",
    );
    expectError(
      await raw(JSON.stringify({ to: "+12025550140", body: "y".repeat(MAX_BODY_BYTES) })),
      413,
      "payload_too_large",
    );
    expectError(
      await callApi("POST", "/api/v1/messages", {
        key: customer.key,
        body: new Uint8Array([0x7b, 0xff, 0x7d]),
        headers: { "content-type": "application/json" },
      }),
      400,
      "invalid_request",
    );
    expect(await messagesOf(customer.id)).toBe(0);
    expect(await getBalance(customer.id)).toBe(100);
  });

  it("answers 402 without sending or charging when the credits do not cover it", async () => {
    const customer = await apiCustomer(1);
    const refused = await callApi("POST", "/api/v1/messages", {
      key: customer.key,
      json: { to: "+12025550140", body: TWO_SEGMENTS },
    });
    expectError(refused, 402, "insufficient_credits");
    expect(refused.json.error.message).toMatch(/costs 2 .* balance is 1/);
    expect(await messagesOf(customer.id)).toBe(0);
    expect(await getBalance(customer.id)).toBe(1);
  });

  it("sends each of many concurrent requests that the balance covers, and refuses the rest", async () => {
    const customer = await apiCustomer(7);
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        callApi("POST", "/api/v1/messages", { key: customer.key, json: { to: "+12025550140", body: `burst ${i}` } }),
      ),
    );
    expect(results.filter((r) => r.status === 201)).toHaveLength(7);
    expect(results.filter((r) => r.status === 402)).toHaveLength(3);
    expect(await messagesOf(customer.id)).toBe(7);
    expect(await getBalance(customer.id)).toBe(0);
  });
});

describe("Idempotency-Key", () => {
  it("answers a retry with the first answer and sends nothing new", async () => {
    const customer = await apiCustomer(10);
    const request = {
      key: customer.key,
      json: { to: "+12025550141", body: "Your code is 1234" },
      headers: { "idempotency-key": "order-77" },
    };
    const first = await callApi("POST", "/api/v1/messages", request);
    expect(first.status).toBe(201);
    expect(first.headers["Idempotent-Replayed"]).toBeUndefined();
    const again = await callApi("POST", "/api/v1/messages", request);
    expect(again.status).toBe(201);
    expect(again.json).toEqual(first.json);
    expect(again.headers["Idempotent-Replayed"]).toBe("true");
    // The same number written another way is the same request.
    const sameNumber = await callApi("POST", "/api/v1/messages", {
      ...request,
      json: { to: "(202) 555-0141", body: "Your code is 1234" },
    });
    expect(sameNumber.json).toEqual(first.json);
    expect(await messagesOf(customer.id)).toBe(1);
    expect(await getBalance(customer.id)).toBe(9);
    expect((await ledgerKeys(customer.id)).filter((k) => k.endsWith(":debit"))).toHaveLength(1);
  });

  it("is a 409 with another body, and the first message stands", async () => {
    const customer = await apiCustomer(10);
    const headers = { "idempotency-key": "9b6f0c52-5c8f-4c33-9c2e-5d0f3b1e7a11" };
    const first = await callApi("POST", "/api/v1/messages", {
      key: customer.key,
      json: { to: "+12025550142", body: "one" },
      headers,
    });
    const conflict = await callApi("POST", "/api/v1/messages", {
      key: customer.key,
      json: { to: "+12025550142", body: "two" },
      headers,
    });
    expectError(conflict, 409, "idempotency_conflict", "Idempotency-Key");
    expect(await messagesOf(customer.id)).toBe(1);
    expect((await messageRow(first.json.id))?.body).toBe("one");
  });

  it("sends once when the same key arrives many times at once", async () => {
    const customer = await apiCustomer(10);
    const request = {
      key: customer.key,
      json: { to: "+12025550143", body: "once" },
      headers: { "idempotency-key": "burst-1" },
    };
    const answers = await Promise.all(Array.from({ length: 6 }, () => callApi("POST", "/api/v1/messages", request)));
    expect(new Set(answers.map((a) => a.status))).toEqual(new Set([201]));
    expect(new Set(answers.map((a) => a.json.id)).size).toBe(1);
    expect(await messagesOf(customer.id)).toBe(1);
    expect(await getBalance(customer.id)).toBe(9);
  });

  it("is per account, and must be short visible text", async () => {
    const a = await apiCustomer(5);
    const b = await apiCustomer(5);
    const json = { to: "+12025550144", body: "hello" };
    const headers = { "idempotency-key": "shared-name" };
    const fromA = await callApi("POST", "/api/v1/messages", { key: a.key, json, headers });
    const fromB = await callApi("POST", "/api/v1/messages", { key: b.key, json, headers });
    expect(fromB.json.id).not.toBe(fromA.json.id);
    expectError(
      await callApi("POST", "/api/v1/messages", { key: a.key, json, headers: { "idempotency-key": "k".repeat(256) } }),
      400,
      "invalid_request",
      "Idempotency-Key",
    );
    expectError(
      await callApi("POST", "/api/v1/messages", { key: a.key, json, headers: { "idempotency-key": "" } }),
      400,
      "invalid_request",
      "Idempotency-Key",
    );
  });
});

describe("GET /api/v1/messages and /api/v1/messages/{id}", () => {
  it("reads one message with its current status; another account's id is a 404", async () => {
    const a = await apiCustomer(5);
    const b = await apiCustomer(5);
    const sent = await callApi("POST", "/api/v1/messages", { key: a.key, json: { to: "+12025550145", body: "mine" } });
    await getDb()
      .update(smsMessages)
      .set({ status: "failed", error: "Refused by the carrier" })
      .where(eq(smsMessages.id, sent.json.id))
      .run();
    const read = await callApi("GET", `/api/v1/messages/${sent.json.id}`, { key: a.key });
    expect(read.status).toBe(200);
    expect(MessageSchema.parse(read.json)).toMatchObject({
      id: sent.json.id,
      body: "mine",
      status: "failed",
      statusDetail: "Refused by the carrier",
    });
    expectError(await callApi("GET", `/api/v1/messages/${sent.json.id}`, { key: b.key }), 404, "not_found");
    expect((await callApi("GET", "/api/v1/messages", { key: b.key })).json.data).toEqual([]);
    expectError(await callApi("GET", "/api/v1/messages/999999999", { key: a.key }), 404, "not_found");
    for (const id of ["abc", "0", "-1", "1.5", "1e3", "99999999999999999999"]) {
      expectError(await callApi("GET", `/api/v1/messages/${id}`, { key: a.key }), 404, "not_found");
    }
  });

  it("pages through the user's messages newest first with an opaque cursor, and filters by status", async () => {
    const customer = await apiCustomer(30);
    const ids: number[] = [];
    for (let i = 0; i < 25; i++) {
      ids.push(
        (await callApi("POST", "/api/v1/messages", { key: customer.key, json: { to: "+12025550146", body: `m${i}` } }))
          .json.id,
      );
    }
    const failed = ids.filter((_, i) => i % 4 === 0);
    for (const id of failed)
      await getDb().update(smsMessages).set({ status: "failed" }).where(eq(smsMessages.id, id)).run();

    const seen: number[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const path: string = `/api/v1/messages?limit=10${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`;
      const page = MessageListSchema.parse((await callApi("GET", path, { key: customer.key })).json);
      seen.push(...page.data.flatMap((m) => (m.direction === "outbound" ? [m.id] : [])));
      cursor = page.nextCursor;
      pages += 1;
    } while (cursor);
    expect(pages).toBe(3);
    expect(seen).toEqual([...ids].reverse());

    const onlyFailed = MessageListSchema.parse(
      (await callApi("GET", "/api/v1/messages?status=failed&limit=100", { key: customer.key })).json,
    );
    expect(onlyFailed.data.map((m) => m.id)).toEqual([...failed].reverse());
    expect(onlyFailed.nextCursor).toBeNull();
    const defaults = MessageListSchema.parse((await callApi("GET", "/api/v1/messages", { key: customer.key })).json);
    expect(defaults.data).toHaveLength(20);
    const blanks = MessageListSchema.parse(
      (await callApi("GET", "/api/v1/messages?status=&cursor=&limit=", { key: customer.key })).json,
    );
    expect(blanks.data.map((m) => m.id)).toEqual(defaults.data.map((m) => m.id));
  });

  it("refuses bad paging parameters with 400 and the parameter's name", async () => {
    const customer = await apiCustomer();
    const get = (query: string) => callApi("GET", `/api/v1/messages?${query}`, { key: customer.key });
    expectError(await get("limit=0"), 400, "invalid_request", "limit");
    expectError(await get("limit=101"), 400, "invalid_request", "limit");
    expectError(await get("limit=ten"), 400, "invalid_request", "limit");
    expectError(await get("status=sent-ish"), 400, "invalid_request", "status");
    expectError(await get("cursor=not-a-cursor"), 400, "invalid_request", "cursor");
    expectError(await get(`cursor=${Buffer.from("m1:-5").toString("base64url")}`), 400, "invalid_request", "cursor");
    expectError(await get("limit=5&limit=6"), 400, "invalid_request", "limit");
    expectError(await get("page=2"), 400, "invalid_request", "page");
  });
});

describe("GET /api/v1/balance", () => {
  it("answers the account's credits", async () => {
    const customer = await apiCustomer(42);
    const answer = await callApi("GET", "/api/v1/balance", { key: customer.key });
    expect(answer.status).toBe(200);
    expect(BalanceSchema.parse(answer.json)).toEqual({ credits: 42 });
    expectError(await callApi("GET", "/api/v1/balance"), 401, "unauthorized");
  });
});

describe("authentication", () => {
  it("refuses a missing, malformed, unknown or replaced key with 401, and records the last use", async () => {
    const customer = await apiCustomer(5);
    expect((await getOwnApiKey(customer.id))?.lastUsedAt).toBeNull();
    expect((await callApi("GET", "/api/v1/balance", { key: customer.key })).status).toBe(200);
    expect((await getOwnApiKey(customer.id))?.lastUsedAt).toBeInstanceOf(Date);

    const get = (authorization?: string) =>
      callApi("GET", "/api/v1/balance", { headers: authorization ? { authorization } : {} });
    const missing = await get();
    expectError(missing, 401, "unauthorized");
    expect(missing.headers["WWW-Authenticate"]).toMatch(/^Bearer/);
    expectError(await get(`Basic ${Buffer.from(`x:${customer.key}`).toString("base64")}`), 401, "unauthorized");
    expectError(await get(`Bearer ${customer.key.slice(0, -1)}`), 401, "unauthorized");
    expectError(await get(`Bearer ${customer.key}x`), 401, "unauthorized");
    expectError(await get(`Bearer ${generateApiKey()}`), 401, "unauthorized");
    expect((await get(`bearer   ${customer.key}`)).status).toBe(200);
  });

  it("never takes the key from the URL", async () => {
    const customer = await apiCustomer(5);
    expectError(await callApi("GET", `/api/v1/balance?api_key=${customer.key}`), 401, "unauthorized");
  });
});

describe("rate limit", () => {
  it("answers 429 with Retry-After past the per-key limit; other keys go on", async () => {
    const handle = createApiHandler({ ratePerMinute: 3 });
    const a = await apiCustomer();
    const b = await apiCustomer();
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await callApi("GET", "/api/v1/balance", { key: a.key }, handle)).status);
    expect(statuses).toEqual([200, 200, 200]);
    const limited = await callApi("GET", "/api/v1/balance", { key: a.key }, handle);
    expectError(limited, 429, "rate_limited");
    expect(Number(limited.headers["Retry-After"])).toBeGreaterThanOrEqual(1);
    expect(Number(limited.headers["Retry-After"])).toBeLessThanOrEqual(60);
    expect(limited.headers["RateLimit-Remaining"]).toBe("0");
    expect((await callApi("GET", "/api/v1/balance", { key: b.key }, handle)).status).toBe(200);
  });

  it("two keys of one account share the account's limit over real HTTP: past it both get 429 with Retry-After, another account goes on", async () => {
    const server = await startApiServer(createApiHandler({ ratePerMinute: 3, accountRatePerMinute: 4 }));
    try {
      const owner = await apiCustomer();
      const second = (await insertApiKey(owner.id, { name: "Second", scopes: API_SCOPES })).key;
      const other = await apiCustomer();
      const get = (key: string) =>
        fetch(`${server.url}/api/v1/balance`, { headers: { Authorization: `Bearer ${key}` } });
      const statuses = [];
      for (const key of [owner.key, owner.key, second, second]) statuses.push((await get(key)).status);
      expect(statuses).toEqual([200, 200, 200, 200]);
      for (const key of [second, owner.key]) {
        const limited = await get(key);
        expect(limited.status).toBe(429);
        const body = ErrorSchema.parse(await limited.json());
        expect(body.error.code).toBe("rate_limited");
        expect(body.error.message).toBe("Too many requests: at most 4 a minute per account, all its API keys together");
        expect(Number(limited.headers.get("Retry-After"))).toBeGreaterThanOrEqual(1);
        expect(Number(limited.headers.get("Retry-After"))).toBeLessThanOrEqual(60);
        expect(limited.headers.get("RateLimit-Limit")).toBe("4");
        expect(limited.headers.get("RateLimit-Remaining")).toBe("0");
      }
      expect((await get(other.key)).status).toBe(200);
    } finally {
      await server.close();
    }
  });

  it("counts requests that arrive together one by one", async () => {
    const handle = createApiHandler({ ratePerMinute: 3 });
    const c = await apiCustomer();
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => callApi("GET", "/api/v1/balance", { key: c.key }, handle)),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([200, 200, 200, 429, 429]);
    expect(answers.map((a) => a.headers["RateLimit-Remaining"]).sort()).toEqual(["0", "0", "0", "1", "2"]);
  });
});

describe("routing", () => {
  it("answers 404 for unknown paths and 405 with Allow for known paths with another method", async () => {
    const customer = await apiCustomer();
    expectError(await callApi("GET", "/api/v1/nothing-here", { key: customer.key }), 404, "not_found");
    expectError(await callApi("GET", "/api/v1", { key: customer.key }), 404, "not_found");
    const wrong = await callApi("PUT", "/api/v1/messages", { key: customer.key });
    expectError(wrong, 405, "method_not_allowed");
    expect(wrong.headers.Allow).toBe("POST, GET, HEAD");
    expectError(await callApi("DELETE", "/api/v1/balance", { key: customer.key }), 405, "method_not_allowed");
  });
});

describe("over real HTTP", () => {
  let server: Awaited<ReturnType<typeof startApiServer>>;
  beforeAll(async () => {
    server = await startApiServer();
  });
  afterAll(() => server.close());

  it("sends, reads back and lists through the Node adapter", async () => {
    const customer = await apiCustomer(5);
    const auth = { Authorization: `Bearer ${customer.key}` };
    const sent = await fetch(`${server.url}/api/v1/messages`, {
      method: "POST",
      headers: { ...auth, "Content-Type": "application/json" },
      body: JSON.stringify({ to: "+12025550147", body: "over the wire" }),
    });
    expect(sent.status).toBe(201);
    expect(sent.headers.get("content-type")).toBe("application/json; charset=utf-8");
    const message = MessageSchema.parse(await sent.json());
    const read = await fetch(`${server.url}/api/v1/messages/${message.id}`, { headers: auth });
    expect(MessageSchema.parse(await read.json()).id).toBe(message.id);
    const list = await fetch(`${server.url}/api/v1/messages?limit=1`, { headers: auth });
    expect(MessageListSchema.parse(await list.json()).data[0].id).toBe(message.id);
    const balance = await fetch(`${server.url}/api/v1/balance`, { headers: auth });
    expect(await balance.json()).toEqual({ credits: 4 });
    const head = await fetch(`${server.url}/api/v1/balance`, { method: "HEAD", headers: auth });
    expect(head.status).toBe(200);
  });

  it("refuses a body over the limit with 413, declared or streamed, and closes the connection", async () => {
    const customer = await apiCustomer(5);
    const big = JSON.stringify({ to: "+12025550148", body: "b".repeat(MAX_BODY_BYTES * 4) });
    const declared = await fetch(`${server.url}/api/v1/messages`, {
      method: "POST",
      headers: { Authorization: `Bearer ${customer.key}`, "Content-Type": "application/json" },
      body: big,
    });
    expect(declared.status).toBe(413);
    expect(ErrorSchema.parse(await declared.json()).error.code).toBe("payload_too_large");

    const url = new URL(`${server.url}/api/v1/messages`);
    const streamed = await new Promise<{ status: number; body: string; connection: string | undefined }>(
      (resolve, reject) => {
        const req = httpRequest(
          {
            host: url.hostname,
            port: url.port,
            path: url.pathname,
            method: "POST",
            headers: {
              Authorization: `Bearer ${customer.key}`,
              "Content-Type": "application/json",
              "Transfer-Encoding": "chunked",
            },
          },
          (res) => {
            let body = "";
            res.on("data", (chunk) => (body += chunk));
            res.on("end", () => resolve({ status: res.statusCode!, body, connection: res.headers.connection }));
          },
        );
        req.on("error", reject);
        // Keep writing until the server answers; it must not wait for the end.
        const chunk = "c".repeat(4096);
        const pump = () => {
          for (let i = 0; i < 8; i++) if (!req.write(chunk)) return req.once("drain", pump);
        };
        pump();
      },
    );
    expect(streamed.status).toBe(413);
    expect(streamed.connection).toBe("close");
    expect(await messagesOf(customer.id)).toBe(0);
  });

  it("leaves other paths to the rest of the server", async () => {
    expect((await fetch(`${server.url}/api/v10/messages`)).status).toBe(404);
    expect((await fetch(`${server.url}/api/v1x`)).headers.get("content-type")).toBeNull();
  });
});
