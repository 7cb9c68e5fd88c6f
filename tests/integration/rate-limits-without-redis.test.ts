// While Redis is down the limits still hold: each process counts in memory (rate-limiter-flexible's
// insurance limiter) instead of letting every request through. Answers come at once, as before.
// This file runs its own redis-server, so stopping it touches no other file.
import { expect, it } from "vitest";
import { createApiHandler } from "#app/api/handler.server.ts";
import { getRedis } from "#app/queue/redis.server.ts";
import { action as contactAction } from "#app/routes/content/contact.tsx";
import { action as loginAction } from "#app/routes/auth/login.tsx";
import { action as registerAction } from "#app/routes/auth/register.tsx";
import { findUserByEmail } from "#app/modules/auth/users.server.ts";
import { getEnv } from "#app/utils/env.server.ts";
import { insertApiKey } from "#app/modules/api-keys/keys.server.ts";
import { API_SCOPES } from "#app/modules/api-keys/scopes.ts";
import { apiCustomer, callApi } from "#tests/support/api.ts";
import { ownTestRedis } from "#tests/support/own-redis.ts";
import { call, createTestUser, dataOf, locationOf, makeRequest, statusOf } from "#tests/support/requests.ts";
import { waitFor } from "#tests/support/wait.ts";

const redis = ownTestRedis("limits-outage");

type Reply = { error?: Record<string, string[] | null> };
const formError = (result: unknown) => dataOf<Reply>(result).error?.[""]?.at(-1);

it("login, sign-up, contact and API limits refuse past their limit with Redis stopped", async () => {
  const user = await createTestUser();
  const customer = await apiCustomer(10);
  expect((await callApi("GET", "/api/v1/messages", { key: customer.key })).status).toBe(200);
  await redis.stop();
  await waitFor(() => getRedis().status === "reconnecting", { what: "the connection to notice Redis is gone" });

  // Login: five tries per account and address, then a wait; the owner elsewhere is not affected.
  for (let i = 0; i < 5; i++) {
    const wrong = await call(
      loginAction,
      makeRequest("/login", { ip: "10.5.0.1", form: { email: user.email, password: "wrong-password" } }),
    );
    expect(formError(wrong)).toBe("Invalid email or password.");
  }
  const throttled = await call(
    loginAction,
    makeRequest("/login", { ip: "10.5.0.1", form: { email: user.email, password: user.password } }),
  );
  expect(statusOf(throttled)).toBe(429);
  expect(formError(throttled)).toBe("Too many failed login attempts. Please try again in 1 minute.");
  const owner = await call(
    loginAction,
    makeRequest("/login", { ip: "10.5.0.2", form: { email: user.email, password: user.password } }),
  );
  expect(locationOf(owner)).toBe("/sms/sendSms");

  // Sign-up: REGISTER_LIMIT_PER_HOUR accounts per address.
  getEnv().REGISTER_LIMIT_PER_HOUR = 3;
  const signUp = (i: number) =>
    call(
      registerAction,
      makeRequest("/register", {
        ip: "10.5.0.3",
        form: { email: `outage-${i}@example.com`, fullName: "Outage", password: "violet-anchor-93" },
      }),
    );
  for (let i = 0; i < 3; i++) expect(locationOf(await signUp(i))).toBe("/login");
  const refused = await signUp(3);
  expect(statusOf(refused)).toBe(429);
  expect(await findUserByEmail("outage-3@example.com")).toBeUndefined();

  // Contact form: 10 an hour per address.
  const contact = (i: number) =>
    call(
      contactAction,
      makeRequest("/sms/contact", {
        ip: "10.5.0.4",
        form: { name: "Ada", email: `ada${i}@example.com`, subject: `Hello ${i}`, message: "A question." },
      }),
    );
  for (let i = 0; i < 10; i++) expect(locationOf(await contact(i))).not.toBeNull();
  const tooMany = await contact(10);
  expect(statusOf(tooMany)).toBe(429);
  expect(formError(tooMany)).toBe("You have sent too many messages. Please try again in 60 minutes.");

  // API: the key's limit holds (counted in memory), with its headers.
  const handle = createApiHandler({ ratePerMinute: 2 });
  const get = () => callApi("GET", "/api/v1/messages", { key: customer.key }, handle);
  expect((await get()).status).toBe(200);
  const second = await get();
  expect(second.status).toBe(200);
  expect(second.headers["RateLimit-Remaining"]).toBe("0");
  const third = await get();
  expect(third.status).toBe(429);
  expect(third.headers["Retry-After"]).toMatch(/^\d+$/);

  // The account's limit across its keys holds too.
  const byAccount = createApiHandler({ ratePerMinute: 5, accountRatePerMinute: 2 });
  const secondKey = (await insertApiKey(customer.id, { name: "Second", scopes: API_SCOPES })).key;
  const keys = [customer.key, secondKey, secondKey];
  const statuses = [];
  for (const key of keys) statuses.push((await callApi("GET", "/api/v1/messages", { key }, byAccount)).status);
  expect(statuses).toEqual([200, 200, 429]);
});
