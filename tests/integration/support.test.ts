import { readdirSync, readFileSync } from "node:fs";
import { and, eq, gt, ne } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { getDb, getSqlite } from "#app/db/client.server.ts";
import { mailOutbox } from "#app/db/schema/mail.ts";
import { supportRequests } from "#app/db/schema/support.ts";
import { deliverMail, reconcileMail } from "#app/modules/mail/outbox.server.ts";
import { composeSupportMail } from "#app/modules/support/mail.server.ts";
import { MAIL_QUEUE } from "#app/queue/jobs/mail.server.ts";
import { getQueue } from "#app/queue/queues.server.ts";
import { action as contactAction } from "#app/routes/content/contact.tsx";
import { action as supportAction, loader as supportLoader } from "#app/routes/content/support.tsx";
import { startWorkers } from "#worker/workers.ts";
import { mail as mailJob } from "#worker/jobs/mail.ts";
import { freePort } from "#server/free-port.ts";
import { startSmtpSink } from "#tests/support/smtp.ts";
import { call, createTestUser, dataOf, locationOf, makeRequest, statusOf } from "#tests/support/requests.ts";
import { waitFor } from "#tests/support/wait.ts";
import { describeOnSqlite } from "#tests/support/engines.ts";

// The mail server's address must be known before the app reads its configuration: the tests
// start the sink on this port when they want a mail server.
const smtp = { port: await freePort() };
process.env.SMTP_URL = `smtp://127.0.0.1:${smtp.port}`;
process.env.SUPPORT_EMAIL = "helpdesk@example.com";
process.env.MAIL_FROM = "SMS Gateway <gateway@example.com>";
// Retries in milliseconds instead of minutes, so the queue's real retry path runs quickly.
process.env.SUPPORT_MAIL_RETRY_MS = "20";
process.env.SUPPORT_MAIL_RETRY_MAX_MS = "200";

type Reply = { error?: Record<string, string[] | null> };

const rowsFrom = async (email: string) =>
  await getDb().select().from(supportRequests).where(eq(supportRequests.email, email)).all();
const rowById = async (id: number) =>
  (await getDb().select().from(supportRequests).where(eq(supportRequests.id, id)).get())!;
/** The request's e-mail in the mail outbox. */
const mailOf = async (id: number) =>
  (await getDb().select().from(mailOutbox).where(eq(mailOutbox.supportRequestId, id)).get())!;
const jobOf = async (id: number) => getQueue(MAIL_QUEUE).getJob(`mail-${(await mailOf(id)).id}`);

let ipCounter = 0;
/** Each test posts from its own address, so the per-address limit only bites where a test wants it. */
const freshIp = () => `203.0.113.${++ipCounter}`;

function contactForm(overrides: Record<string, string> = {}) {
  const id = Math.random().toString(36).slice(2, 8);
  return {
    name: "Ada Lovelace",
    email: `ada-${id}@example.com`,
    subject: `Question about pricing ${id}`,
    message: "Hello,\nhow many credits does a 300-character message use?\nThanks!",
    ...overrides,
  };
}

async function postContact(form: Record<string, string>, ip = freshIp()) {
  return call(contactAction, makeRequest("/sms/contact", { form, ip }));
}

describe("bad input changes nothing", () => {
  it("reports each missing or bad field next to it and saves nothing", async () => {
    const before = (await getDb().select().from(supportRequests).all()).length;
    const result = await postContact({ name: " ", email: "not-an-email", subject: "", message: "" });
    expect(statusOf(result)).toBe(400);
    const errors = dataOf<Reply>(result).error!;
    expect(errors.name).toEqual(["Name is required"]);
    expect(errors.email).toEqual(["Enter a valid email address"]);
    expect(errors.subject).toEqual(["Subject is required"]);
    expect(errors.message).toEqual(["Message is required"]);
    expect(await getDb().select().from(supportRequests).all()).toHaveLength(before);
  });

  it("refuses an over-long message on the support form", async () => {
    const user = await createTestUser();
    const result = await call(
      supportAction,
      makeRequest("/sms/support", { user, ip: freshIp(), form: { subject: "Hi", message: "x".repeat(5001) } }),
    );
    expect(statusOf(result)).toBe(400);
    expect(dataOf<Reply>(result).error?.message).toEqual(["Message must be 5,000 characters or fewer"]);
    expect(await getDb().select().from(supportRequests).where(eq(supportRequests.userId, user.id)).all()).toHaveLength(
      0,
    );
  });

  it("drops a submission whose honeypot is filled, answering like a success", async () => {
    const form = contactForm({ website: "http://spam.example" });
    const result = await postContact(form);
    expect(locationOf(result)).toBe("/sms/contact");
    expect(await rowsFrom(form.email)).toHaveLength(0);
  });
});

describe("abuse limits", () => {
  it("allows 10 requests an hour from one address, then says clearly to wait", async () => {
    const ip = freshIp();
    for (let i = 0; i < 10; i++) expect(locationOf(await postContact(contactForm(), ip))).toBe("/sms/contact");
    const form = contactForm();
    const refused = await postContact(form, ip);
    expect(statusOf(refused)).toBe(429);
    expect(dataOf<Reply>(refused).error?.[""]).toEqual([
      "Failed to send support request",
      "You have sent too many messages. Please try again in 60 minutes.",
    ]);
    expect(await rowsFrom(form.email)).toHaveLength(0);
    // Another address is not affected.
    expect(locationOf(await postContact(contactForm()))).toBe("/sms/contact");
  });

  it("limits the support form per account too, whatever the address", async () => {
    const user = await createTestUser();
    const post = () =>
      call(
        supportAction,
        makeRequest("/sms/support", { user, ip: freshIp(), form: { subject: "Help", message: "Please" } }),
      );
    for (let i = 0; i < 5; i++) expect(locationOf(await post())).toBe("/sms/support");
    const refused = await post();
    expect(statusOf(refused)).toBe(429);
    expect(dataOf<Reply>(refused).error?.[""]?.[0]).toBe("Failed to send support request");
    expect(await getDb().select().from(supportRequests).where(eq(supportRequests.userId, user.id)).all()).toHaveLength(
      5,
    );
  });
});

describe("saved first, then e-mailed by the queue", () => {
  let workers: Awaited<ReturnType<typeof startWorkers>>;
  let sink: Awaited<ReturnType<typeof startSmtpSink>> | undefined;

  beforeAll(async () => {
    workers = await startWorkers([mailJob]);
  });
  afterAll(async () => {
    await workers.close();
    await sink?.stop();
  });

  it("the public contact form's mail arrives with the right fields", async () => {
    sink = await startSmtpSink(smtp.port);
    const form = contactForm({ name: "Zoë O'Brien" });
    const result = await postContact(form);
    expect(locationOf(result)).toBe("/sms/contact");
    expect((result as Response).headers.get("Set-Cookie")).toContain("en_toast=");

    const [row] = await rowsFrom(form.email);
    expect(row).toMatchObject({
      source: "contact",
      name: "Zoë O'Brien",
      subject: form.subject,
      message: form.message,
      userId: null,
      status: "open",
    });
    const mail = await waitFor(() => sink!.mails.find((m) => m.headers.subject?.includes(form.subject)), {
      timeout: 10_000,
    });
    expect(mail.envelope).toEqual({ from: "gateway@example.com", to: ["helpdesk@example.com"] });
    expect(mail.headers.from).toBe("SMS Gateway <gateway@example.com>");
    expect(mail.headers.to).toBe("helpdesk@example.com");
    expect(mail.headers["reply-to"]).toContain(`<${form.email}>`);
    expect(mail.headers["reply-to"]).toContain("Zoë O'Brien");
    expect(mail.headers.subject).toBe(`[Contact #${row.id}] ${form.subject}`);
    expect(mail.headers["message-id"]).toBe(`<support-request-${row.id}.${row.createdAt.getTime()}@example.com>`);
    expect(mail.text).toContain(`From: Zoë O'Brien <${form.email}>`);
    expect(mail.text).toContain(form.message);

    const sent = await waitFor(
      async () => {
        const r = await rowById(row.id);
        return r.mailStatus === "sent" ? r : null;
      },
      { timeout: 10_000 },
    );
    expect(sent.mailAttempts).toBe(1);
    expect(sent.mailMessageId).toBe(mail.headers["message-id"]);
    expect(sent.mailSentAt).toBeInstanceOf(Date);
    expect(await mailOf(row.id)).toMatchObject({
      kind: "support",
      status: "sent",
      to: "helpdesk@example.com",
      attempts: 1,
    });
  });

  it("the support form takes name and e-mail from the session, not from the form", async () => {
    sink ??= await startSmtpSink(smtp.port);
    const user = await createTestUser();
    const subject = `Cannot find my API key ${user.id}`;
    const result = await call(
      supportAction,
      makeRequest("/sms/support", {
        user,
        ip: freshIp(),
        form: { subject, message: "Where is it?", name: "Mallory", email: "mallory@evil.example" },
      }),
    );
    expect(locationOf(result)).toBe("/sms/support");
    const [row] = await getDb().select().from(supportRequests).where(eq(supportRequests.userId, user.id)).all();
    expect(row).toMatchObject({ source: "support", name: user.fullName, email: user.email, subject });
    const mail = await waitFor(() => sink!.mails.find((m) => m.headers.subject === `[Support #${row.id}] ${subject}`), {
      timeout: 10_000,
    });
    expect(mail.headers["reply-to"]).toContain(`<${user.email}>`);
    expect(mail.text).toContain(`Account: user #${user.id}`);
    expect(mail.text).not.toContain("mallory");

    const page = dataOf<{ recent: { subject: string }[] }>(
      await call(supportLoader, makeRequest("/sms/support", { user })),
    );
    expect(page.recent.map((r) => r.subject)).toEqual([subject]);
  });

  it("with the mail server down the request is kept, and delivered once it is back", async () => {
    await sink?.stop();
    sink = undefined;
    const form = contactForm();
    expect(locationOf(await postContact(form))).toBe("/sms/contact");
    const [row] = await rowsFrom(form.email);

    // The worker keeps trying: attempts grow and the connection error is recorded.
    const failing = await waitFor(
      async () => {
        const r = await rowById(row.id);
        return r.mailAttempts >= 3 ? r : null;
      },
      { timeout: 10_000 },
    );
    expect(failing.mailStatus).toBe("pending");
    expect(failing.mailLastError).toMatch(/ECONNREFUSED|connect/i);
    expect(await jobOf(row.id)).toBeTruthy();

    // A server that is back but busy (451) at first is retried too.
    sink = await startSmtpSink(smtp.port, { rejectFirst: 1 });
    const mail = await waitFor(() => sink!.mails.find((m) => m.headers.subject?.endsWith(form.subject)), {
      timeout: 10_000,
    });
    expect(mail.headers["reply-to"]).toContain(form.email);
    const sent = await waitFor(
      async () => {
        const r = await rowById(row.id);
        return r.mailStatus === "sent" ? r : null;
      },
      { timeout: 10_000 },
    );
    expect(sent.mailLastError).toBeNull();
    expect(sink.mails.filter((m) => m.headers.subject?.endsWith(form.subject))).toHaveLength(1);
  });
});

describe("a job lost from Redis does not lose the mail", () => {
  it("the reconciler re-enqueues every saved request whose mail has not gone out", async () => {
    const form = contactForm();
    expect(locationOf(await postContact(form))).toBe("/sms/contact");
    const [row] = await rowsFrom(form.email);
    const job = await jobOf(row.id);
    expect(job).toBeTruthy();

    await job!.remove(); // as if Redis had lost it
    expect(await jobOf(row.id)).toBeUndefined();
    const { enqueued } = await reconcileMail();
    expect(enqueued).toBeGreaterThanOrEqual(1);
    expect(await jobOf(row.id)).toBeTruthy();
    // Enqueuing again while the job waits changes nothing.
    await reconcileMail();
    const mailJobId = `mail-${(await mailOf(row.id)).id}`;
    expect(await getQueue(MAIL_QUEUE).getJobs(["waiting", "delayed", "prioritized"])).toSatisfy(
      (jobs: { id?: string }[]) => jobs.filter((j) => j.id === mailJobId).length === 1,
    );

    // The job's own step, run directly: the mail goes out once and the row says so.
    const sink = await startSmtpSink(smtp.port);
    try {
      expect(await deliverMail((await mailOf(row.id)).id)).toBe("sent");
      expect(await deliverMail((await mailOf(row.id)).id)).toBe("nothing_to_do");
      expect(sink.mails.filter((m) => m.headers.subject?.endsWith(form.subject))).toHaveLength(1);
      expect((await rowById(row.id)).mailStatus).toBe("sent");
    } finally {
      await sink.stop();
    }
  });
});

// A SQLite migration's hand-written statement: PostgreSQL's migrations start from a baseline after it.
describeOnSqlite("upgrading from the support-mail queue", () => {
  it("moves each request whose e-mail had not gone out into the outbox, composed as before", async () => {
    const pending = await getDb()
      .insert(supportRequests)
      .values({
        source: "support",
        userId: (await createTestUser()).id,
        name: "Zoë O'Brien",
        email: "zoe-upgrade@example.com",
        subject: "Saved before the upgrade",
        message: "Line one\nline two",
        mailStatus: "pending",
        mailAttempts: 2,
        mailLastError: "Connection refused",
        createdAt: new Date("2026-03-04T05:06:59.789Z"),
      })
      .returning()
      .get();
    const sent = await getDb()
      .insert(supportRequests)
      .values({ ...contactForm(), source: "contact", userId: null, mailStatus: "sent" })
      .returning()
      .get();
    const lastBefore = Math.max(
      0,
      ...(await getDb().select({ id: mailOutbox.id }).from(mailOutbox).all()).map((m) => m.id),
    );

    // The migration's own hand-written statement, run on rows written as the old code wrote them.
    const file = readdirSync("drizzle").find((name) => name.endsWith("_support_mail_in_outbox.sql"))!;
    const [upgrade] = readFileSync(`drizzle/${file}`, "utf8")
      .split("--> statement-breakpoint")
      .filter((sql) => sql.includes("INSERT INTO `mail_outbox`"));
    getSqlite().exec(upgrade);
    expect(await getDb().select().from(mailOutbox).where(eq(mailOutbox.supportRequestId, sent.id)).all()).toHaveLength(
      0,
    );
    // Only this test's request counts here: the others of this file had their mail before it ran.
    await getDb()
      .delete(mailOutbox)
      .where(and(gt(mailOutbox.id, lastBefore), ne(mailOutbox.supportRequestId, pending.id)))
      .run();

    const moved = await mailOf(pending.id);
    const composed = composeSupportMail(pending);
    expect(moved).toMatchObject({
      kind: "support",
      status: "pending",
      subject: composed.subject,
      text: composed.text,
      replyToName: "Zoë O'Brien",
      replyToAddress: "zoe-upgrade@example.com",
      attempts: 2,
      lastError: "Connection refused",
      createdAt: pending.createdAt,
    });

    // Sent by the outbox with the headers the old queue used, and the request shows it.
    const sink = await startSmtpSink(smtp.port);
    try {
      expect(await deliverMail(moved.id)).toBe("sent");
      const mail = sink.mails.find(
        (m) => m.headers.subject === "[Support #" + pending.id + "] Saved before the upgrade",
      )!;
      expect(mail.envelope.to).toEqual(["helpdesk@example.com"]);
      expect(mail.headers["reply-to"]).toContain("<zoe-upgrade@example.com>");
      expect(mail.headers["message-id"]).toBe(
        `<support-request-${pending.id}.${pending.createdAt.getTime()}@example.com>`,
      );
      expect(mail.text).toContain("Received: 2026-03-04 05:06 UTC");
      expect(await rowById(pending.id)).toMatchObject({ mailStatus: "sent", mailAttempts: 3, mailLastError: null });
    } finally {
      await sink.stop();
    }
  });
});
