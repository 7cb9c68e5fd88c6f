// Session lifetimes (idle and absolute, shorter for admins), revocation when the password or the
// role changes, and the cookies' names. Time moves through the injected clock.
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { getSessionUser, startSession } from "#app/modules/auth/session.server.ts";
import { setPassword, setRole, upsertUser } from "#app/modules/auth/users.server.ts";
import { resetClock, setClock } from "#app/utils/clock.server.ts";
import { getEnv } from "#app/utils/env.server.ts";
import { redirectWithToast } from "#app/web/toast.server.ts";
import { createTestUser, makeRequest } from "#tests/support/requests.ts";

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

let now = Date.now();
setClock(() => now);
afterEach(() => {
  now = Date.now();
});
afterAll(() => resetClock());
const later = (ms: number) => {
  now += ms;
};

const signedIn = async (user: { cookie: string }) => (await getSessionUser(makeRequest("/", { user })))?.id ?? null;

describe("lifetimes", () => {
  it("a customer's session ends after 7 days without a request, and lives on while used", async () => {
    const active = await createTestUser();
    const idle = await createTestUser();
    later(6 * DAY);
    expect(await signedIn(active)).toBe(active.id);
    later(6 * DAY);
    expect(await signedIn(active)).toBe(active.id);
    expect(await signedIn(idle)).toBeNull();
  });

  it("a customer's session ends 30 days after sign-in, however active", async () => {
    const user = await createTestUser();
    for (let day = 5; day < 30; day += 5) {
      later(5 * DAY);
      expect(await signedIn(user)).toBe(user.id);
    }
    later(5 * DAY - 1);
    expect(await signedIn(user)).toBe(user.id);
    later(1);
    expect(await signedIn(user)).toBeNull();
    // Gone for good: an earlier time does not bring it back.
    now -= DAY;
    expect(await signedIn(user)).toBeNull();
  });

  it("an admin's session ends after 60 idle minutes and 12 hours after sign-in", async () => {
    const start = now;
    const idle = await createTestUser("admin");
    const active = await createTestUser("admin");
    later(59 * MINUTE);
    expect(await signedIn(active)).toBe(active.id);
    later(2 * MINUTE);
    expect(await signedIn(idle)).toBeNull();
    while (now + 50 * MINUTE < start + 12 * HOUR) {
      later(50 * MINUTE);
      expect(await signedIn(active)).toBe(active.id);
    }
    now = start + 12 * HOUR - 1;
    expect(await signedIn(active)).toBe(active.id);
    later(1);
    expect(await signedIn(active)).toBeNull();
  });

  it("the last request's time is written at most once a minute", async () => {
    const user = await createTestUser("admin");
    // Seen 30 s after sign-in: not written, so the idle hour still counts from sign-in.
    later(30_000);
    expect(await signedIn(user)).toBe(user.id);
    later(HOUR - 30_000);
    expect(await signedIn(user)).toBeNull();
  });
});

describe("revocation", () => {
  it("a new password signs the user out everywhere", async () => {
    const user = await createTestUser();
    const elsewhere = { cookie: (await startSession(makeRequest("/"), user.id)).split(";")[0] };
    const other = await createTestUser();
    await setPassword(user.id, "a-brand-new-password");
    expect(await signedIn(user)).toBeNull();
    expect(await signedIn(elsewhere)).toBeNull();
    expect(await signedIn(other)).toBe(other.id);
  });

  it("a role change signs the user out everywhere", async () => {
    const user = await createTestUser("admin");
    await setRole(user.id, "customer");
    expect(await signedIn(user)).toBeNull();
  });

  it("the ADMIN_PASSWORD reset at start signs the admin out when the password or role changed, not otherwise", async () => {
    const admin = await createTestUser("admin");
    await upsertUser({ email: admin.email, fullName: admin.fullName, password: admin.password, role: "admin" });
    expect(await signedIn(admin)).toBe(admin.id);
    await upsertUser({
      email: admin.email,
      fullName: admin.fullName,
      password: "another-admin-password",
      role: "admin",
    });
    expect(await signedIn(admin)).toBeNull();

    const customer = await createTestUser();
    await upsertUser({
      email: customer.email,
      fullName: customer.fullName,
      password: customer.password,
      role: "admin",
    });
    expect(await signedIn(customer)).toBeNull();
  });
});

describe("cookie names", () => {
  it("Secure cookies are __Host- prefixed (Secure, Path=/, no Domain); plain ones keep their names", async () => {
    const user = await createTestUser();
    const plain = await startSession(makeRequest("/"), user.id);
    expect(plain).toMatch(/^__session=/);
    expect(plain).not.toMatch(/Secure/i);
    expect((await redirectWithToast("/", { description: "Saved" })).headers.get("Set-Cookie")).toMatch(/^en_toast=/);

    getEnv().cookieSecure = true;
    try {
      const secure = await startSession(makeRequest("/"), user.id);
      expect(secure).toMatch(/^__Host-session=/);
      expect(secure).toMatch(/; Secure/i);
      expect(secure).toMatch(/; Path=\/(;|$)/);
      expect(secure).not.toMatch(/Domain=/i);
      expect(await signedIn({ cookie: secure.split(";")[0] })).toBe(user.id);
      const toast = (await redirectWithToast("/", { description: "Saved" })).headers.get("Set-Cookie")!;
      expect(toast).toMatch(/^__Host-toast=/);
      expect(toast).toMatch(/; Secure/i);
      expect(toast).not.toMatch(/Domain=/i);
    } finally {
      getEnv().cookieSecure = false;
    }
  });
});
