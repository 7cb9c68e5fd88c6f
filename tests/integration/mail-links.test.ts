// Full test mode without a mail server (the demo): admins follow account links from /admin/mail,
// and the outbox holds each link only until it is used or has expired.
import { eq } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { getDb } from "#app/db/client.server.ts";
import { mailOutbox } from "#app/db/schema/mail.ts";
import { purgeExpired } from "#app/modules/housekeeping/housekeeping.server.ts";
import { LINK_REMOVED } from "#app/modules/mail/outbox.server.ts";
import { loader as mailLoader } from "#app/routes/admin/mail.tsx";
import { action as forgotAction } from "#app/routes/auth/forgot-password.tsx";
import { action as resetAction } from "#app/routes/auth/reset-password.tsx";
import { resetClock, setClock } from "#app/utils/clock.server.ts";
import { getEnv } from "#app/utils/env.server.ts";
import { call, createTestUser, dataOf, locationOf, makeRequest, type TestUser } from "#tests/support/requests.ts";

afterEach(() => resetClock());

const LINK = /\/reset-password\/([A-Za-z0-9_-]{43})/;

/** Asks for a reset of `user`; the admin's view of its mail. */
async function resetMailAsAdminSeesIt(user: TestUser, admin: TestUser) {
  await call(forgotAction, makeRequest("/forgot-password", { form: { email: user.email }, ip: "203.0.113.8" }));
  const { id } = (await getDb()
    .select({ id: mailOutbox.id })
    .from(mailOutbox)
    .where(eq(mailOutbox.userId, user.id))
    .get())!;
  return { id, view: () => mailView(id, admin) };
}

async function mailView(id: number, admin: TestUser) {
  const page = dataOf<{ selected: { text: string }; linksShown: boolean }>(
    await call(mailLoader, makeRequest(`/admin/mail?id=${id}`, { user: admin })),
  );
  return page.selected.text;
}

const storedText = async (id: number) =>
  (await getDb().select().from(mailOutbox).where(eq(mailOutbox.id, id)).get())!.text;

describe("account links at /admin/mail in full test mode", () => {
  it("shows the working link until it is used; then neither the view nor the database holds it", async () => {
    expect(getEnv().testMode.full).toBe(true);
    const [user, admin] = [await createTestUser(), await createTestUser("admin")];
    const { id, view } = await resetMailAsAdminSeesIt(user, admin);
    const token = LINK.exec(await view())![1];
    const form = { password: "used-link-secret-5", confirmPassword: "used-link-secret-5" };
    expect(locationOf(await call(resetAction, makeRequest(`/reset-password/${token}`, { form }), { token }))).toBe(
      "/login",
    );
    expect(await view()).toContain(LINK_REMOVED);
    expect(await storedText(id)).not.toContain(token);
  });

  it("removes a link that expired unused at the next hourly purge", async () => {
    const [user, admin] = [await createTestUser(), await createTestUser("admin")];
    const { id, view } = await resetMailAsAdminSeesIt(user, admin);
    const token = LINK.exec(await view())![1];
    setClock(() => Date.now() + 60 * 60 * 1000 + 1);
    expect((await purgeExpired()).mailLinks).toBeGreaterThanOrEqual(1);
    expect(await storedText(id)).not.toContain(token);
    // Back to now, where the admin's session still is.
    resetClock();
    expect(await view()).toContain(LINK_REMOVED);
  });
});
