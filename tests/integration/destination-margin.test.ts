// The admin overview's revenue by destination with upstream cost and margin: each accepted
// message's segments at the cost per segment its upstream has in the number's route, grouped by the
// price list's prefix; margin is revenue minus that cost, unknown before the first paid order.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "#app/db/client.server.ts";
import { smsSubmitAttempts } from "#app/db/schema/sms-attempts.ts";
import { orders } from "#app/db/schema/shop.ts";
import { getAdminOverview } from "#app/modules/insight/admin-overview.server.ts";
import { savePrice } from "#app/modules/pricing/prices.server.ts";
import { saveRoute } from "#app/modules/routing/routes.server.ts";
import { createUpstream } from "#app/modules/routing/upstreams.server.ts";
import { queueMessage } from "#app/modules/sms/send.server.ts";
import { resetClock, setClock } from "#app/utils/clock.server.ts";
import { workCounts } from "#app/utils/work-counts.server.ts";
import { loader as overviewLoader } from "#app/routes/admin/overview.tsx";
import { call, createTestUser, dataOf, makeRequest } from "#tests/support/requests.ts";
import { grantCredits } from "#tests/support/sms.ts";

const SENT_AT = Date.parse("2030-02-01T10:00:00Z");
const NOW = Date.parse("2030-02-02T12:00:00Z");
const TWO_SEGMENTS = "x".repeat(200);

type Attempt = { upstream: string; outcome: "accepted" | "passed_on" };

/** A message queued at SENT_AT with the submit attempts the worker would have stored for it. */
async function sent(userId: number, to: string, body: string, attempts: Attempt[]) {
  const message = await queueMessage(userId, { to, body });
  if (attempts.length === 0) return;
  await getDb()
    .insert(smsSubmitAttempts)
    .values(attempts.map((a) => ({ messageId: message.id, attemptedAt: new Date(SENT_AT), bind: "1", ...a })))
    .run();
}

const destinations = async () => (await getAdminOverview(7, "UTC", NOW)).destinations;

beforeAll(async () => {
  setClock(() => SENT_AT);
  await savePrice({ prefix: "44", creditsPerSegment: 2 });
  const backup = await createUpstream({
    name: "Backup carrier",
    kind: "simulator",
    url: null,
    systemId: null,
    password: undefined,
    binds: 1,
    window: 10,
    tps: 10,
    sourceAddr: null,
    enabled: true,
  });
  // +44: the environment's upstream at $0.005 a segment, then the backup at $0.008; elsewhere $0.001.
  await saveRoute(undefined, {
    prefix: "44",
    upstreams: [
      { upstreamId: "env", weight: null, costMicros: 5_000 },
      { upstreamId: backup.id, weight: null, costMicros: 8_000 },
    ],
  });
  await saveRoute(undefined, { prefix: "*", upstreams: [{ upstreamId: "env", weight: null, costMicros: 1_000 }] });
  const customer = await createTestUser();
  await grantCredits(customer.id, 100);
  await sent(customer.id, "+447911123456", "Hi", [{ upstream: "env", outcome: "accepted" }]);
  // Passed on by the first upstream: only the backup, which accepted it, charged for it.
  await sent(customer.id, "+447911123457", TWO_SEGMENTS, [
    { upstream: "env", outcome: "passed_on" },
    { upstream: backup.id, outcome: "accepted" },
  ]);
  // Never accepted yet: charged to the customer, no upstream's cost.
  await sent(customer.id, "+447911123458", "Hi", []);
  await sent(customer.id, "+12025550100", "Hi", [{ upstream: "env", outcome: "accepted" }]);
  resetClock();
});

afterAll(() => resetClock());

describe("revenue by destination on the admin overview", () => {
  it("shows each destination's upstream cost, and a margin that is unknown before any credit sold", async () => {
    expect(await destinations()).toEqual([
      { prefix: "44", messages: 3, credits: 8, revenueCents: null, costMicros: 21_000, marginMicros: null },
      { prefix: "*", messages: 1, credits: 1, revenueCents: null, costMicros: 1_000, marginMicros: null },
    ]);
  });

  it("takes the margin as revenue minus cost once credits have sold, in one statement for any number of messages", async () => {
    const customer = await createTestUser();
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
        createdAt: new Date(SENT_AT),
        confirmedAt: new Date(SENT_AT),
      })
      .run();
    // A credit sold for 5 cents: +44's 8 credits are $0.40, less $0.021; "*"'s 1 credit is $0.05, less $0.001.
    // Signed in at NOW, so that the session is fresh then.
    setClock(() => NOW);
    const admin = await createTestUser("admin");
    const page = dataOf<Awaited<ReturnType<typeof overviewLoader>>>(
      await call(overviewLoader, makeRequest("/admin", { user: admin })),
    );
    resetClock();
    const expected = [
      { prefix: "44", messages: 3, credits: 8, revenueCents: 40, costMicros: 21_000, marginMicros: 379_000 },
      { prefix: "*", messages: 1, credits: 1, revenueCents: 5, costMicros: 1_000, marginMicros: 49_000 },
    ];
    expect(await destinations()).toEqual(expected);
    expect(page.destinations).toEqual(expected);
    // Counted with time held still and the caches read first: the price list's version and the route
    // table are read at most once a second (decisions 134, 136), never inside a count.
    const countStatements = async <T>(read: () => Promise<T>) => {
      const held = Date.now();
      setClock(() => held);
      try {
        await read();
        const before = workCounts().statements;
        const result = await read();
        return { result, statements: workCounts().statements - before };
      } finally {
        resetClock();
      }
    };
    const first = await countStatements(destinations);
    const more = await createTestUser();
    await grantCredits(more.id, 100);
    setClock(() => SENT_AT);
    for (const to of ["+447911123459", "+447911123460", "+12025550101"])
      await sent(more.id, to, "Hi", [{ upstream: "env", outcome: "accepted" }]);
    resetClock();
    const second = await countStatements(destinations);
    expect(second.result.map((row) => row.costMicros)).toEqual([31_000, 2_000]);
    expect(second.statements).toBe(first.statements);
  });
});
