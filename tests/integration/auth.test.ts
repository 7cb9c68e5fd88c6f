import { describe, expect, it } from "vitest";
import { action as loginAction } from "../../app/routes/auth/login.tsx";
import { action as logoutAction } from "../../app/routes/auth/logout.tsx";
import { action as registerAction } from "../../app/routes/auth/register.tsx";
import { loader as authorizationLoader } from "../../app/routes/auth/authorization.tsx";
import { getSessionUser } from "../../app/modules/auth/session.server.ts";
import { findUserByEmail } from "../../app/modules/auth/users.server.ts";
import { call, createTestUser, dataOf, locationOf, makeRequest, statusOf } from "../support/requests.ts";

type Reply = { error?: Record<string, string[] | null> };

describe("register", () => {
  it("creates a customer, whatever role is posted, and flashes the success toast", async () => {
    const result = await call(
      registerAction,
      makeRequest("/register", { form: { email: "New.User@Example.com", fullName: "New User", password: "long-enough", role: "admin" } }),
    );
    expect(locationOf(result)).toBe("/login");
    expect((result as Response).headers.get("Set-Cookie")).toContain("en_toast=");
    const user = findUserByEmail("new.user@example.com");
    expect(user?.role).toBe("customer");
    expect(user?.passwordHash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
  });

  it("refuses a duplicate email next to the field and changes nothing", async () => {
    const existing = await createTestUser();
    const result = await call(
      registerAction,
      makeRequest("/register", { form: { email: existing.email.toUpperCase(), fullName: "X", password: "long-enough" } }),
    );
    expect(statusOf(result)).toBe(400);
    expect(dataOf<Reply>(result).error?.email).toEqual(["An account with this email already exists."]);
    expect(findUserByEmail(existing.email)?.fullName).toBe(existing.fullName);
  });

  it("reports every bad field", async () => {
    const result = await call(registerAction, makeRequest("/register", { form: { email: "nope", fullName: "", password: "short" } }));
    expect(statusOf(result)).toBe(400);
    const errors = dataOf<Reply>(result).error!;
    expect(errors.email).toEqual(["Enter a valid email address"]);
    expect(errors.fullName).toEqual(["Full name is required"]);
    expect(errors.password).toEqual(["Password must be at least 8 characters"]);
  });
});

describe("login", () => {
  it("starts a server-side session and goes to the send screen", async () => {
    const user = await createTestUser();
    const result = (await call(loginAction, makeRequest("/login", { form: { email: user.email, password: user.password } }))) as Response;
    expect(result.headers.get("Location")).toBe("/sms/sendSms");
    const cookie = result.headers.get("Set-Cookie")!;
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    const signedIn = await getSessionUser(makeRequest("/", { user: { cookie: cookie.split(";")[0] } }));
    expect(signedIn?.id).toBe(user.id);
  });

  it("rotates the session id: the session the request came with ends", async () => {
    const user = await createTestUser();
    const result = (await call(loginAction, makeRequest("/login", { user, form: { email: user.email, password: user.password } }))) as Response;
    expect(await getSessionUser(makeRequest("/", { user }))).toBeNull();
    expect(result.headers.get("Set-Cookie")!.split(";")[0]).not.toBe(user.cookie);
  });

  it("only follows same-site redirects", async () => {
    const user = await createTestUser();
    const evil = await call(loginAction, makeRequest("/login", { form: { email: user.email, password: user.password, redirectTo: "//evil.example" } }));
    expect(locationOf(evil)).toBe("/sms/sendSms");
    const good = await call(loginAction, makeRequest("/login", { form: { email: user.email, password: user.password, redirectTo: "/order/myOrders" } }));
    expect(locationOf(good)).toBe("/order/myOrders");
  });

  it("gives the same answer for a wrong password and an unknown account", async () => {
    const user = await createTestUser();
    const wrong = await call(loginAction, makeRequest("/login", { form: { email: user.email, password: "wrong-password" } }, ));
    const unknown = await call(loginAction, makeRequest("/login", { form: { email: "nobody@example.com", password: "wrong-password" } }));
    expect(dataOf<Reply>(wrong).error?.[""]).toEqual(["Invalid email or password."]);
    expect(dataOf<Reply>(unknown).error?.[""]).toEqual(["Invalid email or password."]);
  });

  it("throttles an account after 5 failures, even with the right password, without a permanent lock", async () => {
    const user = await createTestUser();
    for (let i = 0; i < 5; i++) {
      await call(loginAction, makeRequest("/login", { ip: `10.0.0.${i}`, form: { email: user.email, password: "wrong-password" } }));
    }
    const blocked = await call(loginAction, makeRequest("/login", { ip: "10.0.1.1", form: { email: user.email, password: user.password } }));
    expect(dataOf<Reply>(blocked).error?.[""]?.[0]).toMatch(/^Too many failed login attempts\. Please try again in 15 minutes\.$/);
  });

  it("throttles an address that tries many accounts", async () => {
    for (let i = 0; i < 30; i++) {
      await call(loginAction, makeRequest("/login", { ip: "10.9.9.9", form: { email: `ghost${i}@example.com`, password: "x" } }));
    }
    const user = await createTestUser();
    const blocked = await call(loginAction, makeRequest("/login", { ip: "10.9.9.9", form: { email: user.email, password: user.password } }));
    expect(dataOf<Reply>(blocked).error?.[""]?.[0]).toMatch(/^Too many failed login attempts/);
    const elsewhere = await call(loginAction, makeRequest("/login", { ip: "10.9.9.10", form: { email: user.email, password: user.password } }));
    expect(locationOf(elsewhere)).toBe("/sms/sendSms");
  });
});

describe("logout and guards", () => {
  it("logout ends the session on the server", async () => {
    const user = await createTestUser();
    const result = await call(logoutAction, makeRequest("/logout", { method: "POST", user }));
    expect(locationOf(result)).toBe("/");
    expect(await getSessionUser(makeRequest("/", { user }))).toBeNull();
  });

  it("admin pages redirect visitors to login and customers to accessDenied", async () => {
    const visitor = await call(authorizationLoader, makeRequest("/authorization"));
    expect(locationOf(visitor)).toBe("/login?redirectTo=%2Fauthorization");
    const customer = await createTestUser("customer");
    expect(locationOf(await call(authorizationLoader, makeRequest("/authorization", { user: customer })))).toBe("/accessDenied");
    const admin = await createTestUser("admin");
    expect(await call(authorizationLoader, makeRequest("/authorization", { user: admin }))).toBeNull();
  });
});

describe("sign-up abuse", () => {
  it("limits accounts created per client address and says when to come back", async () => {
    const { env } = await import("../../app/utils/env.server.ts");
    const form = (i: number) => ({ email: `burst-${i}@example.com`, fullName: "Burst", password: "long-enough" });
    for (let i = 0; i < env.REGISTER_LIMIT_PER_HOUR; i++) {
      expect(locationOf(await call(registerAction, makeRequest("/register", { ip: "10.7.7.7", form: form(i) })))).toBe("/login");
    }
    const refused = await call(registerAction, makeRequest("/register", { ip: "10.7.7.7", form: form(999) }));
    expect(statusOf(refused)).toBe(429);
    expect(dataOf<Reply>(refused).error?.[""]?.[0]).toMatch(/^Too many accounts were created from your network\. Please try again in 60 minutes\.$/);
    expect(findUserByEmail("burst-999@example.com")).toBeUndefined();
    // Another address is not affected.
    expect(locationOf(await call(registerAction, makeRequest("/register", { ip: "10.7.7.8", form: form(1000) })))).toBe("/login");
  });
});
