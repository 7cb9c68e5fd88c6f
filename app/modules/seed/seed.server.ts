// What an empty database starts with (packages, demo accounts, their demo data): written through the domain (users, ledger), so it lives here and not in app/db.
import { count } from "drizzle-orm";
import { getDb, withTx } from "#app/db/client.server.ts";
import { users } from "#app/db/schema/core.ts";
import { packages } from "#app/db/schema/shop.ts";
import { book } from "#app/modules/credits/ledger.server.ts";
import { DEMO_ACCOUNTS } from "#app/modules/auth/demo-accounts.server.ts";
import { createUser, upsertUser } from "#app/modules/auth/users.server.ts";
import { getEnv } from "#app/utils/env.server.ts";
import { seedDemoData } from "#app/modules/seed/demo-data.server.ts";
import { createUpstream, simulatorsAllowed } from "#app/modules/routing/upstreams.server.ts";

/** Credits the demo customer starts with, so a first SMS can go out before buying anything. */
const DEMO_CREDITS = 100;

// The credit ladder: the more credits, the lower the price per SMS (5.0, 4.5, 4.0, 3.5, 3.0 cents).
export const PACKAGE_LADDER = [
  {
    name: "100",
    credits: 100,
    priceCents: 500,
    specialTag: "",
    category: "appetizer",
    image: "/images/packages/credits-100.png",
  },
  {
    name: "500",
    credits: 500,
    priceCents: 2250,
    specialTag: "",
    category: "appetizer",
    image: "/images/packages/credits-500.png",
  },
  {
    name: "1,000",
    credits: 1000,
    priceCents: 4000,
    specialTag: "Best Seller",
    category: "entree",
    image: "/images/packages/credits-1000.png",
  },
  {
    name: "5,000",
    credits: 5000,
    priceCents: 17500,
    specialTag: "Popular",
    category: "entree",
    image: "/images/packages/credits-5000.png",
  },
  {
    name: "10,000",
    credits: 10000,
    priceCents: 30000,
    specialTag: "Best Value",
    category: "dessert",
    image: "/images/packages/credits-10000.png",
  },
] as const;

const describe = (p: (typeof PACKAGE_LADDER)[number]) =>
  `${p.credits.toLocaleString("en-US")} SMS credits at ${(p.priceCents / p.credits).toFixed(1)} cents each. ` +
  "One credit sends one SMS segment; credits never expire.";

/** Test mode's two simulated upstreams: a route listing both, the first told to fail, shows failover. */
const DEMO_UPSTREAMS = ["Simulator A", "Simulator B"];

async function seedSimulatedUpstreams() {
  for (const name of DEMO_UPSTREAMS) {
    await createUpstream({
      name,
      kind: "simulator",
      url: null,
      systemId: null,
      password: undefined,
      binds: 1,
      window: 10,
      tps: 0,
      sourceAddr: null,
      enabled: true,
    });
  }
}

async function seedPackages() {
  const [{ n }] = await getDb().select({ n: count() }).from(packages).all();
  if (n > 0) return;
  await withTx((tx) =>
    tx
      .insert(packages)
      .values(PACKAGE_LADDER.map((p) => ({ ...p, description: describe(p) })))
      .run(),
  );
}

/**
 * Fills an empty database; every step is skipped when its data is already there. The demo accounts
 * and their data come only when `getEnv().seedDemo` (full test mode, unless SEED_DEMO says otherwise) and
 * there is no account at all yet.
 */
export async function seedDatabase(): Promise<{ demoSeeded: boolean }> {
  await seedPackages();
  let demoSeeded = false;
  const [{ n }] = await getDb().select({ n: count() }).from(users).all();
  if (getEnv().seedDemo && n === 0) {
    await createUser(DEMO_ACCOUNTS.admin);
    const customer = await createUser(DEMO_ACCOUNTS.customer);
    await book({
      userId: customer.id,
      kind: "adjustment",
      amount: DEMO_CREDITS,
      key: "seed:demo-credits",
      note: "Demo credits",
    });
    await seedDemoData(customer, await getDb().select().from(packages).orderBy(packages.credits).all());
    if (simulatorsAllowed()) await seedSimulatedUpstreams();
    demoSeeded = true;
  }
  const { ADMIN_EMAIL, ADMIN_PASSWORD } = getEnv();
  if (ADMIN_EMAIL && ADMIN_PASSWORD) {
    await upsertUser({ email: ADMIN_EMAIL, password: ADMIN_PASSWORD, fullName: "Administrator", role: "admin" });
  }
  return { demoSeeded };
}
