import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "#app/db/client.server.ts";
import { mailOutbox } from "#app/db/schema/mail.ts";
import { supportRequests } from "#app/db/schema/support.ts";
import { MAIL_QUEUE } from "#app/queue/jobs/mail.server.ts";
import { getQueue } from "#app/queue/queues.server.ts";
import { action as contactAction } from "#app/routes/content/contact.tsx";
import { action as inboxAction, loader as inboxLoader } from "#app/routes/content/support-inbox.tsx";
import { call, createTestUser, dataOf, locationOf, makeRequest, statusOf } from "#tests/support/requests.ts";

type Inbox = {
  query: { filter: string; page: number };
  list: {
    rows: { id: number; subject: string; status: string; mailStatus: string }[];
    total: number;
    page: number;
    totalPages: number;
  };
  selected: {
    request: { id: number; status: string; handledBy: number | null; mailStatus: string };
    handledByName: string | null;
  } | null;
};

let n = 0;
async function contact(subject: string) {
  const result = await call(
    contactAction,
    makeRequest("/sms/contact", {
      ip: `198.51.100.${++n}`,
      form: { name: "Grace", email: `grace${n}@example.com`, subject, message: "Hi" },
    }),
  );
  expect(locationOf(result)).toBe("/sms/contact");
  return (await getDb().select().from(supportRequests).where(eq(supportRequests.subject, subject)).get())!;
}

describe("without SMTP_URL requests are saved only", () => {
  it("keeps the request for the inbox and its e-mail in the outbox, queueing no job", async () => {
    const row = await contact("Saved only please");
    expect(row.mailStatus).toBe("not_configured");
    const mail = (await getDb().select().from(mailOutbox).where(eq(mailOutbox.supportRequestId, row.id)).get())!;
    expect(mail).toMatchObject({ kind: "support", status: "kept", subject: `[Contact #${row.id}] Saved only please` });
    expect(await getQueue(MAIL_QUEUE).getJob(`mail-${mail.id}`)).toBeUndefined();
  });
});

describe("support inbox", () => {
  it("is for admins only", async () => {
    const customer = await createTestUser("customer");
    expect(locationOf(await call(inboxLoader, makeRequest("/admin/support", { user: customer })))).toBe(
      "/accessDenied",
    );
    const row = await contact("Not yours to handle");
    const post = await call(
      inboxAction,
      makeRequest("/admin/support", { user: customer, form: { intent: "handle", id: String(row.id) } }),
    );
    expect(locationOf(post)).toBe("/accessDenied");
    expect((await getDb().select().from(supportRequests).where(eq(supportRequests.id, row.id)).get())!.status).toBe(
      "open",
    );
  });

  it("shows the last page for a page past the end, the first for junk, and one empty page for none", async () => {
    const admin = await createTestUser("admin");
    const inbox = async (search: string) =>
      dataOf<Inbox>(await call(inboxLoader, makeRequest(`/admin/support${search}`, { user: admin })));
    // Nothing is handled yet in this file: the Handled list is empty.
    expect(await inbox("?filter=handled&page=4")).toMatchObject({
      query: { page: 1 },
      list: { rows: [], total: 0, page: 1, totalPages: 1 },
    });

    for (let i = 1; i <= 11; i++) await contact(`Clamped request ${i}`);
    const first = await inbox("?filter=all");
    const { totalPages } = first.list;
    expect(totalPages).toBeGreaterThan(1);
    const last = await inbox(`?filter=all&page=${totalPages}`);
    expect(last).toMatchObject({ query: { page: totalPages }, list: { page: totalPages } });
    expect(last.list.rows.length).toBeGreaterThan(0);
    expect(await inbox(`?filter=all&page=${totalPages + 7}`)).toEqual(last);
    for (const junk of ["99999999999999999999", "0", "-1", "abc", "1.5", ""]) {
      expect(await inbox(`?filter=all&page=${junk}`), junk).toEqual(first);
    }
  });

  it("lists newest first in pages of 10, reads one, and marks it handled and open again", async () => {
    const admin = await createTestUser("admin");
    const rows = [];
    for (let i = 1; i <= 12; i++) rows.push(await contact(`Paged request ${i}`));
    const newest = rows[rows.length - 1];

    const first = dataOf<Inbox>(await call(inboxLoader, makeRequest("/admin/support", { user: admin })));
    expect(first.list.rows).toHaveLength(10);
    expect(first.list.rows[0].subject).toBe("Paged request 12");
    const second = dataOf<Inbox>(
      await call(inboxLoader, makeRequest(`/admin/support?page=${first.list.totalPages}`, { user: admin })),
    );
    expect(second.list.rows.at(-1)!.id).toBeLessThan(first.list.rows.at(-1)!.id);

    const read = dataOf<Inbox>(await call(inboxLoader, makeRequest(`/admin/support?id=${newest.id}`, { user: admin })));
    expect(read.selected?.request).toMatchObject({ id: newest.id, status: "open", mailStatus: "not_configured" });

    const handled = await call(
      inboxAction,
      makeRequest(`/admin/support?id=${newest.id}`, { user: admin, form: { intent: "handle", id: String(newest.id) } }),
    );
    expect(locationOf(handled)).toBe(`/admin/support?id=${newest.id}`);
    const after = dataOf<Inbox>(
      await call(inboxLoader, makeRequest(`/admin/support?id=${newest.id}`, { user: admin })),
    );
    expect(after.selected).toMatchObject({
      request: { status: "handled", handledBy: admin.id },
      handledByName: admin.fullName,
    });
    expect(after.list.rows.map((r) => r.id)).not.toContain(newest.id);
    const handledList = dataOf<Inbox>(
      await call(inboxLoader, makeRequest("/admin/support?filter=handled", { user: admin })),
    );
    expect(handledList.list.rows.map((r) => r.id)).toContain(newest.id);

    await call(
      inboxAction,
      makeRequest("/admin/support?filter=handled", { user: admin, form: { intent: "reopen", id: String(newest.id) } }),
    );
    expect(await getDb().select().from(supportRequests).where(eq(supportRequests.id, newest.id)).get()).toMatchObject({
      status: "open",
      handledAt: null,
      handledBy: null,
    });
  });

  it("answers 404 for a request that does not exist, and 400 for a bad post", async () => {
    const admin = await createTestUser("admin");
    // A thrown data(null, { status: 404 }) renders NotFound.
    const thrown = (promise: Promise<unknown>) => promise.catch((error: unknown) => error);
    expect(statusOf(await thrown(call(inboxLoader, makeRequest("/admin/support?id=999999", { user: admin }))))).toBe(
      404,
    );
    expect(
      statusOf(
        await thrown(
          call(inboxAction, makeRequest("/admin/support", { user: admin, form: { intent: "handle", id: "999999" } })),
        ),
      ),
    ).toBe(404);
    expect(
      statusOf(
        await call(inboxAction, makeRequest("/admin/support", { user: admin, form: { intent: "delete", id: "1" } })),
      ),
    ).toBe(400);
  });
});
