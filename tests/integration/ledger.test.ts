import { describe, expect, it } from "vitest";
import { book, getBalance, getLedgerSum, InsufficientCreditsError } from "../../app/modules/credits/ledger.server.ts";
import { createTestUser } from "../support/requests.ts";

describe("credit ledger", () => {
  it("books a key once, however often it is called", async () => {
    const user = await createTestUser();
    const results = Array.from({ length: 5 }, () => book({ userId: user.id, kind: "grant", amount: 100, key: `grant:${user.id}` }));
    expect(results.filter(Boolean)).toHaveLength(1);
    expect(getBalance(user.id)).toBe(100);
    expect(getLedgerSum(user.id)).toBe(100);
  });

  it("never goes below zero and leaves nothing behind when it refuses", async () => {
    const user = await createTestUser();
    book({ userId: user.id, kind: "grant", amount: 3, key: `g:${user.id}` });
    expect(() => book({ userId: user.id, kind: "debit", amount: -4, key: `d:${user.id}` })).toThrow(InsufficientCreditsError);
    expect(getBalance(user.id)).toBe(3);
    expect(getLedgerSum(user.id)).toBe(3);
    expect(book({ userId: user.id, kind: "debit", amount: -3, key: `d:${user.id}` })).toBe(true);
    expect(getBalance(user.id)).toBe(0);
  });

  it("refuses zero and fractional amounts", async () => {
    const user = await createTestUser();
    expect(() => book({ userId: user.id, kind: "grant", amount: 0, key: "zero" })).toThrow();
    expect(() => book({ userId: user.id, kind: "grant", amount: 1.5, key: "half" })).toThrow();
  });
});
