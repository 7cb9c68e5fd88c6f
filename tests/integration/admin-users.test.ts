// The admin's accounts screens: the list (search, paging by URL) and one account's balance, ledger
// and credit adjustment form (who, when, why; never below zero; a double submit books once).
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { getDb } from "#app/db/client.server.ts";
import { users } from "#app/db/schema/core.ts";
import { book, getBalance, getLedgerSum } from "#app/modules/credits/ledger.server.ts";
import { ACCOUNTS_PAGE_SIZE } from "#app/modules/credits/schemas.ts";
import { action as detailsAction, loader as detailsLoader } from "#app/routes/admin/user-details.tsx";
import { loader as listLoader } from "#app/routes/admin/users.tsx";
import { clock } from "#app/utils/clock.server.ts";
import { getToast } from "#app/utils/toast.server.ts";
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
  return getDb().transaction((tx) =>
    Array.from(
      { length: count },
      (_, i) =>
        tx
          .insert(users)
          .values({ ...make(i), passwordHash: "x", createdAt: clock.date() })
          .returning({ id: users.id })
          .get().id,
    ),
  );
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
  const ids = insertAccounts(ACCOUNTS_PAGE_SIZE + 5, (i) => ({
    fullName: `${tag} Person ${i}`,
    email: `person${i}.${tag}@example.com`,
  }));

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
    expect(getBalance(user.id)).toBe(210);
    expect(getLedgerSum(user.id)).toBe(210);

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
    book({ userId: user.id, kind: "grant", amount: 30, key: `grant:${user.id}` });
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
    expect(getBalance(user.id)).toBe(30);
    expect(getLedgerSum(user.id)).toBe(30);
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
    expect(getBalance(user.id)).toBe(0);
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
    expect(getBalance(user.id)).toBe(100);
    // Each visit gets a new key, so the next change is booked.
    expect(dataOf<DetailsData>(await details(user.id)).requestKey).not.toBe(requestKey);
  });

  it("pages the ledger by URL", async () => {
    const user = await createTestUser();
    for (let i = 0; i < 25; i += 1) book({ userId: user.id, kind: "grant", amount: i + 1, key: `g:${user.id}:${i}` });
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
    expect(getBalance(user.id)).toBe(0);
    expect(getBalance(customer.id)).toBe(0);
  });
});
