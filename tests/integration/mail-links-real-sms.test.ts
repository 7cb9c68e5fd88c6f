// Real SMPP with test cards allowed (test mode only for payments) and no mail server: the outbox keeps the
// mails, but a working reset link is neither stored nor shown at /admin/mail, where it would be a
// way into the account.
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "#app/db/client.server.ts";
import { mailOutbox } from "#app/db/schema/mail.ts";
import { LINK_REMOVED } from "#app/modules/mail/outbox.server.ts";
import { loader as mailLoader } from "#app/routes/admin/mail.tsx";
import { action as forgotAction } from "#app/routes/auth/forgot-password.tsx";
import { getEnv } from "#app/utils/env.server.ts";
import { call, createTestUser, dataOf, locationOf, makeRequest } from "#tests/support/requests.ts";

// Read at the first getEnv(), after the imports.
process.env.SMS_TRANSPORT = "smpp";
process.env.SMPP_URL = "smpp://smsgw:secret@127.0.0.1:1";
process.env.ALLOW_TEST_PAYMENTS = "1";

describe("/admin/mail with a real SMSC and no mail server", () => {
  it("shows a reset mail's text without its link, and the database never held it", async () => {
    expect(getEnv().testMode).toMatchObject({ active: true, full: false });
    const user = await createTestUser();
    const admin = await createTestUser("admin");
    const asked = await call(
      forgotAction,
      makeRequest("/forgot-password", { form: { email: user.email }, ip: "203.0.113.7" }),
    );
    expect(locationOf(asked)).toBe("/login");
    const mail = (await getDb().select().from(mailOutbox).where(eq(mailOutbox.userId, user.id)).get())!;
    expect(mail.text).toContain(LINK_REMOVED);
    expect(mail.text).not.toMatch(/reset-password\/[A-Za-z0-9_-]{43}/);

    const page = dataOf<{ selected: { text: string }; linksShown: boolean }>(
      await call(mailLoader, makeRequest(`/admin/mail?id=${mail.id}`, { user: admin })),
    );
    expect(page.linksShown).toBe(false);
    expect(page.selected.text).toContain("Choose a new password here");
    expect(page.selected.text).not.toMatch(/reset-password\/[A-Za-z0-9_-]{43}/);
  });
});
