import { afterEach, describe, expect, it } from "vitest";
import { withTx } from "#app/db/client.server.ts";
import { resetPassword } from "#app/modules/accounts/password-reset.server.ts";
import { issueLink } from "#app/modules/accounts/tokens.server.ts";
import { action as loginAction } from "#app/routes/auth/login.tsx";
import { action as logoutAction } from "#app/routes/auth/logout.tsx";
import { action as registerAction } from "#app/routes/auth/register.tsx";
import { loader as authorizationLoader } from "#app/routes/auth/authorization.tsx";
import { LOGIN_LIMITS } from "#app/modules/auth/login.server.ts";
import { purgeExpired } from "#app/modules/housekeeping/housekeeping.server.ts";
import { getSessionUser } from "#app/modules/auth/session.server.ts";
import { findUserByEmail } from "#app/modules/auth/users.server.ts";
import { resetClock, setClock } from "#app/utils/clock.server.ts";
import { getEnv } from "#app/utils/env.server.ts";
import { peek, reset } from "#app/utils/rate-limit.server.ts";
import { call, createTestUser, dataOf, locationOf, makeRequest, statusOf } from "#tests/support/requests.ts";

type Reply = { error?: Record<string, string[] | null> };

describe("register", () => {
  it("creates a customer, whatever role is posted, and flashes the success toast", async () => {
    const result = await call(
      registerAction,
      makeRequest("/register", {
        form: { email: "New.User@Example.com", fullName: "New User", password: "long-enough", role: "admin" },
      }),
    );
    expect(locationOf(result)).toBe("/login");
    expect((result as Response).headers.get("Set-Cookie")).toContain("en_toast=");
    const user = await findUserByEmail("new.user@example.com");
    expect(user?.role).toBe("customer");
    expect(user?.passwordHash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
  });

  it("refuses a duplicate email next to the field and changes nothing", async () => {
    const existing = await createTestUser();
    const result = await call(
      registerAction,
      makeRequest("/register", {
        form: { email: existing.email.toUpperCase(), fullName: "X", password: "long-enough" },
      }),
    );
    expect(statusOf(result)).toBe(400);
    expect(dataOf<Reply>(result).error?.email).toEqual(["An account with this email already exists."]);
    expect((await findUserByEmail(existing.email))?.fullName).toBe(existing.fullName);
  });

  it("refuses a password among the 10,000 most common, whatever its case, next to the field, and creates nothing", async () => {
    for (const password of ["password1", "Qwertyuiop", "ILOVEYOU", "sunshine", "12345678"]) {
      const email = `common-${password.toLowerCase()}@example.com`;
      const result = await call(
        registerAction,
        makeRequest("/register", { ip: "10.6.6.6", form: { email, fullName: "Common", password } }),
      );
      expect(statusOf(result)).toBe(400);
      expect(dataOf<Reply>(result).error?.password).toEqual([
        "This password is too common: it is among the 10,000 most used passwords. Please choose another one.",
      ]);
      expect(await findUserByEmail(email)).toBeUndefined();
    }
    const fine = await call(
      registerAction,
      makeRequest("/register", {
        ip: "10.6.6.6",
        form: { email: "uncommon@example.com", fullName: "Rare", password: "violet-anchor-93" },
      }),
    );
    expect(locationOf(fine)).toBe("/login");
  });

  it("reports every bad field", async () => {
    const result = await call(
      registerAction,
      makeRequest("/register", { form: { email: "nope", fullName: "", password: "short" } }),
    );
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
    const result = (await call(
      loginAction,
      makeRequest("/login", { form: { email: user.email, password: user.password } }),
    )) as Response;
    expect(result.headers.get("Location")).toBe("/sms/sendSms");
    const cookie = result.headers.get("Set-Cookie")!;
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    const signedIn = await getSessionUser(makeRequest("/", { user: { cookie: cookie.split(";")[0] } }));
    expect(signedIn?.id).toBe(user.id);
  });

  it("rotates the session id: the session the request came with ends", async () => {
    const user = await createTestUser();
    const result = (await call(
      loginAction,
      makeRequest("/login", { user, form: { email: user.email, password: user.password } }),
    )) as Response;
    expect(await getSessionUser(makeRequest("/", { user }))).toBeNull();
    expect(result.headers.get("Set-Cookie")!.split(";")[0]).not.toBe(user.cookie);
  });

  it("only follows same-site redirects", async () => {
    const user = await createTestUser();
    const evil = await call(
      loginAction,
      makeRequest("/login", { form: { email: user.email, password: user.password, redirectTo: "//evil.example" } }),
    );
    expect(locationOf(evil)).toBe("/sms/sendSms");
    const good = await call(
      loginAction,
      makeRequest("/login", { form: { email: user.email, password: user.password, redirectTo: "/order/myOrders" } }),
    );
    expect(locationOf(good)).toBe("/order/myOrders");
  });

  it("gives the same answer for a wrong password and an unknown account", async () => {
    const user = await createTestUser();
    const wrong = await call(
      loginAction,
      makeRequest("/login", { form: { email: user.email, password: "wrong-password" } }),
    );
    const unknown = await call(
      loginAction,
      makeRequest("/login", { form: { email: "nobody@example.com", password: "wrong-password" } }),
    );
    expect(dataOf<Reply>(wrong).error?.[""]).toEqual(["Invalid email or password."]);
    expect(dataOf<Reply>(unknown).error?.[""]).toEqual(["Invalid email or password."]);
  });

  it("counts 100 parallel wrong passwords from one address 100 times: at most 5 are checked, the owner elsewhere signs in", async () => {
    const user = await createTestUser();
    const attacker = "10.1.1.1";
    const results = await Promise.all(
      Array.from({ length: 100 }, () =>
        call(
          loginAction,
          makeRequest("/login", { ip: attacker, form: { email: user.email, password: "wrong-password" } }),
        ),
      ),
    );
    const messages = results.map((result) => dataOf<Reply>(result).error?.[""]?.[0]);
    const checked = messages.filter((message) => message === "Invalid email or password.");
    const refused = results.filter(
      (result, i) => statusOf(result) === 429 && /^Too many failed login attempts\./.test(messages[i]!),
    );
    expect(checked.length).toBeGreaterThan(0);
    expect(checked.length).toBeLessThanOrEqual(LOGIN_LIMITS.pair.limit);
    expect(checked.length + refused.length).toBe(100);
    expect((await peek(LOGIN_LIMITS.address, attacker)).count).toBe(100);
    expect(
      (
        (results.find((result) => statusOf(result) === 429) as { init: ResponseInit }).init.headers as Record<
          string,
          string
        >
      )["Retry-After"],
    ).toMatch(/^\d+$/);

    // The right password from the attacker's address waits too; the owner's own address does not.
    const blocked = await call(
      loginAction,
      makeRequest("/login", { ip: attacker, form: { email: user.email, password: user.password } }),
    );
    expect(statusOf(blocked)).toBe(429);
    const owner = await call(
      loginAction,
      makeRequest("/login", { ip: "10.1.1.2", form: { email: user.email, password: user.password } }),
    );
    expect(locationOf(owner)).toBe("/sms/sendSms");

    // Once the waits are over (the pair's, and the address's across accounts), the right password works from there too.
    await reset(LOGIN_LIMITS.pair, `${user.email}|${attacker}`);
    await reset(LOGIN_LIMITS.address, attacker);
    const later = await call(
      loginAction,
      makeRequest("/login", { ip: "10.1.1.1", form: { email: user.email, password: user.password } }),
    );
    expect(locationOf(later)).toBe("/sms/sendSms");
  });

  it("backs off exponentially per account and address: 5 tries, then one per doubling wait; success starts over", async () => {
    const user = await createTestUser();
    const ip = "10.2.2.2";
    const pair = `${user.email}|${ip}`;
    const attempt = async (password: string) => {
      const result = await call(loginAction, makeRequest("/login", { ip, form: { email: user.email, password } }));
      return locationOf(result) ?? dataOf<Reply>(result).error?.[""]?.[0];
    };
    for (let i = 0; i < 5; i++) expect(await attempt("wrong-password")).toBe("Invalid email or password.");
    expect(await attempt("wrong-password")).toBe("Too many failed login attempts. Please try again in 1 minute.");
    expect(await attempt(user.password)).toBe("Too many failed login attempts. Please try again in 1 minute.");
    for (const minutes of [2, 4, 8, 15, 15]) {
      // The wait ran out (its counter expired): one more try, and the next wait is twice as long.
      await reset(LOGIN_LIMITS.pair, pair);
      expect(await attempt("wrong-password")).toBe("Invalid email or password.");
      expect(await attempt("wrong-password")).toBe(
        `Too many failed login attempts. Please try again in ${minutes} minutes.`,
      );
    }
    await reset(LOGIN_LIMITS.pair, pair);
    expect(await attempt(user.password)).toBe("/sms/sendSms");
    for (let i = 0; i < 5; i++) expect(await attempt("wrong-password")).toBe("Invalid email or password.");
  });

  describe("across addresses", () => {
    afterEach(() => resetClock());

    it("makes each attempt on one account wait after LOGIN_ACCOUNT_FREE_FAILURES failures from anywhere, doubling to the cap; the right password works after the wait, and at any time from a browser that signed in before", async () => {
      const user = await createTestUser();
      let now = Date.now();
      setClock(() => now);
      let address = 0;
      // Each from an address of its own: the per-address limits never come into it.
      const attempt = async (password: string, cookie?: string) => {
        const request = makeRequest("/login", {
          ip: `10.60.${Math.floor(address / 250)}.${address++ % 250}`,
          form: { email: user.email, password },
          headers: cookie ? { Cookie: cookie } : {},
        });
        const result = await call(loginAction, request);
        return { result, said: locationOf(result) ?? dataOf<Reply>(result).error?.[""]?.[0] };
      };
      const knownBrowser = ((await attempt(user.password)).result as Response).headers
        .get("Set-Cookie")!
        .split(", ")
        .find((cookie) => cookie.startsWith("known_device="))!
        .split(";")[0];

      for (let i = 0; i <= getEnv().LOGIN_ACCOUNT_FREE_FAILURES; i++)
        expect((await attempt("wrong-password")).said).toBe("Invalid email or password.");
      const waiting = await attempt(user.password);
      expect(statusOf(waiting.result)).toBe(429);
      expect(waiting.said).toBe("Too many failed login attempts on this account. Please try again in 5 seconds.");
      expect(((waiting.result as { init: ResponseInit }).init.headers as Record<string, string>)["Retry-After"]).toBe(
        "5",
      );
      for (const wait of [
        "10 seconds",
        "20 seconds",
        "40 seconds",
        "2 minutes",
        "3 minutes",
        "5 minutes",
        "5 minutes",
      ]) {
        now += 5 * 60_000;
        expect((await attempt("wrong-password")).said).toBe("Invalid email or password.");
        expect((await attempt(user.password)).said).toBe(
          `Too many failed login attempts on this account. Please try again in ${wait}.`,
        );
      }
      // The owner's browser is never held back.
      expect((await attempt(user.password, knownBrowser)).said).toBe("/sms/sendSms");

      // Elsewhere, once the wait has run out, the right password signs in, and the failures are forgotten.
      for (let i = 0; i <= getEnv().LOGIN_ACCOUNT_FREE_FAILURES; i++) await attempt("wrong-password");
      expect((await attempt(user.password)).said).toMatch(/^Too many failed login attempts on this account\./);
      now += 5_000;
      expect((await attempt(user.password)).said).toBe("/sms/sendSms");
      expect((await attempt("wrong-password")).said).toBe("Invalid email or password.");
      // A completed password reset (the owner proved the address) ends the wait too.
      for (let i = 0; i <= getEnv().LOGIN_ACCOUNT_FREE_FAILURES; i++) await attempt("wrong-password");
      expect((await attempt(user.password)).said).toMatch(/^Too many failed login attempts on this account\./);
      const token = (await withTx(async (tx) => await issueLink(tx, user.id, "password_reset"))).link.split("/").pop()!;
      const reset = await resetPassword(token, "a-new-owners-secret-7", {
        revokeAccess: false,
        forgetApiKeys: async () => {},
      });
      expect(reset.ok).toBe(true);
      expect((await attempt("a-new-owners-secret-7")).said).toBe("/sms/sendSms");
      await attempt("wrong-password");
      // A day later housekeeping forgets them.
      now += 25 * 3600_000;
      expect((await purgeExpired()).loginFailures).toBeGreaterThanOrEqual(1);
    });
  });

  it("throttles an address that tries many accounts", async () => {
    for (let i = 0; i < 30; i++) {
      await call(
        loginAction,
        makeRequest("/login", { ip: "10.9.9.9", form: { email: `ghost${i}@example.com`, password: "x" } }),
      );
    }
    const user = await createTestUser();
    const blocked = await call(
      loginAction,
      makeRequest("/login", { ip: "10.9.9.9", form: { email: user.email, password: user.password } }),
    );
    expect(dataOf<Reply>(blocked).error?.[""]?.[0]).toMatch(/^Too many failed login attempts/);
    const elsewhere = await call(
      loginAction,
      makeRequest("/login", { ip: "10.9.9.10", form: { email: user.email, password: user.password } }),
    );
    expect(locationOf(elsewhere)).toBe("/sms/sendSms");
  });

  it("checks at most PASSWORD_HASH_CONCURRENCY passwords at once and asks the rest to retry past the queue", async () => {
    const LOGINS = 24;
    const env = getEnv();
    // More than enough to overflow 2 + 3 even when a slower database (PostgreSQL's round trips) spreads their arrival.
    const users = await Promise.all(Array.from({ length: LOGINS }, () => createTestUser()));
    const saved = { concurrency: env.PASSWORD_HASH_CONCURRENCY, queue: env.PASSWORD_HASH_QUEUE };
    env.PASSWORD_HASH_CONCURRENCY = 2;
    env.PASSWORD_HASH_QUEUE = 3;
    try {
      const results = await Promise.all(
        users.map((user, i) =>
          call(
            loginAction,
            makeRequest("/login", { ip: `10.3.3.${i}`, form: { email: user.email, password: user.password } }),
          ),
        ),
      );
      // 2 run and 3 wait behind them (Argon2 takes far longer than the logins take to arrive); the rest
      // are told to come back, and nothing is counted against them.
      const signedIn = results.filter((result) => locationOf(result) === "/sms/sendSms");
      const busy = results.filter((result) => statusOf(result) === 503);
      expect(busy.length).toBeGreaterThan(0);
      expect(signedIn.length + busy.length).toBe(LOGINS);
      expect(dataOf<Reply>(busy[0]).error?.[""]).toEqual([
        "The server is busy checking passwords. Please try again in a moment.",
      ]);
      const busyUser = users[results.indexOf(busy[0])];
      expect((await peek(LOGIN_LIMITS.pair, `${busyUser.email}|10.3.3.${users.indexOf(busyUser)}`)).count).toBe(0);
      const retried = await call(
        loginAction,
        makeRequest("/login", { ip: "10.3.3.99", form: { email: busyUser.email, password: busyUser.password } }),
      );
      expect(locationOf(retried)).toBe("/sms/sendSms");
    } finally {
      env.PASSWORD_HASH_CONCURRENCY = saved.concurrency;
      env.PASSWORD_HASH_QUEUE = saved.queue;
    }
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
    expect(locationOf(await call(authorizationLoader, makeRequest("/authorization", { user: customer })))).toBe(
      "/accessDenied",
    );
    const admin = await createTestUser("admin");
    expect(await call(authorizationLoader, makeRequest("/authorization", { user: admin }))).toBeNull();
  });
});

describe("sign-up abuse", () => {
  it("a sign-up that finds every password slot taken is asked to retry, and creates nothing", async () => {
    const env = getEnv();
    const saved = { concurrency: env.PASSWORD_HASH_CONCURRENCY, queue: env.PASSWORD_HASH_QUEUE };
    env.PASSWORD_HASH_CONCURRENCY = 1;
    env.PASSWORD_HASH_QUEUE = 0;
    try {
      const form = (i: number) => ({ email: `rush-${i}@example.com`, fullName: "Rush", password: "violet-anchor-93" });
      const results = await Promise.all(
        [0, 1, 2].map((i) => call(registerAction, makeRequest("/register", { ip: "10.8.8.8", form: form(i) }))),
      );
      const busy = results.map((result, i) => ({ result, i })).filter(({ result }) => statusOf(result) === 503);
      expect(busy.length).toBeGreaterThan(0);
      for (const { result, i } of busy) {
        expect(dataOf<Reply>(result).error?.[""]).toEqual([
          "The server is busy checking passwords. Please try again in a moment.",
        ]);
        expect(await findUserByEmail(`rush-${i}@example.com`)).toBeUndefined();
      }
    } finally {
      env.PASSWORD_HASH_CONCURRENCY = saved.concurrency;
      env.PASSWORD_HASH_QUEUE = saved.queue;
    }
  });

  it("limits accounts created per client address and says when to come back", async () => {
    const env = getEnv();
    const form = (i: number) => ({ email: `burst-${i}@example.com`, fullName: "Burst", password: "long-enough" });
    for (let i = 0; i < env.REGISTER_LIMIT_PER_HOUR; i++) {
      expect(locationOf(await call(registerAction, makeRequest("/register", { ip: "10.7.7.7", form: form(i) })))).toBe(
        "/login",
      );
    }
    const refused = await call(registerAction, makeRequest("/register", { ip: "10.7.7.7", form: form(999) }));
    expect(statusOf(refused)).toBe(429);
    expect(dataOf<Reply>(refused).error?.[""]?.[0]).toMatch(
      /^Too many accounts were created from your network\. Please try again in 60 minutes\.$/,
    );
    expect(await findUserByEmail("burst-999@example.com")).toBeUndefined();
    // Another address is not affected.
    expect(locationOf(await call(registerAction, makeRequest("/register", { ip: "10.7.7.8", form: form(1000) })))).toBe(
      "/login",
    );
  });

  it("counts an IPv6 client by its /64: 2001:db8::1 and 2001:db8::2 share one sign-up limit, another /64 has its own", async () => {
    const env = getEnv();
    const signUp = (ip: string, i: number) =>
      call(
        registerAction,
        makeRequest("/register", {
          ip,
          form: { email: `v6-${i}@example.com`, fullName: "Six", password: "long-enough" },
        }),
      );
    for (let i = 0; i < env.REGISTER_LIMIT_PER_HOUR; i++)
      expect(locationOf(await signUp(i % 2 ? "2001:db8::1" : "2001:db8::2", i))).toBe("/login");
    const refused = await signUp("2001:db8::ffff:3", 999);
    expect(statusOf(refused)).toBe(429);
    expect(await findUserByEmail("v6-999@example.com")).toBeUndefined();
    expect(locationOf(await signUp("2001:db8:0:1::1", 1000))).toBe("/login");
  });
});
