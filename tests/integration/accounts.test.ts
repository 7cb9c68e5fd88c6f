// Accounts people manage themselves (issue 17): verification before sending, password change and
// reset, e-mail change, the low-balance alert. A real SMTP sink receives the mail through the mail
// queue; the links are read from what it received. Time moves through the injected clock.
import { desc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "#app/db/client.server.ts";
import { users } from "#app/db/schema/core.ts";
import { mailOutbox } from "#app/db/schema/mail.ts";
import { bookEntry } from "#app/modules/credits/ledger.server.ts";
import { inTransaction } from "#app/db/client.server.ts";
import { getSessionUser } from "#app/modules/auth/session.server.ts";
import { findUserByEmail } from "#app/modules/auth/users.server.ts";
import { action as changePasswordAction } from "#app/routes/account/password.tsx";
import { action as resendAction } from "#app/routes/account/resend-verification.tsx";
import { action as settingsAction, loader as settingsLoader } from "#app/routes/account/settings.tsx";
import { loader as confirmEmailLoader } from "#app/routes/account/confirm-email.tsx";
import { action as forgotAction } from "#app/routes/auth/forgot-password.tsx";
import { action as loginAction } from "#app/routes/auth/login.tsx";
import { action as registerAction } from "#app/routes/auth/register.tsx";
import { action as resetAction, loader as resetLoader } from "#app/routes/auth/reset-password.tsx";
import { loader as verifyLoader } from "#app/routes/auth/verify-email.tsx";
import { action as sendSmsAction, loader as sendSmsLoader } from "#app/routes/sms/send-sms.tsx";
import { loader as documentationLoader } from "#app/routes/sms/documentation.tsx";
import { action as scheduleAction } from "#app/routes/sms/schedule-sms.tsx";
import { regenerateApiKey } from "#app/api/auth.server.ts";
import { resetClock, setClock } from "#app/utils/clock.server.ts";
import { startWorkers } from "#worker/workers.ts";
import { mail } from "#worker/jobs/mail.ts";
import { freePort } from "#server/free-port.ts";
import { callApi } from "#tests/support/api.ts";
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
import { type ReceivedMail, startSmtpSink } from "#tests/support/smtp.ts";
import { waitFor } from "#tests/support/wait.ts";

// A mail server, so verification is required by default (REQUIRE_EMAIL_VERIFICATION unset).
const smtpPort = await freePort();
process.env.SMTP_URL = `smtp://127.0.0.1:${smtpPort}`;
process.env.APP_URL = "https://sms.example.test";
process.env.SUPPORT_MAIL_RETRY_MS = "20";
process.env.SUPPORT_MAIL_RETRY_MAX_MS = "200";

type Reply = { error?: Record<string, string[] | null> };

let now = Date.now();
setClock(() => now);

let sink: Awaited<ReturnType<typeof startSmtpSink>>;
let workers: Awaited<ReturnType<typeof startWorkers>>;
beforeAll(async () => {
  sink = await startSmtpSink(smtpPort);
  workers = await startWorkers([mail]);
});
afterAll(async () => {
  await workers.close();
  await sink.stop();
  resetClock();
});

let ipCounter = 0;
const freshIp = () => `198.51.100.${++ipCounter}`;
const unique = () => Math.random().toString(36).slice(2, 10);

/** The newest mail the sink received for `address` whose subject matches, once it has arrived. */
async function mailFor(address: string, subject: RegExp): Promise<ReceivedMail> {
  return waitFor(() => sink.mails.findLast((m) => m.envelope.to.includes(address) && subject.test(m.headers.subject)), {
    timeout: 20_000,
    what: `a mail to ${address} about ${subject}`,
  });
}

/** The path of the first link to this site in a mail. */
function linkIn(mailText: string, path: string): string {
  const match = new RegExp(`https://sms\\.example\\.test(${path}[A-Za-z0-9_-]+)`).exec(mailText);
  if (!match) throw new Error(`no ${path} link in:\n${mailText}`);
  return match[1];
}

const cookieOf = (response: unknown) => (response as Response).headers.get("Set-Cookie")!.split(";")[0];
const signedIn = async (user: { cookie: string }) => (await getSessionUser(makeRequest("/", { user })))?.id ?? null;

async function signUp(): Promise<TestUser> {
  const email = `new-${unique()}@example.com`;
  const password = `pw-${unique()}-secret`;
  const registered = await call(
    registerAction,
    makeRequest("/register", { form: { email, fullName: "New Person", password }, ip: freshIp() }),
  );
  expect(locationOf(registered)).toBe("/login");
  const login = await call(loginAction, makeRequest("/login", { form: { email, password }, ip: freshIp() }));
  expect(locationOf(login)).toBe("/sms/sendSms");
  const user = findUserByEmail(email)!;
  return {
    id: user.id,
    email,
    fullName: user.fullName,
    role: user.role,
    timeZone: user.timeZone,
    password,
    cookie: cookieOf(login),
  };
}

const sendForm = { phoneNumber: "+12025550123", message: "Hello from the test" };

describe("e-mail verification", () => {
  it("a new account signs in but sends nothing, by form or API, until it opens the link", async () => {
    const user = await signUp();
    grantCredits(user.id, 10);
    const { key } = await regenerateApiKey(user.id);

    expect(
      dataOf<{ mustVerifyEmail: boolean }>(await call(sendSmsLoader, makeRequest("/sms/sendSms", { user }))),
    ).toMatchObject({ mustVerifyEmail: true });
    // The Documentation screen has the same send form, and says the same.
    expect(
      dataOf<{ mustVerifyEmail: boolean }>(
        await call(documentationLoader, makeRequest("/sms/documentation", { user })),
      ),
    ).toMatchObject({ mustVerifyEmail: true });
    const refused = await call(sendSmsAction, makeRequest("/sms/sendSms", { user, form: sendForm }));
    expect(statusOf(refused)).toBe(403);
    expect(JSON.stringify(dataOf(refused))).toContain("verify your e-mail address");
    const scheduleForm = { ...sendForm, firstSend: "2030-01-15T09:00", repeat: "none", timeZone: "UTC" };
    const scheduled = await call(scheduleAction, makeRequest("/sms/scheduleSms", { user, form: scheduleForm }));
    expect(statusOf(scheduled)).toBe(403);
    const api = await callApi("POST", "/api/v1/messages", { key, json: { to: "+12025550123", body: "Hi" } });
    expect(api.status).toBe(403);
    expect(api.json.error.code).toBe("email_unverified");

    // A resend replaces the first link: only the newest works.
    const first = linkIn((await mailFor(user.email, /Verify your e-mail/)).text, "/verify-email/");
    const resent = await call(
      resendAction,
      makeRequest("/account/verify-email", { user, form: { redirectTo: "/sms/sendSms" } }),
    );
    expect(locationOf(resent)).toBe("/sms/sendSms");
    const second = await waitFor(
      () => {
        const link = linkIn(sink.mails.findLast((m) => m.envelope.to.includes(user.email))!.text, "/verify-email/");
        return link !== first ? link : undefined;
      },
      { what: "the second verification mail" },
    );
    const stale = await call(verifyLoader, makeRequest(first, { user }), { token: first.split("/").pop() });
    expect(statusOf(stale)).toBe(410);
    expect(JSON.stringify(dataOf(stale))).toContain("already been used");

    const verified = await call(verifyLoader, makeRequest(second, { user }), { token: second.split("/").pop() });
    expect(locationOf(verified)).toBe("/sms/sendSms");
    expect(locationOf(await call(sendSmsAction, makeRequest("/sms/sendSms", { user, form: sendForm })))).toBe(
      "/sms/sendSms",
    );
    const sent = await callApi("POST", "/api/v1/messages", { key, json: { to: "+12025550123", body: "Hi" } });
    expect(sent.status).toBe(201);
  });

  it("accounts made before verification existed (and by admins or the seed) send at once", async () => {
    const user = await createTestUser();
    grantCredits(user.id, 5);
    expect(locationOf(await call(sendSmsAction, makeRequest("/sms/sendSms", { user, form: sendForm })))).toBe(
      "/sms/sendSms",
    );
  });
});

describe("password reset", () => {
  it("answers the same for an unknown address, and e-mails a known one a single-use link", async () => {
    const unknown = await call(
      forgotAction,
      makeRequest("/forgot-password", { form: { email: `nobody-${unique()}@example.com` }, ip: freshIp() }),
    );
    const user = await createTestUser();
    const other = await createTestUser();
    const known = await call(
      forgotAction,
      makeRequest("/forgot-password", { form: { email: user.email }, ip: freshIp() }),
    );
    expect(locationOf(unknown)).toBe("/login");
    expect(locationOf(known)).toBe("/login");
    expect((unknown as Response).headers.get("Set-Cookie")).toBeTruthy();

    const path = linkIn((await mailFor(user.email, /Reset your/)).text, "/reset-password/");
    const token = path.split("/").pop()!;
    // The token is stored only as its hash.
    expect(JSON.stringify(getDb().select().from(mailOutbox).all())).toContain(token);
    expect(getDb().$client.prepare("select count(*) as n from account_tokens where token_hash = ?").get(token)).toEqual(
      { n: 0 },
    );

    expect(await signedIn(user)).toBe(user.id);
    const mismatch = await call(
      resetAction,
      makeRequest(path, { form: { password: "new-secret-42", confirmPassword: "other" } }),
      { token },
    );
    expect(statusOf(mismatch)).toBe(400);
    expect(await signedIn(user)).toBe(user.id);

    const done = await call(
      resetAction,
      makeRequest(path, { form: { password: "new-secret-42", confirmPassword: "new-secret-42" } }),
      { token },
    );
    expect(locationOf(done)).toBe("/login");
    // Every session of the account ended; another account's did not.
    expect(await signedIn(user)).toBeNull();
    expect(await signedIn(other)).toBe(other.id);
    const login = await call(
      loginAction,
      makeRequest("/login", { form: { email: user.email, password: "new-secret-42" }, ip: freshIp() }),
    );
    expect(locationOf(login)).toBe("/sms/sendSms");

    // Used once: refused, and the password stays the one it set.
    const again = await call(
      resetAction,
      makeRequest(path, { form: { password: "third-secret-42", confirmPassword: "third-secret-42" } }),
      { token },
    );
    expect(statusOf(again)).toBe(410);
    expect(JSON.stringify(dataOf(again))).toContain("already been used");
  });

  it("a link opened after one hour has expired and changes nothing", async () => {
    const user = await createTestUser();
    await call(forgotAction, makeRequest("/forgot-password", { form: { email: user.email }, ip: freshIp() }));
    const path = linkIn((await mailFor(user.email, /Reset your/)).text, "/reset-password/");
    const token = path.split("/").pop()!;
    const before = findUserByEmail(user.email)!.passwordHash;
    now += 60 * 60 * 1000 + 1;
    try {
      const page = await call(resetLoader, makeRequest(path), { token });
      expect(statusOf(page)).toBe(410);
      expect(JSON.stringify(dataOf(page))).toContain("expired");
      const post = await call(
        resetAction,
        makeRequest(path, { form: { password: "new-secret-42", confirmPassword: "new-secret-42" } }),
        { token },
      );
      expect(statusOf(post)).toBe(410);
      expect(findUserByEmail(user.email)!.passwordHash).toBe(before);
      expect(await signedIn(user)).toBe(user.id);
    } finally {
      now = Date.now();
    }
  });

  it("is throttled per address asked about", async () => {
    const user = await createTestUser();
    const ask = () =>
      call(forgotAction, makeRequest("/forgot-password", { form: { email: user.email }, ip: freshIp() }));
    for (let i = 0; i < 3; i++) expect(locationOf(await ask())).toBe("/login");
    const limited = await ask();
    expect(statusOf(limited)).toBe(429);
    expect(JSON.stringify(dataOf(limited))).toContain("Too many reset requests");
  });
});

describe("password change", () => {
  it("needs the current password; then every other session ends and this one goes on", async () => {
    const user = await createTestUser();
    const otherBrowser = {
      cookie: cookieOf(
        await call(
          loginAction,
          makeRequest("/login", { form: { email: user.email, password: user.password }, ip: freshIp() }),
        ),
      ),
    };
    const form = {
      currentPassword: "wrong-password",
      newPassword: "brand-new-secret-7",
      confirmPassword: "brand-new-secret-7",
    };

    const wrong = await call(changePasswordAction, makeRequest("/account/password", { user, form }));
    expect(statusOf(wrong)).toBe(400);
    expect(dataOf<Reply>(wrong).error!.currentPassword).toEqual(["That is not your current password."]);
    expect(await signedIn(otherBrowser)).toBe(user.id);

    const changed = await call(
      changePasswordAction,
      makeRequest("/account/password", { user, form: { ...form, currentPassword: user.password } }),
    );
    expect(locationOf(changed)).toBe("/account/settings");
    expect(await signedIn(otherBrowser)).toBeNull();
    expect(await signedIn(user)).toBeNull();
    expect(await signedIn({ cookie: cookieOf(changed) })).toBe(user.id);
  });

  it("stops checking after five wrong passwords", async () => {
    const user = await createTestUser();
    const form = {
      currentPassword: "wrong-password",
      newPassword: "brand-new-secret-7",
      confirmPassword: "brand-new-secret-7",
    };
    for (let i = 0; i < 5; i++)
      expect(statusOf(await call(changePasswordAction, makeRequest("/account/password", { user, form })))).toBe(400);
    const limited = await call(
      changePasswordAction,
      makeRequest("/account/password", { user, form: { ...form, currentPassword: user.password } }),
    );
    expect(statusOf(limited)).toBe(429);
    expect(JSON.stringify(dataOf(limited))).toContain("Too many wrong passwords");
  });
});

describe("settings and e-mail change", () => {
  it("saves the name, zone and threshold, and refuses a zone not on the list", async () => {
    const user = await createTestUser();
    const saved = await call(
      settingsAction,
      makeRequest("/account/settings", {
        user,
        form: { intent: "profile", fullName: "Grace Hopper", timeZone: "Europe/Berlin", lowBalanceThreshold: "50" },
      }),
    );
    expect(locationOf(saved)).toBe("/account/settings");
    const bad = await call(
      settingsAction,
      makeRequest("/account/settings", {
        user,
        form: { intent: "profile", fullName: "X", timeZone: "Mars/Olympus", lowBalanceThreshold: "" },
      }),
    );
    expect(statusOf(bad)).toBe(400);
    expect(dataOf<Reply>(bad).error!.timeZone).toEqual(["Choose a time zone from the list"]);
    const { settings } = dataOf<{ settings: Record<string, unknown> }>(
      await call(settingsLoader, makeRequest("/account/settings", { user })),
    );
    expect(settings).toMatchObject({ fullName: "Grace Hopper", timeZone: "Europe/Berlin", lowBalanceThreshold: 50 });
  });

  it("changes the address only when the new one opens its link; the old one is told", async () => {
    const user = await createTestUser();
    const taken = await createTestUser();
    const newEmail = `moved-${unique()}@example.com`;
    const post = (form: Record<string, string>) =>
      call(settingsAction, makeRequest("/account/settings", { user, form: { intent: "email", ...form } }));

    const wrongPassword = await post({ newEmail, currentPassword: "nope" });
    expect(dataOf<Reply>(wrongPassword).error!.currentPassword).toEqual(["That is not your current password."]);
    const takenReply = await post({ newEmail: taken.email, currentPassword: user.password });
    expect(dataOf<Reply>(takenReply).error!.newEmail).toEqual(["An account with this email already exists."]);

    expect(locationOf(await post({ newEmail, currentPassword: user.password }))).toBe("/account/settings");
    expect(findUserByEmail(user.email)?.id).toBe(user.id);
    const notice = await mailFor(user.email, /being changed/);
    expect(notice.text).toContain(newEmail);
    const path = linkIn((await mailFor(newEmail, /Confirm your new e-mail/)).text, "/account/confirm-email/");
    const token = path.split("/").pop()!;

    const confirmed = await call(confirmEmailLoader, makeRequest(path, { user }), { token });
    expect(locationOf(confirmed)).toBe("/account/settings");
    expect(findUserByEmail(newEmail)?.id).toBe(user.id);
    expect(findUserByEmail(user.email)).toBeUndefined();
    const again = await call(confirmEmailLoader, makeRequest(path), { token });
    expect(statusOf(again)).toBe(410);
  });
});

describe("low-balance alert", () => {
  const alerts = (userId: number) =>
    getDb()
      .select()
      .from(mailOutbox)
      .where(eq(mailOutbox.userId, userId))
      .orderBy(desc(mailOutbox.id))
      .all()
      .filter((m) => m.kind === "low_balance");
  let key = 0;
  const move = (userId: number, amount: number) =>
    inTransaction((tx) =>
      bookEntry(tx, { userId, kind: amount > 0 ? "grant" : "debit", amount, key: `alert-test:${++key}` }),
    );

  it("is off by default: no mail however low the balance goes", async () => {
    const user = await createTestUser();
    grantCredits(user.id, 5);
    move(user.id, -5);
    expect(alerts(user.id)).toHaveLength(0);
  });

  it("e-mails once per fall below the threshold, again only after the balance was back above it", async () => {
    const user = await createTestUser();
    grantCredits(user.id, 100);
    await call(
      settingsAction,
      makeRequest("/account/settings", {
        user,
        form: { intent: "profile", fullName: user.fullName, timeZone: "UTC", lowBalanceThreshold: "20" },
      }),
    );

    move(user.id, -70); // 30: above
    expect(alerts(user.id)).toHaveLength(0);
    move(user.id, -15); // 15: below, first crossing
    move(user.id, -5); // 10: still below, no second mail
    expect(alerts(user.id)).toHaveLength(1);
    expect(alerts(user.id)[0].subject).toBe("Your SMS Gateway balance is low: 15 credits");

    move(user.id, 50); // 60: above again, re-armed
    move(user.id, -45); // 15: second crossing
    move(user.id, -1);
    expect(alerts(user.id)).toHaveLength(2);
    expect(getDb().select({ alerted: users.lowBalanceAlerted }).from(users).where(eq(users.id, user.id)).get()).toEqual(
      { alerted: true },
    );
    // Both went out through the mail server.
    await waitFor(() => sink.mails.filter((m) => m.envelope.to.includes(user.email)).length === 2 || undefined, {
      what: "two alert mails",
    });
  });
});
