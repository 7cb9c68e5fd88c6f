import { count } from "drizzle-orm";
import { db } from "./client.server.ts";
import { users } from "./schema/core.ts";
import { packages } from "./schema/shop.ts";
import { book } from "../modules/credits/ledger.server.ts";
import { createUser, upsertUser } from "../modules/auth/users.server.ts";
import { env } from "../utils/env.server.ts";

export const DEMO_ACCOUNTS = {
  admin: { email: "admin@example.com", password: "admin12345", fullName: "Demo Admin", role: "admin" },
  customer: { email: "demo@example.com", password: "demo12345", fullName: "Demo Customer", role: "customer" },
} as const;

/** Credits the demo customer starts with, so a first SMS can go out before buying anything. */
const DEMO_CREDITS = 100;

// The credit ladder: the more credits, the lower the price per SMS.
export const PACKAGE_LADDER = [
  { name: "Starter 100", credits: 100, priceCents: 500, specialTag: "", category: "appetizer" },
  { name: "Basic 500", credits: 500, priceCents: 2250, specialTag: "", category: "appetizer" },
  { name: "Business 1,000", credits: 1000, priceCents: 4000, specialTag: "Best Seller", category: "entree" },
  { name: "Pro 5,000", credits: 5000, priceCents: 17500, specialTag: "Popular", category: "entree" },
  { name: "Enterprise 10,000", credits: 10000, priceCents: 30000, specialTag: "Best Value", category: "dessert" },
] as const;

function seedPackages() {
  const [{ n }] = db.select({ n: count() }).from(packages).all();
  if (n > 0) return;
  db.insert(packages)
    .values(
      PACKAGE_LADDER.map((p) => ({
        ...p,
        description: `${p.credits.toLocaleString("en-US")} SMS credits: 1 credit sends one SMS segment to any supported number.`,
      })),
    )
    .run();
}

/** Fills an empty database; every step is skipped when its data is already there. */
export async function seedDatabase(): Promise<{ demoSeeded: boolean }> {
  seedPackages();
  let demoSeeded = false;
  const [{ n }] = db.select({ n: count() }).from(users).all();
  if (env.SEED_DEMO && n === 0) {
    await createUser(DEMO_ACCOUNTS.admin);
    const customer = await createUser(DEMO_ACCOUNTS.customer);
    book({ userId: customer.id, kind: "adjustment", amount: DEMO_CREDITS, key: "seed:demo-credits", note: "Demo credits" });
    demoSeeded = true;
  }
  if (env.ADMIN_EMAIL && env.ADMIN_PASSWORD) {
    await upsertUser({ email: env.ADMIN_EMAIL, password: env.ADMIN_PASSWORD, fullName: "Administrator", role: "admin" });
  }
  return { demoSeeded };
}
