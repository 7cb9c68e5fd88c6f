// The admin's accounts screens: the list (search, paging by URL) and one account's balance, ledger
// and credit adjustment form (who, when, why; never below zero; a double submit books once).
import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { Secret, TOTP } from "otpauth";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb, withTx } from "#app/db/client.server.ts";
import { users } from "#app/db/schema/core.ts";
import { mailOutbox } from "#app/db/schema/mail.ts";
import {
  finishEnrolment,
  isTwoFactorEnabled,
  pendingEnrolment,
  startEnrolment,
} from "#app/modules/auth/two-factor.server.ts";
import { ACCOUNT_DISABLED_SCHEDULE_REASON, runOccurrence } from "#app/modules/scheduling/runner.server.ts";
import { ACCOUNT_DISABLED_REASON, sendQueuedMessage } from "#app/modules/sms/dispatch.server.ts";
import type { SmsTransport } from "#app/modules/messaging/transport-types.ts";
import { queueMessage } from "#app/modules/sms/send.server.ts";
import { deliverWebhooks } from "#app/modules/webhooks/deliver.server.ts";
import { listDeliveries } from "#app/modules/webhooks/deliveries.server.ts";
import { createEndpoint } from "#app/modules/webhooks/endpoints.server.ts";
import { action as loginAction } from "#app/routes/auth/login.tsx";
import { loader as sendSmsLoader } from "#app/routes/sms/send-sms.tsx";
import { apiCustomer, startApiServer } from "#tests/support/api.ts";
import { scheduleMessages, scheduleSoon } from "#tests/support/schedules.ts";
import { messageRow } from "#tests/support/sms.ts";
import { book, getBalance, getLedgerSum } from "#app/modules/credits/ledger.server.ts";
import { ACCOUNTS_PAGE_SIZE } from "#app/modules/credits/schemas.ts";
import { action as detailsAction, loader as detailsLoader } from "#app/routes/admin/user-details.tsx";
import { loader as listLoader } from "#app/routes/admin/users.tsx";
import { clock, resetClock, setClock } from "#app/utils/clock.server.ts";
import { getToast } from "#app/web/toast.server.ts";
import {
  call,
  createTestUser,
  dataOf,
  locationOf,
  makeRequest,
  statusOf,
  type TestUser,
} from "#tests/support/requests.ts";

const admin = await createTestUser("admin");
const customer = await createTestUser();

type ListData = {
  q: string;
  page: number;
  totalPages: number;
  total: number;
  accounts: { id: number; fullName: string; email: string; role: string; balance: number }[];
};
type DetailsData = {
  account: { id: number; balance: number };
  requestKey: string;
  ledger: {
    page: number;
    totalPages: number;
    total: number;
    rows: {
      amount: number;
      reason: string | null;
      note: string | null;
      actor: { fullName: string; email: string } | null;
    }[];
  };
};

/** Accounts straight into the table (no password hashing), newest last. */
function insertAccounts(count: number, make: (i: number) => { fullName: string; email: string }) {
  return withTx(async (tx) => {
    const ids: number[] = [];
    for (let i = 0; i < count; i++) {
      ids.push(
        (
          await tx
            .insert(users)
            .values({ ...make(i), passwordHash: "x", createdAt: clock.date() })
            .returning({ id: users.id })
            .get()
        ).id,
      );
    }
    return ids;
  });
}

const list = async (search: string, user: TestUser = admin) =>
  call(listLoader, makeRequest(`/admin/users${search}`, { user }));
const details = async (id: number | string, search = "", user: TestUser = admin) =>
  call(detailsLoader, makeRequest(`/admin/users/${id}${search}`, { user }), { id: String(id) });
const adjust = async (id: number, form: Record<string, string>, user: TestUser = admin) =>
  call(detailsAction, makeRequest(`/admin/users/${id}`, { user, form }), { id: String(id) });
const toastOf = async (result: unknown) => {
  const cookie = (result as Response).headers.get("Set-Cookie") ?? "";
  return (await getToast(new Request("http://localhost", { headers: { Cookie: cookie.split(";")[0] } }))).toast
    ?.description;
};
const freshKey = () => randomUUID().replaceAll("-", "");

describe("accounts list", () => {
  const tag = `acc${randomUUID().slice(0, 6)}`;
  let ids: number[] = [];
  beforeAll(async () => {
    ids = await insertAccounts(ACCOUNTS_PAGE_SIZE + 5, (i) => ({
      fullName: `${tag} Person ${i}`,
      email: `person${i}.${tag}@example.com`,
    }));
  });

  it("searches by name or e-mail, newest first, with name, e-mail, role and balance", async () => {
    const byName = dataOf<ListData>(await list(`?q=${tag}%20Person%203`));
    expect(byName.accounts.map((a) => a.fullName)).toEqual([`${tag} Person 3`]);
    expect(byName.accounts[0]).toMatchObject({ email: `person3.${tag}@example.com`, role: "customer", balance: 0 });
    const byEmail = dataOf<ListData>(await list(`?q=PERSON24.${tag}`));
    expect(byEmail.accounts.map((a) => a.id)).toEqual([ids[24]]);
    // LIKE wildcards are taken literally.
    expect(dataOf<ListData>(await list(`?q=${tag}%25`)).accounts).toEqual([]);
  });

  it("pages by URL; a page past the end or a bad page shows a real page", async () => {
    const first = dataOf<ListData>(await list(`?q=${tag}`));
    expect(first).toMatchObject({ page: 1, totalPages: 2, total: ACCOUNTS_PAGE_SIZE + 5 });
    expect(first.accounts.map((a) => a.id)).toEqual(ids.slice(5).reverse());
    const second = dataOf<ListData>(await list(`?q=${tag}&page=2`));
    expect(second.accounts.map((a) => a.id)).toEqual(ids.slice(0, 5).reverse());
    expect(dataOf<ListData>(await list(`?q=${tag}&page=99`)).page).toBe(2);
    for (const bad of ["0", "-1", "abc", "1.5", "1e9"])
      expect(dataOf<ListData>(await list(`?q=${tag}&page=${bad}`)).page, bad).toBe(1);
  });

  it("is for admins: a customer is sent to accessDenied, a visitor to login", async () => {
    expect(locationOf(await list("", customer))).toBe("/accessDenied");
    expect(locationOf(await call(listLoader, makeRequest("/admin/users")))).toMatch(/^\/login\?redirectTo=/);
  });
});

describe("one account: balance, ledger and credit adjustments", () => {
  it("an unknown or malformed id is a 404, for the page and the form", async () => {
    for (const id of ["999999", "abc", "0", "-3", "1.5"]) {
      expect(statusOf(await details(id)), id).toBe(404);
    }
    expect(
      statusOf(await adjust(999_999, { direction: "add", amount: "5", reason: "x", requestKey: freshKey() })),
    ).toBe(404);
  });

  it("an admin adds and removes credits with a reason; the ledger shows who and why", async () => {
    const user = await createTestUser();
    const added = await adjust(user.id, {
      direction: "add",
      amount: "250",
      reason: "Invoice 2026-041 paid by bank transfer",
      requestKey: freshKey(),
    });
    expect(locationOf(added)).toBe(`/admin/users/${user.id}`);
    expect(await toastOf(added)).toBe("Added 250 credits. Balance: 250.");
    const removed = await adjust(user.id, {
      direction: "remove",
      amount: "40",
      reason: "Correction:\r\nduplicate grant",
      requestKey: freshKey(),
    });
    expect(await toastOf(removed)).toBe("Removed 40 credits. Balance: 210.");
    expect(await getBalance(user.id)).toBe(210);
    expect(await getLedgerSum(user.id)).toBe(210);

    const page = dataOf<DetailsData>(await details(user.id));
    expect(page.account.balance).toBe(210);
    expect(page.ledger.rows).toEqual([
      expect.objectContaining({
        amount: -40,
        reason: "Correction: duplicate grant",
        actor: { id: admin.id, fullName: admin.fullName, email: admin.email },
      }),
      expect.objectContaining({
        amount: 250,
        reason: "Invoice 2026-041 paid by bank transfer",
        actor: { id: admin.id, fullName: admin.fullName, email: admin.email },
      }),
    ]);
  });

  it("a removal beyond the balance is refused next to the amount and changes nothing", async () => {
    const user = await createTestUser();
    await book({ userId: user.id, kind: "grant", amount: 30, key: `grant:${user.id}` });
    const refused = await adjust(user.id, {
      direction: "remove",
      amount: "31",
      reason: "Too much",
      requestKey: freshKey(),
    });
    expect(statusOf(refused)).toBe(409);
    expect(dataOf<{ error: Record<string, string[]> }>(refused).error.amount).toEqual([
      "Only 30 credits available: remove at most 30.",
    ]);
    expect(await getBalance(user.id)).toBe(30);
    expect(await getLedgerSum(user.id)).toBe(30);
    expect(dataOf<DetailsData>(await details(user.id)).ledger.total).toBe(1);
  });

  it("mistakes are answered next to their fields and change nothing", async () => {
    const user = await createTestUser();
    const cases: [Record<string, string>, string, string][] = [
      [{ direction: "add", amount: "", reason: "x" }, "amount", "Amount is required"],
      [{ direction: "add", amount: "0", reason: "x" }, "amount", "Amount must be at least 1 credit"],
      [{ direction: "add", amount: "-5", reason: "x" }, "amount", "Amount must be at least 1 credit"],
      [{ direction: "add", amount: "2.5", reason: "x" }, "amount", "Amount must be a whole number of credits"],
      [{ direction: "add", amount: "1000001", reason: "x" }, "amount", "Amount must be at most 1,000,000 credits"],
      [{ direction: "add", amount: "abc", reason: "x" }, "amount", "Amount must be a whole number of credits"],
      [
        { direction: "add", amount: "9".repeat(400), reason: "x" },
        "amount",
        "Amount must be at most 1,000,000 credits",
      ],
      [{ amount: "5", reason: "x" }, "direction", "Choose whether to add or remove credits"],
      [{ direction: "steal", amount: "5", reason: "x" }, "direction", "Choose whether to add or remove credits"],
      [{ direction: "add", amount: "5", reason: "   " }, "reason", "Reason is required"],
      [{ direction: "add", amount: "5", reason: "r".repeat(501) }, "reason", "Reason must be 500 characters or fewer"],
    ];
    for (const [form, field, message] of cases) {
      const result = await adjust(user.id, { requestKey: freshKey(), ...form });
      expect(statusOf(result), JSON.stringify(form)).toBe(400);
      expect(dataOf<{ error: Record<string, string[]> }>(result).error[field], JSON.stringify(form)).toContain(message);
    }
    const noKey = await adjust(user.id, { direction: "add", amount: "5", reason: "x" });
    expect(statusOf(noKey)).toBe(400);
    expect(await getBalance(user.id)).toBe(0);
    expect(dataOf<DetailsData>(await details(user.id)).ledger.total).toBe(0);
  });

  it("a double submit (the same form key, even at once) books once", async () => {
    const user = await createTestUser();
    const { requestKey } = dataOf<DetailsData>(await details(user.id));
    const form = { direction: "add", amount: "100", reason: "Prepaid by invoice", requestKey };
    const results = await Promise.all(Array.from({ length: 3 }, () => adjust(user.id, form)));
    expect(results.map(statusOf)).toEqual([302, 302, 302]);
    expect((await Promise.all(results.map(toastOf))).sort()).toEqual([
      "Added 100 credits. Balance: 100.",
      "This change was already recorded; it was not booked twice.",
      "This change was already recorded; it was not booked twice.",
    ]);
    expect(await getBalance(user.id)).toBe(100);
    // Each visit gets a new key, so the next change is booked.
    expect(dataOf<DetailsData>(await details(user.id)).requestKey).not.toBe(requestKey);
  });

  it("pages the ledger by URL", async () => {
    const user = await createTestUser();
    for (let i = 0; i < 25; i += 1)
      await book({ userId: user.id, kind: "grant", amount: i + 1, key: `g:${user.id}:${i}` });
    const second = dataOf<DetailsData>(await details(user.id, "?page=2"));
    expect(second.ledger).toMatchObject({ page: 2, totalPages: 2, total: 25 });
    expect(second.ledger.rows.map((r) => r.amount)).toEqual([5, 4, 3, 2, 1]);
    expect(dataOf<DetailsData>(await details(user.id, "?page=7")).ledger.page).toBe(2);
  });

  it("is for admins: a customer is sent to accessDenied and nothing is booked", async () => {
    const user = await createTestUser();
    expect(locationOf(await details(user.id, "", customer))).toBe("/accessDenied");
    expect(
      locationOf(
        await adjust(user.id, { direction: "add", amount: "5", reason: "x", requestKey: freshKey() }, customer),
      ),
    ).toBe("/accessDenied");
    expect(
      locationOf(
        await adjust(customer.id, { direction: "add", amount: "5", reason: "x", requestKey: freshKey() }, customer),
      ),
    ).toBe("/accessDenied");
    expect(await getBalance(user.id)).toBe(0);
    expect(await getBalance(customer.id)).toBe(0);
  });
});

/** A transport the test expects never to be handed a message. */
const neverCalled: SmsTransport = {
  name: "never-called",
  submitMany: () => Promise.reject(new Error("a disabled account's message reached the transport")),
  close: () => Promise.resolve(),
};

describe("disabling an account and clearing its two-factor", () => {
  const access = async (id: number, intent: string, user: TestUser = admin) =>
    call(detailsAction, makeRequest(`/admin/users/${id}`, { user, form: { intent } }), { id: String(id) });
  const mailsTo = async (email: string) =>
    (await getDb().select({ kind: mailOutbox.kind }).from(mailOutbox).where(eq(mailOutbox.to, email)).all()).map(
      (m) => m.kind,
    );
  const login = (user: TestUser) =>
    call(loginAction, makeRequest("/login", { form: { email: user.email, password: user.password }, ip: "10.4.4.4" }));

  it("signs the owner out and refuses sign-in, the API (403 JSON), waiting messages, schedules and webhooks", async () => {
    const owner = await apiCustomer(10);
    const waiting = await queueMessage(owner.id, { to: "+12025550141", body: "Waiting in the queue" });
    const schedule = await scheduleSoon(owner.id, { inMs: 60 * 60_000 });
    const { endpoint } = await createEndpoint(owner.id, {
      url: "http://203.0.113.10/hook",
      events: ["message.failed"],
      enabled: true,
    });
    const server = await startApiServer();
    try {
      const balance = () =>
        fetch(`${server.url}/api/v1/balance`, { headers: { Authorization: `Bearer ${owner.key}` } });
      expect((await balance()).status).toBe(200);

      const page = dataOf<{ confirm: string | null }>(await details(owner.id, "?confirm=disable"));
      expect(page.confirm).toBe("disable");
      const done = await access(owner.id, "disable");
      expect(await toastOf(done)).toMatch(/^Account disabled/);

      // Signed out at once, and the right password says why it does not sign in.
      expect(locationOf(await call(sendSmsLoader, makeRequest("/sms/sendSms", { user: owner })))).toMatch(/^\/login/);
      const refused = await login(owner);
      expect(statusOf(refused)).toBe(400);
      expect(JSON.stringify(dataOf(refused))).toContain("This account has been disabled");

      const answer = await balance();
      expect(answer.status).toBe(403);
      expect(((await answer.json()) as { error: { code: string } }).error.code).toBe("account_disabled");

      // The waiting message is cancelled and refunded; the schedule's occurrence is not sent.
      expect(await messageRow(waiting.id)).toMatchObject({ status: "failed", error: ACCOUNT_DISABLED_REASON });
      expect(await getBalance(owner.id)).toBe(10);
      const at = schedule.nextRunAt!;
      setClock(() => at);
      expect(await runOccurrence(schedule.id, at)).toBe("account-disabled");
      resetClock();
      expect(await scheduleMessages(schedule.id)).toEqual([
        expect.objectContaining({ status: "failed", error: ACCOUNT_DISABLED_SCHEDULE_REASON }),
      ]);
      // Webhooks are not called: the delivery of the cancelled message's event fails unsent.
      const [delivery] = await listDeliveries(owner.id, endpoint.id);
      expect(await deliverWebhooks([{ deliveryId: delivery.id, attempt: 0 }])).toMatchObject({ failed: 1 });
      expect((await listDeliveries(owner.id, endpoint.id))[0]).toMatchObject({
        status: "failed",
        lastAnswer: "Not sent: the account is disabled",
      });
      expect(await mailsTo(owner.email)).toContain("account_disabled");
      // One queued after the disabling (a group send's fan-out still running) is refused by the worker.
      const late = await queueMessage(owner.id, { to: "+12025550142", body: "Queued too late" });
      expect(await sendQueuedMessage(neverCalled, late.id)).toEqual({
        kind: "failed",
        reason: ACCOUNT_DISABLED_REASON,
      });
      expect(await getBalance(owner.id)).toBe(10);

      const list = dataOf<ListData>(
        await call(listLoader, makeRequest(`/admin/users?q=${owner.email}`, { user: admin })),
      );
      expect(list.accounts[0]).toMatchObject({ id: owner.id, disabledAt: expect.any(Number) });

      expect(await toastOf(await access(owner.id, "enable"))).toBe("Account enabled again.");
      expect(locationOf(await login(owner))).toBe("/sms/sendSms");
      expect((await balance()).status).toBe(200);
      expect(await mailsTo(owner.email)).toContain("account_enabled");
    } finally {
      await server.close();
    }
  });

  it("refuses the admin's own account and another admin's, and a customer's for a customer", async () => {
    const otherAdmin = await createTestUser("admin");
    expect(await toastOf(await access(admin.id, "disable"))).toBe("You cannot change your own account's access here.");
    expect(await toastOf(await access(otherAdmin.id, "disable"))).toBe("An admin's account cannot be disabled.");
    const page = dataOf<{ access: { can: Record<string, boolean> }; confirm: string | null }>(
      await details(admin.id, "?confirm=disable"),
    );
    expect(page.confirm).toBeNull();
    expect(page.access.can).toEqual({ disable: false, enable: false, "clear-two-factor": false });
    const target = await createTestUser();
    expect(locationOf(await access(target.id, "disable", customer))).toBe("/accessDenied");
    expect(statusOf(await call(sendSmsLoader, makeRequest("/sms/sendSms", { user: target })))).toBe(200);
  });

  it("clears a user's two-factor after confirmation and e-mails them; the password alone then signs in", async () => {
    const owner = await createTestUser();
    await startEnrolment(owner.id, owner.email);
    const { secret } = (await pendingEnrolment(owner.id, owner.email))!;
    expect(await finishEnrolment(owner.id, new TOTP({ secret: Secret.fromBase32(secret) }).generate())).toHaveLength(
      10,
    );
    expect(locationOf(await login(owner))).toMatch(/^\/login\/two-factor/);

    const page = dataOf<{ access: { twoFactorOn: boolean }; confirm: string | null }>(
      await details(owner.id, "?confirm=clear-two-factor"),
    );
    expect(page).toMatchObject({ access: { twoFactorOn: true }, confirm: "clear-two-factor" });
    expect(await toastOf(await access(owner.id, "clear-two-factor"))).toMatch(/^Two-factor authentication cleared/);
    expect(await isTwoFactorEnabled(owner.id)).toBe(false);
    expect(await mailsTo(owner.email)).toContain("two_factor_cleared");
    expect(locationOf(await login(owner))).toBe("/sms/sendSms");
    expect(await toastOf(await access(owner.id, "clear-two-factor"))).toBe(
      "Two-factor authentication is already off for this account.",
    );
  });
});
