import { describe, expect, it } from "vitest";
import { withTx } from "#app/db/client.server.ts";
import {
  adjustCredits,
  book,
  bookEntries,
  getBalance,
  getLedgerSum,
  InsufficientCreditsError,
  listLedgerEntries,
  takeBack,
} from "#app/modules/credits/ledger.server.ts";
import { createTestUser } from "#tests/support/requests.ts";

describe("credit ledger", () => {
  it("books a key once, however often it is called", async () => {
    const user = await createTestUser();
    const results: boolean[] = [];
    for (let i = 0; i < 5; i++)
      results.push(await book({ userId: user.id, kind: "grant", amount: 100, key: `grant:${user.id}` }));
    expect(results.filter(Boolean)).toHaveLength(1);
    expect(await getBalance(user.id)).toBe(100);
    expect(await getLedgerSum(user.id)).toBe(100);
  });

  it("never goes below zero and leaves nothing behind when it refuses", async () => {
    const user = await createTestUser();
    await book({ userId: user.id, kind: "grant", amount: 3, key: `g:${user.id}` });
    await expect(book({ userId: user.id, kind: "debit", amount: -4, key: `d:${user.id}` })).rejects.toThrow(
      InsufficientCreditsError,
    );
    expect(await getBalance(user.id)).toBe(3);
    expect(await getLedgerSum(user.id)).toBe(3);
    expect(await book({ userId: user.id, kind: "debit", amount: -3, key: `d:${user.id}` })).toBe(true);
    expect(await getBalance(user.id)).toBe(0);
  });

  it("refuses zero and fractional amounts", async () => {
    const user = await createTestUser();
    await expect(book({ userId: user.id, kind: "grant", amount: 0, key: "zero" })).rejects.toThrow();
    await expect(book({ userId: user.id, kind: "grant", amount: 1.5, key: "half" })).rejects.toThrow();
  });

  it("books many entries at once, moving the balance by the keys not booked before only, or nothing when it would go below zero", async () => {
    const user = await createTestUser();
    await book({ userId: user.id, kind: "grant", amount: 10, key: `g:${user.id}` });
    await book({ userId: user.id, kind: "debit", amount: -2, key: `d1:${user.id}` });
    const entries = [
      { kind: "debit" as const, amount: -2, key: `d1:${user.id}` },
      { kind: "debit" as const, amount: -3, key: `d2:${user.id}` },
      { kind: "debit" as const, amount: -3, key: `d2:${user.id}` },
      { kind: "refund" as const, amount: 1, key: `r1:${user.id}`, note: "given back" },
    ];
    const inTx = (list: typeof entries) => withTx(async (tx) => await bookEntries(tx, user.id, list));
    expect(await inTx(entries)).toBe(-2);
    expect(await inTx(entries)).toBe(0);
    expect(await getBalance(user.id)).toBe(6);
    expect(await getLedgerSum(user.id)).toBe(6);
    expect((await listLedgerEntries(user.id)).rows.map((r) => [r.kind, r.amount, r.note])).toEqual([
      ["refund", 1, "given back"],
      ["debit", -3, null],
      ["debit", -2, null],
      ["grant", 10, null],
    ]);
    const tooMuch = [
      { kind: "debit" as const, amount: -4, key: `d3:${user.id}` },
      { kind: "debit" as const, amount: -4, key: `d4:${user.id}` },
    ];
    await expect(inTx(tooMuch)).rejects.toThrow(expect.objectContaining({ needed: 8, balance: 6 }));
    expect(await getBalance(user.id)).toBe(6);
    expect(await getLedgerSum(user.id)).toBe(6);
  });

  it("takes back at most the balance, records the rest as shortfall, and once per key", async () => {
    const user = await createTestUser();
    await book({ userId: user.id, kind: "grant", amount: 30, key: `g:${user.id}` });
    const takeBackOnce = () =>
      withTx(
        async (tx) => await takeBack(tx, { userId: user.id, kind: "reversal", wanted: 100, key: `tb:${user.id}` }),
      );
    expect(await takeBackOnce()).toEqual({ booked: true, taken: 30, shortfall: 70 });
    expect(await takeBackOnce()).toEqual({ booked: false, taken: 0, shortfall: 0 });
    expect(await getBalance(user.id)).toBe(0);
    expect(await getLedgerSum(user.id)).toBe(0);
    // Nothing left: the entry still records what could not be taken.
    const nothing = await withTx(
      async (tx) => await takeBack(tx, { userId: user.id, kind: "reversal", wanted: 5, key: `tb2:${user.id}` }),
    );
    expect(nothing).toEqual({ booked: true, taken: 0, shortfall: 5 });
    expect((await listLedgerEntries(user.id)).rows.map((r) => [r.amount, r.shortfall])).toEqual([
      [0, 5],
      [-30, 70],
      [30, 0],
    ]);
    await expect(
      withTx(async (tx) => await takeBack(tx, { userId: user.id, kind: "reversal", wanted: 0, key: "tb-zero" })),
    ).rejects.toThrow();
  });

  it("an operator adjustment records who and why, books a request key once, and never removes more than the balance", async () => {
    const user = await createTestUser();
    const admin = await createTestUser("admin");
    const grant = {
      userId: user.id,
      actorUserId: admin.id,
      amount: 50,
      reason: "Invoice 17",
      requestKey: `k-${user.id}-add-000000`,
    };
    expect(await adjustCredits(grant)).toEqual({ status: "booked", balance: 50 });
    expect(await adjustCredits(grant)).toEqual({ status: "duplicate", balance: 50 });
    const removal = { ...grant, amount: -51, reason: "Correction", requestKey: `k-${user.id}-rm-0000000` };
    expect(await adjustCredits(removal)).toEqual({ status: "insufficient", balance: 50 });
    expect(await getBalance(user.id)).toBe(50);
    expect(await adjustCredits({ ...removal, amount: -50 })).toEqual({ status: "booked", balance: 0 });
    expect(await getLedgerSum(user.id)).toBe(0);
    expect(await adjustCredits({ ...grant, userId: 999_999, requestKey: "k-missing-user-0000" })).toEqual({
      status: "not-found",
    });
    const rows = (await listLedgerEntries(user.id)).rows;
    expect(rows.map((r) => ({ amount: r.amount, reason: r.reason, actor: r.actor?.email }))).toEqual([
      { amount: -50, reason: "Correction", actor: admin.email },
      { amount: 50, reason: "Invoice 17", actor: admin.email },
    ]);
  });
});
