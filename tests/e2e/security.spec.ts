import { expect, newAccount, test } from "./fixtures.ts";

test("pages carry the security headers and an enforced nonce-based CSP", async ({ request }) => {
  const response = await request.get("/");
  const headers = response.headers();
  expect(headers["content-security-policy"]).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]+'/);
  expect(headers["content-security-policy"]).toContain("frame-ancestors 'none'");
  // Stripe is not configured on this server: none of its origins are allowed.
  expect(headers["content-security-policy"]).not.toContain("stripe");
  expect(headers["content-security-policy"]).toContain("frame-src 'none'");
  expect(headers["x-content-type-options"]).toBe("nosniff");
  expect(headers["referrer-policy"]).toBe("strict-origin-when-cross-origin");
  expect(headers["strict-transport-security"]).toContain("max-age=");
});

test("a form post from another site is refused and changes nothing", async ({ request, baseURL }) => {
  const account = newAccount("cross-site");
  const form = { email: account.email, fullName: account.fullName, password: account.password };
  const refused = await request.post("/register", { form, headers: { Origin: "https://evil.example", "Sec-Fetch-Site": "cross-site" }, maxRedirects: 0 });
  expect(refused.status()).toBe(403);
  const resource = await request.post("/logout", { headers: { Origin: "https://evil.example" }, maxRedirects: 0 });
  expect(resource.status()).toBe(403);
  // The same post from our own origin goes through: the account did not exist before.
  const allowed = await request.post("/register", { form, headers: { Origin: baseURL!, "Sec-Fetch-Site": "same-origin" }, maxRedirects: 0 });
  expect(allowed.status()).toBe(302);
});
