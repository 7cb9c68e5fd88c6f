// The Upstreams and Routes screens as an admin uses them (create, edit, disable, the simulated
// upstream told to fail, routes with their costs, the dry run), what the worker and the send paths
// read from them, and what a customer gets: nothing.
import { describe, expect, it } from "vitest";
import { getDb } from "#app/db/client.server.ts";
import { orders } from "#app/db/schema/shop.ts";
import { deletePrice, savePrice } from "#app/modules/pricing/prices.server.ts";
import { dryRunRoute } from "#app/modules/routing/routes.server.ts";
import { forgetRouteTable, routeFor } from "#app/modules/routing/route-table.server.ts";
import { startHeartbeat } from "#app/modules/health/heartbeat.server.ts";
import { waitFor } from "#tests/support/wait.ts";
import { loadUpstreamConfigs, watchUpstreamConfigs } from "#app/modules/routing/upstreams.server.ts";
import type { UpstreamConfig } from "#app/modules/messaging/transport-types.ts";
import { workCounts } from "#app/utils/work-counts.server.ts";
import { action as routesAction, loader as routesLoader } from "#app/routes/admin/routes.tsx";
import { action as upstreamsAction, loader as upstreamsLoader } from "#app/routes/admin/upstreams.tsx";
import { sqlCount, sqlRow } from "#tests/support/database.ts";
import { call, createTestUser, dataOf, locationOf, makeRequest, statusOf } from "#tests/support/requests.ts";

type Reply = { result: { error?: Record<string, string[] | null>; initialValue?: Record<string, unknown> } };
type UpstreamsData = Awaited<ReturnType<typeof upstreamsLoader>>;
type RoutesData = Awaited<ReturnType<typeof routesLoader>>;

const admin = await createTestUser("admin");
const PASSWORD = "s3cr3tPw";

const upstreamForm = (fields: Record<string, string>) => ({
  intent: "create",
  name: "Carrier One",
  kind: "smpp",
  url: "smpp://smsc.carrier-one.test:2775",
  systemId: "gateway",
  password: PASSWORD,
  binds: "2",
  window: "20",
  tps: "50",
  sourceAddr: "",
  enabled: "on",
  ...fields,
});

const postUpstream = (form: Record<string, string>, user: { cookie: string } = admin) =>
  call(upstreamsAction, makeRequest("/admin/upstreams", { user, form }));
const postRoute = (form: Record<string, string>, user: { cookie: string } = admin) =>
  call(routesAction, makeRequest("/admin/routes", { user, form: { intent: "save", ...form } }));
const upstreamsPage = async (query = "") =>
  dataOf<UpstreamsData>(await call(upstreamsLoader, makeRequest(`/admin/upstreams${query}`, { user: admin })));
const routesPage = async (query = "") =>
  dataOf<RoutesData>(await call(routesLoader, makeRequest(`/admin/routes${query}`, { user: admin })));
const upstreamCount = () => sqlCount("select count(*) as n from upstreams");
const idOf = async (name: string) => (await upstreamsPage()).upstreams.find((u) => u.name === name)!.id;

describe("with nothing configured", () => {
  it("the environment's upstream is the only one, read-only, and takes every destination", async () => {
    const page = await upstreamsPage();
    expect(page.upstreams).toMatchObject([{ id: "env", name: "default", kind: "simulator", fromEnvironment: true }]);
    expect(page.states).toEqual({});
    expect(await routeFor("+447700900123")).toEqual({
      prefix: "*",
      upstreams: [{ upstreamId: "env", weight: null, costMicros: 0 }],
    });
    expect(await loadUpstreamConfigs()).toEqual([]);
  });
});

describe("an upstream", () => {
  it("is created with its password sealed, never shown again, and given to the worker opened", async () => {
    const created = await postUpstream(upstreamForm({}));
    expect(locationOf(created)).toBe("/admin/upstreams");
    const stored = await sqlRow<{ password_ciphertext: string }>(
      "select password_ciphertext from upstreams where name = 'Carrier One'",
    );
    expect(stored?.password_ciphertext).toMatch(/^v1\./);
    expect(stored?.password_ciphertext).not.toContain(PASSWORD);

    const id = await idOf("Carrier One");
    const page = await upstreamsPage(`?edit=${id}`);
    expect(page.editing).toMatchObject({ name: "Carrier One", hasPassword: true, binds: 2, window: 20, tps: 50 });
    expect(JSON.stringify(page)).not.toContain(PASSWORD);

    const config = (await loadUpstreamConfigs()).find((c) => c.id === id);
    expect(config).toMatchObject({
      kind: "smpp",
      systemId: "gateway",
      password: PASSWORD,
      url: `smpp://gateway:${PASSWORD}@smsc.carrier-one.test:2775`,
      binds: 2,
      window: 20,
      tps: 50,
      sourceAddr: "SMSGateway",
    });
  });

  it("keeps its password when the field is left blank, and takes a new one when typed", async () => {
    const id = await idOf("Carrier One");
    const kept = await postUpstream(upstreamForm({ intent: "update", id, password: "", tps: "60" }));
    expect(locationOf(kept)).toBe("/admin/upstreams");
    expect((await loadUpstreamConfigs()).find((c) => c.id === id)).toMatchObject({ password: PASSWORD, tps: 60 });
    await postUpstream(upstreamForm({ intent: "update", id, password: "n3wPw" }));
    expect((await loadUpstreamConfigs()).find((c) => c.id === id)?.password).toBe("n3wPw");
  });

  it.each([
    ["no name", { name: "" }, "name", /required/],
    ["the environment's name", { name: "Default" }, "name", /environment/],
    ["an address with credentials", { url: "smpp://gateway:pw@smsc.test:2775" }, "url", /without the system id/],
    ["no address", { url: "" }, "url", /address is required/],
    ["no password", { password: "" }, "password", /password is required/],
    ["too many binds", { binds: "40" }, "binds", /1 to 32/],
    ["a name another upstream has", { name: "Carrier One" }, "name", /already exists/],
  ])(
    "with %s: the message is next to the field, the password not echoed, nothing saved",
    async (_, fields, field, message) => {
      const before = await upstreamCount();
      const answer = await postUpstream(upstreamForm({ name: "Carrier Two", ...fields }));
      expect(statusOf(answer)).toBe(400);
      expect(dataOf<Reply>(answer).result.error?.[field]?.[0]).toMatch(message);
      expect(JSON.stringify(dataOf(answer))).not.toContain(PASSWORD);
      expect(await upstreamCount()).toBe(before);
    },
  );

  it("disabled, leaves the worker's list and every route", async () => {
    const id = await idOf("Carrier One");
    expect(locationOf(await postUpstream({ intent: "disable", id }))).toBe("/admin/upstreams");
    expect((await loadUpstreamConfigs()).map((c) => c.id)).toEqual([]);
    expect(locationOf(await postUpstream({ intent: "enable", id }))).toBe("/admin/upstreams");
    expect((await loadUpstreamConfigs()).map((c) => c.id)).toEqual([id]);
  });

  it("reaches a watching worker: called back with the list now and after a change, not without one", async () => {
    const seen: UpstreamConfig[][] = [];
    const watcher = watchUpstreamConfigs((configs) => seen.push(configs), 3_600_000);
    try {
      await watcher.ready;
      expect(seen).toHaveLength(1);
      await watcher.check();
      expect(seen).toHaveLength(1);
      const id = await idOf("Carrier One");
      await postUpstream(upstreamForm({ intent: "update", id, password: "", binds: "3" }));
      await watcher.check();
      expect(seen).toHaveLength(2);
      expect(seen[1].find((c) => c.id === id)?.binds).toBe(3);
    } finally {
      watcher.stop();
    }
  });

  it("simulated (test mode), can be told to fail, and the worker sees it failing", async () => {
    expect(
      locationOf(await postUpstream(upstreamForm({ name: "Sim A", kind: "simulator", url: "", password: "" }))),
    ).toBe("/admin/upstreams");
    const id = await idOf("Sim A");
    expect(locationOf(await postUpstream({ intent: "fail", id }))).toBe("/admin/upstreams");
    expect((await loadUpstreamConfigs()).find((c) => c.id === id)).toMatchObject({ kind: "simulator", failing: true });
    await postUpstream({ intent: "recover", id });
    expect((await loadUpstreamConfigs()).find((c) => c.id === id)?.failing).toBe(false);
    // An SMPP upstream has no fail switch.
    expect(statusOf(await postUpstream({ intent: "fail", id: await idOf("Carrier One") }))).toBe(404);
  });

  it("shows the live state the workers' heartbeats carry, summed over them", async () => {
    const id = await idOf("Carrier One");
    const now = Date.now();
    const state = (bindsUp: number, lastError: string | null) => ({
      id,
      name: "Carrier One",
      binds: 2,
      bindsUp,
      submitsPerSecond: 20,
      errorRate: 0.05,
      recentSubmits: 200,
      recentErrors: 10,
      submitted: 200,
      accepted: 190,
      refused: 10,
      unanswered: 0,
      failedOver: 0,
      unbound: 0,
      lastError,
      lastErrorAt: lastError ? now : null,
    });
    const beat = startHeartbeat(() => ({ smpp: null, upstreams: [state(2, "throttled (0x58)")] }));
    try {
      await waitFor(async () => ((await upstreamsPage()).states[id]?.bindsUp ?? 0) >= 2);
      expect((await upstreamsPage()).states[id]).toMatchObject({
        bindsUp: 2,
        submitsPerSecond: 20,
        lastError: { message: "throttled (0x58)" },
      });
    } finally {
      await beat.stop();
    }
  });

  it("another id is a 404", async () => {
    expect(statusOf(await call(upstreamsLoader, makeRequest("/admin/upstreams?edit=999999", { user: admin })))).toBe(
      404,
    );
    expect(statusOf(await postUpstream(upstreamForm({ intent: "update", id: "999999" })))).toBe(404);
    expect(statusOf(await postUpstream({ intent: "disable", id: "999999" }))).toBe(404);
  });

  it("an intent named after an object's own key is a 404, not a 500 (the fuzz's find)", async () => {
    for (const intent of ["toString", "constructor", "__proto__", "hasOwnProperty"])
      expect(statusOf(await postUpstream({ intent, id: "1" }))).toBe(404);
  });
});

describe("routes", () => {
  it("are created with their upstreams in order, weights and costs; the longest prefix wins", async () => {
    const carrier = await idOf("Carrier One");
    const sim = await idOf("Sim A");
    expect(
      locationOf(
        await postRoute({
          prefix: "+44",
          "slots[0].upstream": carrier,
          "slots[0].cost": "0.0042",
          "slots[1].upstream": "env",
          "slots[1].cost": "0.005",
        }),
      ),
    ).toBe("/admin/routes");
    expect(
      locationOf(
        await postRoute({
          prefix: "44 7700",
          "slots[0].upstream": sim,
          "slots[0].weight": "3",
          "slots[1].upstream": carrier,
          "slots[1].weight": "1",
          "slots[1].cost": "0.004",
        }),
      ),
    ).toBe("/admin/routes");
    const { routes } = await routesPage();
    expect(routes.map((r) => r.prefix)).toEqual(["44", "447700"]);
    expect(routes[0].upstreams).toMatchObject([
      { upstreamId: carrier, name: "Carrier One", costMicros: 4200, weight: null },
      { upstreamId: "env", name: "default", costMicros: 5000 },
    ]);
    expect((await routeFor("+447700900123")).prefix).toBe("447700");
    expect((await routeFor("+442071838750")).upstreams.map((u) => u.upstreamId)).toEqual([carrier, "env"]);
    expect((await routeFor("+12025550111")).upstreams.map((u) => u.upstreamId)).toEqual(["env"]);
  });

  it("cost a batch at most one statement: 200 destinations resolved from the table in memory", async () => {
    // Reading the counts may run a statement of its own (SQLite's rows written): measured, then left out.
    const start = workCounts().statements;
    const reading = workCounts().statements - start;
    forgetRouteTable();
    const before = workCounts().statements;
    const routed = [];
    for (let i = 0; i < 200; i++) routed.push(await routeFor(`+4477009${String(i).padStart(5, "0")}`));
    expect(workCounts().statements - before - reading).toBe(1);
    expect(new Set(routed.map((route) => route.prefix))).toEqual(new Set(["447700"]));
  });

  it("answer the dry run: the matched prefix and the upstreams with their costs", async () => {
    const page = await routesPage(`?to=${encodeURIComponent("+44 20 7183 8750")}`);
    expect(page.dryRun).toMatchObject({
      e164: "+442071838750",
      prefix: "44",
      upstreams: [
        { name: "Carrier One", costMicros: 4200 },
        { name: "default", costMicros: 5000 },
      ],
    });
    expect((await routesPage(`?to=${encodeURIComponent("+44 7700 900123")}`)).dryRun).toMatchObject({
      e164: "+447700900123",
      prefix: "447700",
    });
    expect((await routesPage("?to=12")).dryRun).toMatchObject({
      error: expect.stringMatching(/"12" is not a phone number/),
    });
    expect(await dryRunRoute("+12025550111")).toEqual({
      prefix: "*",
      upstreams: [{ id: "env", name: "default", weight: null, costMicros: 0 }],
      creditsPerSegment: 1,
      revenuePerCreditMicros: null,
      revenueMicros: null,
      marginMicros: null,
    });
  });

  it("answer the dry run with the destination's price and the margin through the first upstream", async () => {
    const number = `?to=${encodeURIComponent("+44 20 7183 8750")}`;
    await savePrice({ prefix: "442071", creditsPerSegment: 3 });
    try {
      // No paid order yet: what a credit brings in, so the margin, is not known, and the page says so.
      expect((await routesPage(number)).dryRun).toMatchObject({
        creditsPerSegment: 3,
        revenueMicros: null,
        marginMicros: null,
      });
      const customer = await createTestUser();
      const paid = new Date(Date.parse("2030-01-01T00:00:00Z"));
      await getDb()
        .insert(orders)
        .values({
          userId: customer.id,
          pickupName: "A",
          pickupEmail: "a@example.com",
          pickupPhone: "+12025550100",
          totalCents: 5000,
          totalItems: 1,
          totalCredits: 1000,
          status: "Confirmed",
          refundedCents: 0,
          createdAt: paid,
          confirmedAt: paid,
        })
        .run();
      // 3 credits at 5 cents is $0.15 a segment; Carrier One, first on +44, charges $0.0042.
      expect((await routesPage(number)).dryRun).toMatchObject({
        prefix: "44",
        creditsPerSegment: 3,
        revenuePerCreditMicros: 50_000,
        revenueMicros: 150_000,
        marginMicros: 145_800,
      });
    } finally {
      await deletePrice("442071");
    }
  });

  it.each([
    ["a prefix that is not digits", { prefix: "44a", "slots[0].upstream": "env" }, "prefix", /start of an E\.164/],
    ["a prefix another route has", { prefix: "+44", "slots[0].upstream": "env" }, "prefix", /Another route/],
    ["no upstream", { prefix: "33" }, "slots", /at least one upstream/],
    [
      "one upstream twice",
      { prefix: "33", "slots[0].upstream": "env", "slots[2].upstream": "env" },
      "slots[2].upstream",
      /already in the route/,
    ],
    [
      "a cost that is no amount",
      { prefix: "33", "slots[0].upstream": "env", "slots[0].cost": "cheap" },
      "slots[0].cost",
      /0\.0042/,
    ],
    [
      "a weight of 0",
      { prefix: "33", "slots[0].upstream": "env", "slots[0].weight": "0" },
      "slots[0].weight",
      /1 to 1000/,
    ],
    [
      "a cost without its upstream",
      { prefix: "33", "slots[1].cost": "0.01", "slots[0].upstream": "env" },
      "slots[1].upstream",
      /Choose the upstream/,
    ],
  ])("with %s: the message is next to the field, nothing saved", async (_, form, field, message) => {
    const before = await sqlCount("select count(*) as n from route_upstreams");
    const answer = await postRoute(form as Record<string, string>);
    expect(statusOf(answer)).toBe(400);
    expect(dataOf<Reply>(answer).result.error?.[field]?.[0]).toMatch(message);
    expect(await sqlCount("select count(*) as n from route_upstreams")).toBe(before);
    expect(await sqlCount("select count(*) as n from routes where prefix = '33'")).toBe(0);
  });

  it("are edited and deleted; a disabled upstream is skipped, a route left without one falls to a shorter prefix", async () => {
    const { routes } = await routesPage();
    const long = routes.find((r) => r.prefix === "447700")!;
    const edited = await postRoute({ id: String(long.id), prefix: "447700", "slots[0].upstream": await idOf("Sim A") });
    expect(locationOf(edited)).toBe("/admin/routes");
    expect((await routesPage(`?edit=${long.id}`)).editing?.upstreams).toHaveLength(1);

    await postUpstream({ intent: "disable", id: await idOf("Sim A") });
    expect((await routeFor("+447700900123")).prefix).toBe("44");
    await postUpstream({ intent: "enable", id: await idOf("Sim A") });

    const removed = await call(
      routesAction,
      makeRequest("/admin/routes", { user: admin, form: { intent: "delete", id: String(long.id) } }),
    );
    expect(locationOf(removed)).toBe("/admin/routes");
    expect((await routeFor("+447700900123")).prefix).toBe("44");
    expect(statusOf(await call(routesLoader, makeRequest(`/admin/routes?edit=${long.id}`, { user: admin })))).toBe(404);
  });
});

describe("a customer", () => {
  it("is refused both screens and changes nothing", async () => {
    const customer = await createTestUser();
    const before = await upstreamCount();
    for (const answer of [
      await call(upstreamsLoader, makeRequest("/admin/upstreams", { user: customer })),
      await postUpstream(upstreamForm({ name: "Sneaky" }), customer),
      await call(routesLoader, makeRequest("/admin/routes", { user: customer })),
      await postRoute({ prefix: "1", "slots[0].upstream": "env" }, customer),
    ]) {
      expect(locationOf(answer)).toBe("/accessDenied");
    }
    expect(await upstreamCount()).toBe(before);
    expect(await sqlCount("select count(*) as n from routes where prefix = '1'")).toBe(0);
  });
});
