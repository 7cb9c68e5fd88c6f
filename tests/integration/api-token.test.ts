import { execFile, spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { createInterface } from "node:readline";
import { promisify } from "node:util";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "#app/db/client.server.ts";
import { apiKeys } from "#app/db/schema/api.ts";
import { regenerateApiKey } from "#app/api/auth.server.ts";
import { API_KEY_PREFIX, getOwnApiKey, isWellFormedApiKey } from "#app/modules/api-keys/keys.server.ts";
import { API_ROUTES } from "#app/api/routes.server.ts";
import { action, loader } from "#app/routes/sms/api-token.tsx";
import { loader as documentationLoader } from "#app/routes/sms/documentation.tsx";
import { getEnv } from "#app/utils/env.server.ts";
import { CLIENT_IP_HEADER } from "#app/utils/http.server.ts";
import { apiCustomer, callApi, startApiServer } from "#tests/support/api.ts";
import {
  call,
  createTestUser,
  dataOf,
  locationOf,
  makeRequest,
  statusOf,
  type TestUser,
} from "#tests/support/requests.ts";
import { grantCredits } from "#tests/support/sms.ts";

type KeyView = {
  id: number;
  name: string;
  scopes: string[];
  masked: string | null;
  key: string | null;
  createdAt: number;
  lastUsedAt: number | null;
};
type TokenPage = { apiKeys: KeyView[]; confirm: { confirm: string; key: number } | null };

async function tokenPage(user: TestUser, search = "") {
  const result = await call(loader, makeRequest(`/sms/apiToken${search}`, { user }));
  const page = dataOf<TokenPage>(result);
  return { page, apiKey: page.apiKeys[0] ?? null, result };
}

async function regenerate(user: TestUser) {
  return call(action, makeRequest("/sms/apiToken", { user, form: { intent: "regenerate" } }));
}

describe("API Token screen", () => {
  it("makes a first key, shows it masked by default and in clear only when asked", async () => {
    const user = await createTestUser();
    expect((await tokenPage(user)).page).toMatchObject({ apiKeys: [] });

    const made = await regenerate(user);
    expect(locationOf(made)).toBe("/sms/apiToken");
    const key = (await getOwnApiKey(user.id))!.key;
    expect(isWellFormedApiKey(key)).toBe(true);
    expect(key.startsWith(API_KEY_PREFIX)).toBe(true);

    const masked = await tokenPage(user);
    expect(masked.apiKey).toMatchObject({ key: null, lastUsedAt: null, name: "API key" });
    expect(masked.apiKey!.masked).toMatch(/^smsgw_live_•+/);
    expect(masked.apiKey!.masked!.endsWith(key.slice(-4))).toBe(true);
    expect(JSON.stringify(masked.page)).not.toContain(key.slice(API_KEY_PREFIX.length, -4));

    const id = masked.apiKey!.id;
    const shown = await tokenPage(user, `?show=${id}`);
    expect(shown.apiKey!.key).toBe(key);
    expect((shown.result as { init?: ResponseInit }).init?.headers).toMatchObject({ "Cache-Control": "no-store" });
    expect((await tokenPage(user, `?confirm=regenerate&key=${id}`)).page.confirm).toEqual({
      confirm: "regenerate",
      key: id,
    });
  });

  it("regenerates: the old key is refused at once, the new one works, last use is shown", async () => {
    const user = await createTestUser();
    await grantCredits(user.id, 3);
    await regenerate(user);
    const oldKey = (await getOwnApiKey(user.id))!.key;
    expect((await callApi("GET", "/api/v1/balance", { key: oldKey })).status).toBe(200);
    expect((await tokenPage(user)).apiKey!.lastUsedAt).toEqual(expect.any(Number));

    expect(statusOf(await regenerate(user))).toBe(302);
    const newKey = (await getOwnApiKey(user.id))!.key;
    expect(newKey).not.toBe(oldKey);
    expect((await getOwnApiKey(user.id))!.lastUsedAt).toBeNull();
    expect((await callApi("GET", "/api/v1/balance", { key: oldKey })).status).toBe(401);
    expect((await callApi("GET", "/api/v1/balance", { key: newKey })).json).toEqual({ credits: 3 });
    expect((await getOwnApiKey(user.id))!.lastUsedAt?.getTime()).toBeGreaterThan(0);
  });

  it("keeps no usable key in the database: a hash to find it and a copy sealed with the server secret", async () => {
    const customer = await apiCustomer();
    const row = (await getDb().select().from(apiKeys).where(eq(apiKeys.userId, customer.id)).get())!;
    expect(row.keyHash).toBe(createHash("sha256").update(customer.key).digest("base64url"));
    expect(row.keyCiphertext).not.toContain(customer.key.slice(API_KEY_PREFIX.length, API_KEY_PREFIX.length + 8));
    // The sealed copy is bound to its owner: moved to another user's row it does not open.
    const other = await apiCustomer();
    await getDb().update(apiKeys).set({ keyCiphertext: row.keyCiphertext }).where(eq(apiKeys.userId, other.id)).run();
    await expect(getOwnApiKey(other.id)).rejects.toThrow();
  });

  it('says "Error fetching user" when the key cannot be read, and a new key mends it', async () => {
    const customer = await apiCustomer();
    await getDb()
      .update(apiKeys)
      .set({ keyCiphertext: "v1.AAAA.BBBB.CCCC" })
      .where(eq(apiKeys.userId, customer.id))
      .run();
    expect((await tokenPage(customer)).apiKey).toMatchObject({ masked: null, key: null });
    await regenerate(customer);
    expect((await tokenPage(customer)).apiKey).toMatchObject({ masked: expect.stringMatching(/^smsgw_live_/) });
  });

  it("asks for the login first and takes only its own intent", async () => {
    expect(locationOf(await call(loader, makeRequest("/sms/apiToken")))).toMatch(/^\/login/);
    expect(locationOf(await call(action, makeRequest("/sms/apiToken", { form: { intent: "regenerate" } })))).toMatch(
      /^\/login/,
    );
    const user = await createTestUser();
    expect(statusOf(await call(action, makeRequest("/sms/apiToken", { user, form: { intent: "delete" } })))).toBe(400);
    expect(await getOwnApiKey(user.id)).toBeNull();
  });
});

describe("revocation across processes", () => {
  it("a key regenerated here is refused at once by an API server in another process", async () => {
    const customer = await apiCustomer(5);
    const child = spawn(process.execPath, ["tests/support/api-server.ts"], { stdio: ["pipe", "pipe", "inherit"] });
    try {
      const port = (await createInterface({ input: child.stdout! })[Symbol.asyncIterator]().next()).value as string;
      const balance = (key: string) =>
        fetch(`http://127.0.0.1:${port}/api/v1/balance`, { headers: { Authorization: `Bearer ${key}` } });
      // Twice, so the other process answers the second from its cache.
      expect((await balance(customer.key)).status).toBe(200);
      expect((await balance(customer.key)).status).toBe(200);
      const { key: newKey } = await regenerateApiKey(customer.id);
      expect((await balance(customer.key)).status).toBe(401);
      expect((await balance(newKey)).status).toBe(200);
    } finally {
      child.stdin!.end();
      await new Promise((resolve) => child.once("exit", resolve));
    }
  });
});

describe("Documentation screen", () => {
  let server: Awaited<ReturnType<typeof startApiServer>>;
  beforeAll(async () => {
    server = await startApiServer();
    // The examples name APP_URL: here, the API server they run against.
    getEnv().appUrl = server.url;
  });
  afterAll(() => server.close());

  function documentationRequest(origin: string, user: TestUser, search = "", headers: Record<string, string> = {}) {
    return new Request(`${origin}/sms/documentation${search}`, {
      headers: { Cookie: user.cookie, [CLIENT_IP_HEADER]: "127.0.0.1", ...headers },
    });
  }

  type Reference = {
    endpoints: { method: string; path: string; curl: string }[];
    keyExport: string;
    hasKey: boolean;
    keyShown: boolean;
  };

  it("documents every route with curl examples for the reader's address that run as they are", async () => {
    const customer = await apiCustomer(10);
    // The reader's own ids for the examples that take one: a message, a scheduled message, a group with a member, a group send and an opt-out.
    await callApi("POST", "/api/v1/messages", {
      key: customer.key,
      json: { to: "+12025550150", body: "for the example" },
    });
    const sendAt = new Date(Date.now() + 86_400_000).toISOString();
    const scheduled = await callApi("POST", "/api/v1/messages", {
      key: customer.key,
      json: { to: "+12025550150", body: "later", sendAt },
    });
    const group = await callApi("POST", "/api/v1/groups", {
      key: customer.key,
      json: { name: "Regulars", description: "Weekly" },
    });
    await callApi("POST", "/api/v1/contacts", {
      key: customer.key,
      json: { name: "Grace", phone: "+12025550151", email: "g@example.com", groupIds: [group.json.id] },
    });
    await callApi("POST", `/api/v1/groups/${group.json.id}/messages`, { key: customer.key, json: { body: "Friday" } });
    await callApi("POST", "/api/v1/opt-outs", { key: customer.key, json: { phone: "+12025550152" } });
    // Two endpoints: the delete example takes the oldest, the others the newest.
    for (const path of ["old", "new"])
      await callApi("POST", "/api/v1/webhooks", {
        key: customer.key,
        json: { url: `http://203.0.113.10/${path}`, events: ["message.delivered"] },
      });
    const hook = await callApi("GET", "/api/v1/webhooks", { key: customer.key });
    await callApi("POST", `/api/v1/webhooks/${hook.json.data[0].id}/test`, { key: customer.key });
    const page = dataOf<{ reference: Reference }>(
      await call(documentationLoader, documentationRequest(server.url, customer)),
    );
    const { endpoints, keyExport } = page.reference;
    expect(endpoints.map((e) => `${e.method} ${e.path}`).sort()).toEqual(
      API_ROUTES.map((r) => `${r.method} ${r.path}`).sort(),
    );
    expect(keyExport).not.toContain(customer.key);
    expect(JSON.stringify(page)).not.toContain(customer.key);

    const run = promisify(execFile);
    for (const endpoint of endpoints) {
      expect(endpoint.curl.startsWith(`curl -sS --fail-with-body`)).toBe(true);
      expect(endpoint.curl).toContain(`${server.url}/api/v1/`);
      // Each example exactly as a reader would paste it, after exporting the key.
      const { stdout } = await run("bash", ["-c", endpoint.curl], {
        env: { ...process.env, SMSGW_API_KEY: customer.key },
      });
      expect(JSON.parse(stdout), `${endpoint.method} ${endpoint.path}`).toBeTypeOf("object");
    }
    // The cancel example cancelled the reader's scheduled message; the create examples made a contact and a group,
    // and the delete examples deleted the reader's newest contact and group (the ones made before the page loaded).
    expect((await callApi("GET", `/api/v1/messages/${scheduled.json.id}`, { key: customer.key })).json.status).toBe(
      "cancelled",
    );
    expect((await callApi("GET", "/api/v1/contacts", { key: customer.key })).json.data).toHaveLength(1);
    expect((await callApi("GET", "/api/v1/groups", { key: customer.key })).json.data).toHaveLength(1);
    // About forty bash and curl processes one after another: 25-30 s on a busy 2-core machine (a fresh clone's run timed out at 30 s).
  }, 120_000);

  it("shows the key in the example only when asked, and APP_URL whatever the request's host", async () => {
    const customer = await apiCustomer();
    const withKey = dataOf<{ reference: Reference }>(
      await call(documentationLoader, documentationRequest("http://localhost", customer, "?key=1")),
    );
    expect(withKey.reference.keyExport).toBe(`export SMSGW_API_KEY='${customer.key}'`);
    expect(withKey.reference.keyShown).toBe(true);

    const proxied = { "X-Forwarded-Proto": "https", "X-Forwarded-Host": "sms.example.com" };
    const direct = dataOf<{ reference: Reference }>(
      await call(documentationLoader, documentationRequest("http://10.0.0.5:3000", customer, "", proxied)),
    );
    expect(direct.reference.endpoints[0].curl).toContain(`"${getEnv().appUrl}/api/v1/`);
    getEnv().TRUST_PROXY = 1;
    try {
      const behindProxy = dataOf<{ reference: Reference }>(
        await call(documentationLoader, documentationRequest("http://10.0.0.5:3000", customer, "", proxied)),
      );
      expect(behindProxy.reference.endpoints[0].curl).toContain(`"${getEnv().appUrl}/api/v1/`);
    } finally {
      getEnv().TRUST_PROXY = 0;
    }
  });
});
