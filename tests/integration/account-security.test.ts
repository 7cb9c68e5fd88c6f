// Issue 17, account security: two-factor (TOTP and recovery codes), sessions, recent sign-in and
// several scoped API keys, through the route modules and the API core.
import { API_SCOPES } from "#app/modules/api-keys/scopes.ts";
import { afterEach, describe, expect, it } from "vitest";
import { Secret, TOTP } from "otpauth";
import { listOwnApiKeys } from "#app/modules/api-keys/keys.server.ts";
import { createEndpoint, getCallbackSecret } from "#app/modules/webhooks/endpoints.server.ts";
import { loader as webhookLoader } from "#app/routes/sms/webhook-deliveries.tsx";
import { loader as webhooksLoader } from "#app/routes/sms/webhooks.tsx";
import { getSessionUser } from "#app/modules/auth/session.server.ts";
import { checkSecondFactor, pendingEnrolment } from "#app/modules/auth/two-factor.server.ts";
import { action as tokenAction, loader as tokenLoader } from "#app/routes/sms/api-token.tsx";
import { action as confirmAction, loader as confirmLoader } from "#app/routes/account/confirm-password.tsx";
import { action as sessionsAction, loader as sessionsLoader } from "#app/routes/account/sessions.tsx";
import { action as twoFactorAction, loader as twoFactorLoader } from "#app/routes/account/two-factor.tsx";
import { action as loginAction } from "#app/routes/auth/login.tsx";
import { action as secondStepAction } from "#app/routes/auth/login-two-factor.tsx";
import { loader as sendSmsLoader } from "#app/routes/sms/send-sms.tsx";
import { clock, resetClock, setClock } from "#app/utils/clock.server.ts";
import { apiCustomer, callApi, startApiServer } from "#tests/support/api.ts";
import {
  BASE,
  call,
  createTestUser,
  dataOf,
  locationOf,
  makeRequest,
  statusOf,
  type TestUser,
} from "#tests/support/requests.ts";
import { grantCredits } from "#tests/support/sms.ts";

// Read at the first getEnv(), after the imports.
process.env.ADMIN_REQUIRE_2FA = "1";

afterEach(() => resetClock());

const MINUTE = 60_000;
const codeAt = (secret: string, timestamp = clock.now()) =>
  new TOTP({ secret: Secret.fromBase32(secret.replace(/\s/g, "")) }).generate({ timestamp });
const setCookieOf = (result: unknown) => (result as Response).headers.get("Set-Cookie") ?? "";

/** Starts and finishes enrolment through the page; the secret and the ten recovery codes. */
async function enrol(user: TestUser) {
  await call(twoFactorAction, makeRequest("/account/two-factor", { user, form: { intent: "start" } }));
  const page = dataOf<{ enrolment: { secret: string; qrSvg: string } }>(
    await call(twoFactorLoader, makeRequest("/account/two-factor", { user })),
  );
  expect(page.enrolment.qrSvg).toMatch(/^<svg/);
  const secret = page.enrolment.secret.replace(/\s/g, "");
  const wrong = await call(
    twoFactorAction,
    makeRequest("/account/two-factor", { user, form: { intent: "confirm", code: "000000" } }),
  );
  expect(statusOf(wrong)).toBe(400);
  const done = await call(
    twoFactorAction,
    makeRequest("/account/two-factor", { user, form: { intent: "confirm", code: codeAt(secret) } }),
  );
  const { recoveryCodes } = dataOf<{ recoveryCodes: string[] }>(done);
  expect(recoveryCodes).toHaveLength(10);
  return { secret, recoveryCodes };
}

/** The password step of the login; the second-step cookie it sets. */
async function passwordStep(user: TestUser, ip = "10.1.2.3") {
  const result = await call(
    loginAction,
    makeRequest("/login", { form: { email: user.email, password: user.password, redirectTo: "/sms/sendSms" }, ip }),
  );
  expect(locationOf(result)).toBe(`/login/two-factor?redirectTo=${encodeURIComponent("/sms/sendSms")}`);
  return setCookieOf(result).split(";")[0];
}

async function secondStep(cookie: string, code: string) {
  return call(
    secondStepAction,
    makeRequest("/login/two-factor", { form: { code, redirectTo: "/sms/sendSms" }, headers: { Cookie: cookie } }),
  );
}

describe("two-factor authentication", () => {
  it("enrols by code, then signs in with a code, with a recovery code once, and refuses it again", async () => {
    const user = await createTestUser();
    const { secret, recoveryCodes } = await enrol(user);
    expect(await pendingEnrolment(user.id, user.email)).toBeNull();

    const pending = await passwordStep(user);
    // The password alone made no session.
    expect(await getSessionUser(new Request(BASE, { headers: { Cookie: pending } }))).toBeNull();
    const wrong = await secondStep(pending, "123456");
    expect(statusOf(wrong)).toBe(400);
    expect(JSON.stringify(dataOf(wrong))).toContain("That code is not right");

    // Stopped: the second try below must fall in the same 30 s step as this one, on a busy machine too.
    const later = Date.now() + MINUTE;
    setClock(() => later);
    const signedIn = await secondStep(pending, codeAt(secret));
    expect(locationOf(signedIn)).toBe("/sms/sendSms");
    expect(setCookieOf(signedIn)).toMatch(/session=/);
    // The same code is used up: not a second sign-in with it.
    expect(statusOf(await secondStep(await passwordStep(user), codeAt(secret)))).toBe(400);

    const withRecovery = await secondStep(await passwordStep(user), recoveryCodes[3].toUpperCase());
    expect(locationOf(withRecovery)).toBe("/sms/sendSms");
    const again = await secondStep(await passwordStep(user), recoveryCodes[3]);
    expect(statusOf(again)).toBe(400);
    expect(JSON.stringify(dataOf(again))).toContain("That recovery code has been used already");
    expect(await checkSecondFactor(user.id, recoveryCodes[4])).toBe("ok");
  });

  it("throttles wrong codes per account: the sixth in 15 minutes is a 429 even if right", async () => {
    const user = await createTestUser();
    const { secret } = await enrol(user);
    const pending = await passwordStep(user, "10.9.9.9");
    for (let i = 0; i < 5; i++) expect(statusOf(await secondStep(pending, "000000"))).toBe(400);
    setClock(() => Date.now() + MINUTE);
    expect(statusOf(await secondStep(pending, codeAt(secret)))).toBe(429);
  });

  it("turning it off needs a recent sign-in", async () => {
    const user = await createTestUser();
    await enrol(user);
    setClock(() => Date.now() + 11 * MINUTE);
    const off = await call(twoFactorAction, makeRequest("/account/two-factor", { user, form: { intent: "disable" } }));
    expect(locationOf(off)).toBe("/account/confirm-password?returnTo=%2Faccount%2Ftwo-factor");
    const confirmed = await call(
      confirmAction,
      makeRequest("/account/confirm-password", {
        user,
        form: { password: user.password, returnTo: "/account/two-factor" },
      }),
    );
    expect(locationOf(confirmed)).toBe("/account/two-factor");
    await call(twoFactorAction, makeRequest("/account/two-factor", { user, form: { intent: "disable" } }));
    const page = dataOf<{ status: { enabled: boolean } }>(
      await call(twoFactorLoader, makeRequest("/account/two-factor", { user })),
    );
    expect(page.status.enabled).toBe(false);
  });

  it("turning it on needs a recent sign-in: starting, and finishing an enrolment left open", async () => {
    const user = await createTestUser();
    const confirmFirst = "/account/confirm-password?returnTo=%2Faccount%2Ftwo-factor";
    await call(twoFactorAction, makeRequest("/account/two-factor", { user, form: { intent: "start" } }));
    const { secret } = (await pendingEnrolment(user.id, user.email))!;
    setClock(() => Date.now() + 11 * MINUTE);
    const finish = await call(
      twoFactorAction,
      makeRequest("/account/two-factor", { user, form: { intent: "confirm", code: codeAt(secret) } }),
    );
    expect(locationOf(finish)).toBe(confirmFirst);
    const start = await call(twoFactorAction, makeRequest("/account/two-factor", { user, form: { intent: "start" } }));
    expect(locationOf(start)).toBe(confirmFirst);
    expect((await pendingEnrolment(user.id, user.email))?.secret).toBe(secret);
    const page = dataOf<{ status: { enabled: boolean } }>(
      await call(twoFactorLoader, makeRequest("/account/two-factor", { user })),
    );
    expect(page.status.enabled).toBe(false);
  });

  it("ADMIN_REQUIRE_2FA sends an admin without it to the two-factor page first", async () => {
    const admin = await createTestUser("admin");
    expect(locationOf(await call(sendSmsLoader, makeRequest("/sms/sendSms", { user: admin })))).toBe(
      "/account/two-factor",
    );
    expect(statusOf(await call(twoFactorLoader, makeRequest("/account/two-factor", { user: admin })))).toBe(200);
    // Enrolling needs a recent sign-in, so the confirm page stays open to such an admin.
    const confirmPage = "/account/confirm-password?returnTo=%2Faccount%2Ftwo-factor";
    expect(statusOf(await call(confirmLoader, makeRequest(confirmPage, { user: admin })))).toBe(200);
    await enrol(admin);
    expect(statusOf(await call(sendSmsLoader, makeRequest("/sms/sendSms", { user: admin })))).toBe(200);
    const customer = await createTestUser();
    expect(statusOf(await call(sendSmsLoader, makeRequest("/sms/sendSms", { user: customer })))).toBe(200);
  });
});

type SessionsPage = { sessions: { handle: string; current: boolean; browser: string }[] };

describe("sessions", () => {
  it("lists the account's sessions, ends one (that browser is signed out) and all others", async () => {
    const user = await createTestUser();
    const other = { ...user, cookie: (await loginAgain(user)).split(";")[0] };
    const third = { ...user, cookie: (await loginAgain(user)).split(";")[0] };
    const page = dataOf<SessionsPage>(await call(sessionsLoader, makeRequest("/account/sessions", { user })));
    expect(page.sessions).toHaveLength(3);
    expect(page.sessions[0].current).toBe(true);
    expect(page.sessions.some((s) => s.browser === "Firefox on Linux")).toBe(true);

    const otherHandle = dataOf<SessionsPage>(
      await call(sessionsLoader, makeRequest("/account/sessions", { user: other })),
    ).sessions[0].handle;
    await call(
      sessionsAction,
      makeRequest("/account/sessions", { user, form: { intent: "end", session: otherHandle } }),
    );
    expect(locationOf(await call(sendSmsLoader, makeRequest("/sms/sendSms", { user: other })))).toMatch(/^\/login/);
    expect(statusOf(await call(sendSmsLoader, makeRequest("/sms/sendSms", { user: third })))).toBe(200);

    await call(sessionsAction, makeRequest("/account/sessions", { user, form: { intent: "end-others" } }));
    expect(locationOf(await call(sendSmsLoader, makeRequest("/sms/sendSms", { user: third })))).toMatch(/^\/login/);
    expect(statusOf(await call(sendSmsLoader, makeRequest("/sms/sendSms", { user })))).toBe(200);
  });
});

async function loginAgain(user: TestUser) {
  const result = await call(
    loginAction,
    makeRequest("/login", {
      form: { email: user.email, password: user.password },
      headers: { "User-Agent": "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0" },
      ip: "10.3.3.3",
    }),
  );
  return setCookieOf(result);
}

describe("several API keys with scopes", () => {
  it("a read-only key reads but gets 403 insufficient_scope when sending, over real HTTP", async () => {
    const user = await createTestUser();
    await grantCredits(user.id, 5);
    const made = await call(
      tokenAction,
      makeRequest("/sms/apiToken", { user, form: { intent: "create", name: "Reports", scopes: ["messages:read"] } }),
    );
    expect(statusOf(made)).toBe(302);
    const [readOnly] = await listOwnApiKeys(user.id);
    expect(readOnly).toMatchObject({ name: "Reports", scopes: ["messages:read"] });
    const server = await startApiServer();
    try {
      const headers = { Authorization: `Bearer ${readOnly.key}`, "Content-Type": "application/json" };
      expect((await fetch(`${server.url}/api/v1/balance`, { headers })).status).toBe(200);
      const send = await fetch(`${server.url}/api/v1/messages`, {
        method: "POST",
        headers,
        body: JSON.stringify({ to: "+12025550123", body: "hi" }),
      });
      expect(send.status).toBe(403);
      expect(((await send.json()) as { error: { code: string } }).error.code).toBe("insufficient_scope");
      const contacts = await fetch(`${server.url}/api/v1/contacts`, { headers });
      expect(contacts.status).toBe(403);
    } finally {
      await server.close();
    }
  });

  it("a key made without choosing scopes has every scope; a key is revoked at once", async () => {
    const customer = await apiCustomer(2);
    expect((await callApi("GET", "/api/v1/contacts", { key: customer.key })).status).toBe(200);
    const [key] = await listOwnApiKeys(customer.id);
    expect(key.scopes).toEqual([...API_SCOPES]);
    const revoked = await call(
      tokenAction,
      makeRequest("/sms/apiToken", { user: customer, form: { intent: "revoke", keyId: String(key.id) } }),
    );
    expect(statusOf(revoked)).toBe(302);
    expect((await callApi("GET", "/api/v1/balance", { key: customer.key })).status).toBe(401);
  });

  it("a webhooks:manage key cannot point message events (their bodies) anywhere without messages:read", async () => {
    const user = await createTestUser();
    const makeKey = async (name: string, scopes: string[]) => {
      await call(tokenAction, makeRequest("/sms/apiToken", { user, form: { intent: "create", name, scopes } }));
      return (await listOwnApiKeys(user.id)).find((k) => k.name === name)!.key!;
    };
    const hooksOnly = await makeKey("Hooks", ["webhooks:manage"]);
    const hooksAndRead = await makeKey("Hooks and reading", ["webhooks:manage", "messages:read"]);
    const { endpoint: owners } = await createEndpoint(user.id, {
      url: "http://203.0.113.10/owner",
      events: ["message.received"],
      enabled: true,
    });
    const url = "http://203.0.113.20/elsewhere";
    const refusals = [
      await callApi("POST", "/api/v1/webhooks", { key: hooksOnly, json: { url, events: ["message.received"] } }),
      await callApi("PATCH", `/api/v1/webhooks/${owners.id}`, { key: hooksOnly, json: { url } }),
    ];
    for (const refused of refusals) {
      expect(refused.status).toBe(403);
      expect(refused.json.error).toMatchObject({ code: "insufficient_scope" });
      expect(refused.json.error.message).toContain("messages:read");
    }
    const balanceOnly = await callApi("POST", "/api/v1/webhooks", {
      key: hooksOnly,
      json: { url, events: ["balance.low"] },
    });
    expect(balanceOnly.status).toBe(201);
    const widened = await callApi("PATCH", `/api/v1/webhooks/${balanceOnly.json.id}`, {
      key: hooksOnly,
      json: { events: ["balance.low", "message.sent"] },
    });
    expect(widened.status).toBe(403);
    expect((await callApi("GET", `/api/v1/webhooks/${owners.id}`, { key: hooksOnly })).json.url).toBe(
      "http://203.0.113.10/owner",
    );
    const allowed = await callApi("PATCH", `/api/v1/webhooks/${owners.id}`, { key: hooksAndRead, json: { url } });
    expect(allowed.status).toBe(200);
  });

  it("a bad new key says what is wrong and makes nothing", async () => {
    const user = await createTestUser();
    const bad = await call(tokenAction, makeRequest("/sms/apiToken", { user, form: { intent: "create", name: "" } }));
    expect(statusOf(bad)).toBe(400);
    expect(JSON.stringify(dataOf(bad))).toContain("Choose at least one thing this key may do.");
    expect(await listOwnApiKeys(user.id)).toEqual([]);
  });

  it("showing or creating a key needs a sign-in in the last 10 minutes, else the password (throttled)", async () => {
    const customer = await apiCustomer();
    const [key] = await listOwnApiKeys(customer.id);
    expect(statusOf(await call(tokenLoader, makeRequest(`/sms/apiToken?show=${key.id}`, { user: customer })))).toBe(
      200,
    );
    setClock(() => Date.now() + 10 * MINUTE + 1000);
    const shown = await call(tokenLoader, makeRequest(`/sms/apiToken?show=${key.id}`, { user: customer }));
    const confirmPath = `/account/confirm-password?returnTo=${encodeURIComponent(`/sms/apiToken?show=${key.id}`)}`;
    expect(locationOf(shown)).toBe(confirmPath);
    const create = await call(
      tokenAction,
      makeRequest("/sms/apiToken", { user: customer, form: { intent: "create", name: "x", scopes: "messages:send" } }),
    );
    expect(locationOf(create)).toBe("/account/confirm-password?returnTo=%2Fsms%2FapiToken");
    expect(await listOwnApiKeys(customer.id)).toHaveLength(1);

    const form = { password: "not it", returnTo: `/sms/apiToken?show=${key.id}` };
    const wrong = await call(confirmAction, makeRequest(confirmPath, { user: customer, form }));
    expect(statusOf(wrong)).toBe(400);
    expect(JSON.stringify(dataOf(wrong))).toContain("That is not your password.");
    const right = await call(
      confirmAction,
      makeRequest(confirmPath, { user: customer, form: { ...form, password: customer.password } }),
    );
    expect(locationOf(right)).toBe(`/sms/apiToken?show=${key.id}`);
    expect(statusOf(await call(tokenLoader, makeRequest(`/sms/apiToken?show=${key.id}`, { user: customer })))).toBe(
      200,
    );

    for (let i = 0; i < 5; i++) await call(confirmAction, makeRequest(confirmPath, { user: customer, form }));
    const throttled = await call(
      confirmAction,
      makeRequest(confirmPath, { user: customer, form: { ...form, password: customer.password } }),
    );
    expect(statusOf(throttled)).toBe(429);
  });
});

describe("webhook signing secrets", () => {
  it("showing one again needs a sign-in in the last 10 minutes, as showing an API key does", async () => {
    const user = await createTestUser();
    const { endpoint, secret } = await createEndpoint(user.id, {
      url: "http://203.0.113.10/hook",
      events: ["message.delivered"],
      enabled: true,
    });
    const callbackSecret = await getCallbackSecret(user.id);
    const endpointPage = `/sms/webhooks/${endpoint.id}?secret=show`;
    const showEndpoint = () => call(webhookLoader, makeRequest(endpointPage, { user }), { id: String(endpoint.id) });
    const showCallback = () => call(webhooksLoader, makeRequest("/sms/webhooks?callback=show", { user }));
    expect(dataOf<{ secret: string }>(await showEndpoint()).secret).toBe(secret);
    expect(dataOf<{ callbackSecret: string }>(await showCallback()).callbackSecret).toBe(callbackSecret);

    setClock(() => Date.now() + 11 * MINUTE);
    expect(locationOf(await showEndpoint())).toBe(
      `/account/confirm-password?returnTo=${encodeURIComponent(endpointPage)}`,
    );
    expect(locationOf(await showCallback())).toBe(
      `/account/confirm-password?returnTo=${encodeURIComponent("/sms/webhooks?callback=show")}`,
    );
    // The page without the secret stays open to the session.
    const plain = await call(webhookLoader, makeRequest(`/sms/webhooks/${endpoint.id}`, { user }), {
      id: String(endpoint.id),
    });
    expect(dataOf<{ secret: string | null }>(plain).secret).toBeNull();
  });
});
