// Accounts people manage themselves (issue 17): verification before sending, password change and
// reset, e-mail change, the low-balance alert. A real SMTP sink receives the mail through the mail
// queue; the links are read from what it received. Time moves through the injected clock.
import { desc, eq } from "drizzle-orm";
import { Secret, TOTP } from "otpauth";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb, withTx } from "#app/db/client.server.ts";
import { users } from "#app/db/schema/core.ts";
import { mailOutbox } from "#app/db/schema/mail.ts";
import { bookEntry } from "#app/modules/credits/ledger.server.ts";
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
import { listOwnApiKeys } from "#app/modules/api-keys/keys.server.ts";
import {
  finishEnrolment,
  isTwoFactorEnabled,
  pendingEnrolment,
  startEnrolment,
} from "#app/modules/auth/two-factor.server.ts";
import { LINK_REMOVED } from "#app/modules/mail/outbox.server.ts";
import { listOwnSenders, requestSender } from "#app/modules/senders/senders.server.ts";
import { createEndpoint, listEndpoints, revealCallbackSecret } from "#app/modules/webhooks/endpoints.server.ts";
import { action as twoFactorAction, loader as twoFactorLoader } from "#app/routes/account/two-factor.tsx";
import { action as tokenAction, loader as tokenLoader } from "#app/routes/sms/api-token.tsx";
import { action as sendersAction, loader as sendersLoader } from "#app/routes/sms/senders.tsx";
import { action as webhooksAction, loader as webhooksLoader } from "#app/routes/sms/webhooks.tsx";
import { resetClock, setClock } from "#app/utils/clock.server.ts";
import { startWorkers } from "#worker/workers.ts";
import { mail } from "#worker/jobs/mail.ts";
import { freePort } from "#server/free-port.ts";
import { sqlCount } from "#tests/support/database.ts";
import { callApi, startApiServer } from "#tests/support/api.ts";
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
// Endpoints on loopback, which nothing here delivers to.
process.env.WEBHOOK_ALLOW_PRIVATE = "1";

type Reply = { error?: Record<string, string[] | null> };

let now = Date.now();
setClock(() => now);

let sink: Awaited<ReturnType<typeof startSmtpSink>>;
let workers: Awaited<ReturnType<typeof startWorkers>>;
let api: Awaited<ReturnType<typeof startApiServer>>;
beforeAll(async () => {
  sink = await startSmtpSink(smtpPort);
  workers = await startWorkers([mail]);
  api = await startApiServer();
});
afterAll(async () => {
  await api.close();
  await workers.close();
  await sink.stop();
  resetClock();
});

/** A real request to the API server: the status an API key gets for listing messages. */
const keyStatus = async (key: string) =>
  (await fetch(`${api.url}/api/v1/messages`, { headers: { Authorization: `Bearer ${key}` } })).status;

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
  const user = (await findUserByEmail(email))!;
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
    await grantCredits(user.id, 10);
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
    await grantCredits(user.id, 5);
    expect(locationOf(await call(sendSmsAction, makeRequest("/sms/sendSms", { user, form: sendForm })))).toBe(
      "/sms/sendSms",
    );
  });
});

describe("before the address is verified (a sign-up with someone else's address)", () => {
  it("nothing acts for the account: no API key, webhook endpoint, two-factor or sender ID, by page or API", async () => {
    const user = await signUp();
    const page = async (loader: Parameters<typeof call>[0], path: string) =>
      dataOf<{ mustVerifyEmail: boolean }>(await call(loader, makeRequest(path, { user }))).mustVerifyEmail;
    const refusedWith = (result: unknown, words: string) => {
      expect(statusOf(result)).toBe(403);
      expect(JSON.stringify(dataOf(result))).toContain(`Please verify your e-mail address before ${words}`);
    };
    for (const [loader, path] of [
      [tokenLoader, "/sms/apiToken"],
      [webhooksLoader, "/sms/webhooks"],
      [twoFactorLoader, "/account/two-factor"],
      [sendersLoader, "/sms/senders"],
    ] as const)
      expect(await page(loader, path), path).toBe(true);

    const post = (action: Parameters<typeof call>[0], path: string, form: Record<string, string>) =>
      call(action, makeRequest(path, { user, form }));
    const newKey = { intent: "create", name: "Shop", scopes: "messages:send" };
    refusedWith(await post(tokenAction, "/sms/apiToken", newKey), "creating API keys");
    refusedWith(await post(tokenAction, "/sms/apiToken", { intent: "regenerate" }), "creating API keys");
    const hook = { intent: "add", url: "http://127.0.0.1:9/hook", events: "message.delivered", enabled: "on" };
    refusedWith(await post(webhooksAction, "/sms/webhooks", hook), "adding webhook endpoints");
    refusedWith(await post(webhooksAction, "/sms/webhooks", { intent: "rotate-callback" }), "adding webhook endpoints");
    refusedWith(await post(twoFactorAction, "/account/two-factor", { intent: "start" }), "turning on two-factor");
    refusedWith(
      await post(sendersAction, "/sms/senders", { intent: "request", address: "MyBrand" }),
      "requesting sender",
    );
    expect(await listOwnApiKeys(user.id)).toEqual([]);
    expect(await listEndpoints(user.id)).toEqual([]);
    expect(await revealCallbackSecret(user.id)).toBeNull();
    expect(await pendingEnrolment(user.id, user.email)).toBeNull();
    expect(await listOwnSenders(user.id)).toEqual([]);

    // A key from before this rule (made here behind the pages' backs) cannot add an endpoint either.
    const { key } = await regenerateApiKey(user.id);
    const viaApi = await callApi("POST", "/api/v1/webhooks", { key, json: { url: hook.url, events: [hook.events] } });
    expect(viaApi.status).toBe(403);
    expect(viaApi.json.error.code).toBe("email_unverified");
    expect(await listEndpoints(user.id)).toEqual([]);
  });

  it("a reset that is the first proof of the address revokes the intruder's keys, endpoints, sessions, two-factor and sender requests", async () => {
    // The intruder signs up with the owner's address; their key and endpoint were made before the
    // pages refused it (here behind the pages' backs), and the key is in use.
    const intruder = await signUp();
    const { key } = await regenerateApiKey(intruder.id);
    await createEndpoint(intruder.id, { url: "http://127.0.0.1:9/spy", events: ["message.received"], enabled: true });
    expect(await keyStatus(key)).toBe(200);
    // Their second factor would lock the owner out; their sender request would become the owner's sender.
    const { secret } = (await startEnrolment(intruder.id, intruder.email))!;
    expect(
      await finishEnrolment(intruder.id, new TOTP({ secret: Secret.fromBase32(secret) }).generate()),
    ).not.toBeNull();
    await requestSender(intruder.id, "SPYCO");

    // The owner asks for a reset and sets a password, without ticking anything.
    await call(forgotAction, makeRequest("/forgot-password", { form: { email: intruder.email }, ip: freshIp() }));
    const path = linkIn((await mailFor(intruder.email, /Reset your/)).text, "/reset-password/");
    const token = path.split("/").pop()!;
    expect(dataOf(await call(resetLoader, makeRequest(path), { token }))).toEqual({ refusal: null, firstProof: true });
    const form = { password: "the-owners-secret-9", confirmPassword: "the-owners-secret-9" };
    const done = await call(resetAction, makeRequest(path, { form }), { token });
    expect(locationOf(done)).toBe("/login");

    expect(await keyStatus(key)).toBe(401);
    expect(await listOwnApiKeys(intruder.id)).toEqual([]);
    expect(await listEndpoints(intruder.id)).toEqual([]);
    expect(await signedIn(intruder)).toBeNull();
    expect((await findUserByEmail(intruder.email))!.emailVerified).toBe(true);
    expect(await isTwoFactorEnabled(intruder.id)).toBe(false);
    expect(await listOwnSenders(intruder.id)).toEqual([]);
  });

  it("a verified account keeps its keys through a reset unless the box is ticked", async () => {
    const user = await createTestUser();
    const { key } = await regenerateApiKey(user.id);
    await createEndpoint(user.id, { url: "http://127.0.0.1:9/own", events: ["message.delivered"], enabled: true });
    const reset = async (form: Record<string, string>) => {
      const mails = () => sink.mails.filter((m) => m.envelope.to.includes(user.email));
      const before = mails().length;
      await call(forgotAction, makeRequest("/forgot-password", { form: { email: user.email }, ip: freshIp() }));
      const path = await waitFor(
        () => (mails().length > before ? linkIn(mails().at(-1)!.text, "/reset-password/") : undefined),
        {
          what: "a reset mail",
        },
      );
      const token = path.split("/").pop()!;
      expect(dataOf(await call(resetLoader, makeRequest(path), { token }))).toEqual({
        refusal: null,
        firstProof: false,
      });
      return call(resetAction, makeRequest(path, { form }), { token });
    };
    const password = { password: "kept-keys-secret-1", confirmPassword: "kept-keys-secret-1" };

    expect(locationOf(await reset(password))).toBe("/login");
    expect(await keyStatus(key)).toBe(200);
    expect(await listEndpoints(user.id)).toHaveLength(1);

    expect(locationOf(await reset({ ...password, revokeAccess: "on" }))).toBe("/login");
    expect(await keyStatus(key)).toBe(401);
    expect(await listEndpoints(user.id)).toEqual([]);
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

    const resetMail = await mailFor(user.email, /Reset your/);
    // The page can revoke every key and endpoint, and the mail says so.
    expect(resetMail.text).toContain("tick “Also revoke every API key and webhook endpoint of the account”");
    const path = linkIn(resetMail.text, "/reset-password/");
    const token = path.split("/").pop()!;
    // Once sent, the link is in the inbox only: the outbox (and so every backup) keeps the rest of the text.
    const stored = await waitFor(
      async () =>
        (await getDb().select().from(mailOutbox).where(eq(mailOutbox.userId, user.id)).all()).find(
          (m) => m.status === "sent",
        ),
      { what: "the reset mail marked sent" },
    );
    expect(stored.text).toContain(LINK_REMOVED);
    expect(JSON.stringify(await getDb().select().from(mailOutbox).all())).not.toContain(token);
    // The token is stored only as its hash.
    expect(await sqlCount("select count(*) as n from account_tokens where token_hash = ?", token)).toBe(0);

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
    const before = (await findUserByEmail(user.email))!.passwordHash;
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
      expect((await findUserByEmail(user.email))!.passwordHash).toBe(before);
      expect(await signedIn(user)).toBe(user.id);
    } finally {
      now = Date.now();
    }
  });

  it("is throttled per address asked about, and a new request never breaks a link already sent", async () => {
    const user = await createTestUser();
    const ask = () =>
      call(forgotAction, makeRequest("/forgot-password", { form: { email: user.email }, ip: freshIp() }));
    const resetMails = () => sink.mails.filter((m) => m.envelope.to.includes(user.email));
    expect(locationOf(await ask())).toBe("/login");
    const owners = linkIn((await mailFor(user.email, /Reset your/)).text, "/reset-password/");
    // Someone else asks for the same address, up to the limit and past it.
    for (let i = 0; i < 2; i++) expect(locationOf(await ask())).toBe("/login");
    const limited = await ask();
    expect(statusOf(limited)).toBe(429);
    expect(JSON.stringify(dataOf(limited))).toContain("the links we have already e-mailed it work for one hour each");
    await waitFor(() => resetMails().length === 3 || undefined, { what: "three reset mails" });
    const another = linkIn(resetMails()[2].text, "/reset-password/");

    // The owner's link still works; once used, the others stop working.
    const token = owners.split("/").pop()!;
    expect(statusOf(await call(resetLoader, makeRequest(owners), { token }))).toBe(200);
    const form = { password: "owner-secret-42", confirmPassword: "owner-secret-42" };
    expect(locationOf(await call(resetAction, makeRequest(owners, { form }), { token }))).toBe("/login");
    const stale = await call(resetLoader, makeRequest(another), { token: another.split("/").pop() });
    expect(statusOf(stale)).toBe(410);
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
    expect((await findUserByEmail(user.email))?.id).toBe(user.id);
    const notice = await mailFor(user.email, /being changed/);
    expect(notice.text).toContain(newEmail);
    const path = linkIn((await mailFor(newEmail, /Confirm your new e-mail/)).text, "/account/confirm-email/");
    const token = path.split("/").pop()!;

    const confirmed = await call(confirmEmailLoader, makeRequest(path, { user }), { token });
    expect(locationOf(confirmed)).toBe("/account/settings");
    expect((await findUserByEmail(newEmail))?.id).toBe(user.id);
    expect(await findUserByEmail(user.email)).toBeUndefined();
    const again = await call(confirmEmailLoader, makeRequest(path), { token });
    expect(statusOf(again)).toBe(410);
  });
});

describe("low-balance alert", () => {
  const alerts = async (userId: number) =>
    (
      await getDb().select().from(mailOutbox).where(eq(mailOutbox.userId, userId)).orderBy(desc(mailOutbox.id)).all()
    ).filter((m) => m.kind === "low_balance");
  let key = 0;
  const move = async (userId: number, amount: number) =>
    await withTx(
      async (tx) =>
        await bookEntry(tx, { userId, kind: amount > 0 ? "grant" : "debit", amount, key: `alert-test:${++key}` }),
    );

  it("is off by default: no mail however low the balance goes", async () => {
    const user = await createTestUser();
    await grantCredits(user.id, 5);
    await move(user.id, -5);
    expect(await alerts(user.id)).toHaveLength(0);
  });

  it("e-mails once per fall below the threshold, again only after the balance was back above it", async () => {
    const user = await createTestUser();
    await grantCredits(user.id, 100);
    await call(
      settingsAction,
      makeRequest("/account/settings", {
        user,
        form: { intent: "profile", fullName: user.fullName, timeZone: "UTC", lowBalanceThreshold: "20" },
      }),
    );

    await move(user.id, -70); // 30: above
    expect(await alerts(user.id)).toHaveLength(0);
    await move(user.id, -15); // 15: below, first crossing
    await move(user.id, -5); // 10: still below, no second mail
    expect(await alerts(user.id)).toHaveLength(1);
    expect((await alerts(user.id))[0].subject).toBe("Your SMS Gateway balance is low: 15 credits");

    await move(user.id, 50); // 60: above again, re-armed
    await move(user.id, -45); // 15: second crossing
    await move(user.id, -1);
    expect(await alerts(user.id)).toHaveLength(2);
    expect(
      await getDb().select({ alerted: users.lowBalanceAlerted }).from(users).where(eq(users.id, user.id)).get(),
    ).toEqual({ alerted: true });
    // Both went out through the mail server.
    await waitFor(() => sink.mails.filter((m) => m.envelope.to.includes(user.email)).length === 2 || undefined, {
      what: "two alert mails",
    });
  });
});
