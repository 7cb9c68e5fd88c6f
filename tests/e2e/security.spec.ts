import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import routes from "#app/routes.ts";
import { grantCredits } from "#tests/e2e/credits.ts";
import { accountFingerprint, rowsWithEmail } from "#tests/e2e/database.ts";
import { expect, newAccount, signUpAndLogin, test } from "#tests/e2e/fixtures.ts";

/** One of each kind of answer: pages, an article, a 404, a redirect to login, a resource route, the API's JSON, the health check. */
const RESPONSES = [
  { path: "/", status: 200, page: true },
  { path: "/login", status: 200, page: true },
  { path: "/sms/blog", status: 200, page: true },
  { path: "/blog/hiring-smarter", status: 200, page: true },
  { path: "/no/such/page", status: 404, page: true },
  { path: "/setup/unknown-token", status: 404, page: true },
  { path: "/sms/sendSms", status: 302, page: false },
  { path: "/sitemap.xml", status: 200, page: false },
  { path: "/api/v1/openapi.json", status: 200, page: false, api: true },
  { path: "/healthz", status: 200, page: false, api: true },
];
const API_CSP = "default-src 'none'; frame-ancestors 'none'";

test("every kind of answer carries the security headers, and pages an enforced nonce-based CSP", async ({
  request,
}) => {
  for (const { path, status, page, api } of RESPONSES) {
    const response = await request.get(path, { maxRedirects: 0 });
    expect(response.status(), path).toBe(status);
    const headers = response.headers();
    expect(headers["x-content-type-options"], path).toBe("nosniff");
    expect(headers["referrer-policy"], path).toBe("strict-origin-when-cross-origin");
    // The e2e server runs in production mode, which sends HSTS.
    expect(headers["strict-transport-security"], path).toContain("max-age=");
    expect(headers["x-frame-options"], path).toBe("DENY");
    // A rendered page has its nonce-based CSP; the server's own JSON answers one that allows
    // nothing. The redirect and the sitemap have none; X-Frame-Options keeps them out of frames.
    if (api) expect(headers["content-security-policy"], path).toBe(API_CSP);
    if (!page) continue;
    const csp = headers["content-security-policy"];
    expect(csp, path).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]+'/);
    expect(csp, path).toContain("frame-ancestors 'none'");
    // Stripe is not configured on this server: none of its origins are allowed.
    expect(csp, path).not.toContain("stripe");
    expect(csp, path).toContain("frame-src 'none'");
  }
  const visitor = await request.get("/sms/sendSms", { maxRedirects: 0 });
  expect(visitor.headers().location).toBe("/login?redirectTo=%2Fsms%2FsendSms");
});

test("every script on a page carries that answer's nonce, a new one each time", async ({ request }) => {
  const nonceOf = (csp: string | undefined) => /'nonce-([A-Za-z0-9+/=]+)'/.exec(csp ?? "")?.[1];
  // The home page goes out as plain HTML with one script; the login page runs React.
  for (const path of ["/", "/login"]) {
    const response = await request.get(path);
    const nonce = nonceOf(response.headers()["content-security-policy"]);
    expect(nonce, path).toBeTruthy();
    const scripts = (await response.text()).match(/<script\b[^>]*>/g) ?? [];
    expect(scripts.length, path).toBeGreaterThan(0);
    for (const tag of scripts) expect(/\snonce="([^"]*)"/.exec(tag)?.[1], tag).toBe(nonce);
    const again = await request.get(path);
    expect(nonceOf(again.headers()["content-security-policy"]), path).not.toBe(nonce);
  }
});

test("a form post from another site is refused and changes nothing", async ({ request, baseURL }) => {
  const account = newAccount("cross-site");
  const form = { email: account.email, fullName: account.fullName, password: account.password };
  const refused = await request.post("/register", {
    form,
    headers: { Origin: "https://evil.example", "Sec-Fetch-Site": "cross-site" },
    maxRedirects: 0,
  });
  expect(refused.status()).toBe(403);
  expect(refused.headers()["x-frame-options"]).toBe("DENY");
  expect(refused.headers()["content-security-policy"]).toBe(API_CSP);
  const resource = await request.post("/logout", { headers: { Origin: "https://evil.example" }, maxRedirects: 0 });
  expect(resource.status()).toBe(403);
  // The same post from our own origin goes through: the account did not exist before.
  const allowed = await request.post("/register", {
    form,
    headers: { Origin: baseURL!, "Sec-Fetch-Site": "same-origin" },
    maxRedirects: 0,
  });
  expect(allowed.status()).toBe(302);
});

/** Every route module with an action, from the app's route table (as security-fuzz.test.ts finds them), with a path that reaches it. */
const ACTION_ROUTES = routes
  .filter((r) =>
    /export (async )?function action\b|export const action\b/.test(readFileSync(resolve("app", r.file), "utf8")),
  )
  .map((r) => ({
    file: r.file,
    path: r.index ? "/" : `/${(r.path ?? "").replace(/:\w+\??/g, "1").replace("*", "no/such/page")}`,
  }));

test("a post from another site to any route with an action is refused and changes nothing for the signed-in victim", async ({
  page,
  baseURL,
}) => {
  expect(ACTION_ROUTES.length).toBeGreaterThan(20);
  // The victim is signed in, in this browser, with credits to spend; the attacker's forms would spend them.
  const victim = await signUpAndLogin(page, "victim");
  await grantCredits(victim.email, 10);
  const stranger = newAccount("stranger");
  const planted = { subject: `Planted ${stranger.email}`, message: "Posted by another site" };
  // What each form would do if it got through; routes not named here get a bare post.
  const forms: Record<string, Record<string, string>> = {
    "routes/auth/register.tsx": { email: stranger.email, fullName: stranger.fullName, password: stranger.password },
    "routes/auth/login.tsx": { email: victim.email, password: victim.password },
    "routes/auth/setup.tsx": {
      email: stranger.email,
      fullName: stranger.fullName,
      password: stranger.password,
      confirmPassword: stranger.password,
    },
    "routes/sms/send-sms.tsx": { intent: "send", phoneNumber: "+12025550123", message: planted.message },
    "routes/sms/documentation.tsx": { intent: "send", phoneNumber: "+12025550123", message: planted.message },
    "routes/sms/create-contact.tsx": { name: "Planted", phoneNumber: "+12025550124", email: "planted@example.com" },
    "routes/sms/create-group.tsx": { groupName: "Planted", description: planted.message },
    "routes/sms/api-token.tsx": { intent: "regenerate" },
    "routes/account/sessions.tsx": { intent: "end-others" },
    "routes/account/two-factor.tsx": { intent: "disable" },
    "routes/content/support.tsx": planted,
    "routes/content/contact.tsx": { name: stranger.fullName, email: stranger.email, ...planted },
  };
  const before = await accountFingerprint(victim.email);

  // The Stripe webhook included: Stripe's servers send neither header (tests/unit/same-origin.test.ts).
  for (const { file, path } of ACTION_ROUTES) {
    for (const headers of [{ Origin: "https://evil.example" }, { "Sec-Fetch-Site": "cross-site" }] as Record<
      string,
      string
    >[]) {
      const what = `POST ${path} (${file}) with ${JSON.stringify(headers)}`;
      const response = await page.request.post(path, {
        form: forms[file] ?? { intent: "x" },
        headers,
        maxRedirects: 0,
      });
      expect(response.status(), what).toBe(403);
      expect(await response.text(), what).toBe("Cross-site request refused.");
    }
  }
  expect(await accountFingerprint(victim.email)).toBe(before);
  expect(await rowsWithEmail(stranger.email)).toEqual({ users: 0, supportRequests: 0 });

  // The check can see a change: the same kind of post from the site itself is taken.
  const own = await page.request.post("/sms/createGroup", {
    form: forms["routes/sms/create-group.tsx"],
    headers: { Origin: baseURL!, "Sec-Fetch-Site": "same-origin" },
    maxRedirects: 0,
  });
  expect(own.status()).toBe(302);
  expect(await accountFingerprint(victim.email)).not.toBe(before);

  // Still signed in (the logout was refused), the balance untouched.
  await page.goto("/sms/sendSms");
  await expect(page).toHaveURL(/\/sms\/sendSms$/);
  await expect(page.getByTestId("balance")).toHaveText("Account balance: 10 credits");
});
