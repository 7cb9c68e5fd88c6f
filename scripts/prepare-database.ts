// Start-up's database work: migrations, seeding and the first-admin setup link, under the start lock,
// so web processes starting together (and a worker migrating) do it once and print one link.
import { runMigrations } from "#app/db/migrate.server.ts";
import { underStartLock } from "#app/db/start-lock.server.ts";
import { adminExists, currentSetupToken } from "#app/modules/auth/first-admin.server.ts";
import { seedDatabase } from "#app/modules/seed/seed.server.ts";

/** Migrates and seeds; with no admin yet, the setup link's token to print (the same for every start while it is valid). */
export function prepareDatabase() {
  return underStartLock(async () => {
    await runMigrations();
    const { demoSeeded } = await seedDatabase();
    return { demoSeeded, setupLink: (await adminExists()) ? undefined : await currentSetupToken() };
  });
}
