// The outbox reconcilers' shared sweep: every pending row re-added once, a keyset page at a time.
import { expect, it } from "vitest";
import { reconcileOutbox } from "#app/queue/reconcile-outbox.server.ts";

it("re-adds every pending row once, in id order, one page per addBulk, until a page comes back empty", async () => {
  const pending = Array.from({ length: 1_203 }, (_, i) => ({ id: 2 * i + 1 }));
  const pages: { after: number; limit: number }[] = [];
  const added: number[][] = [];
  const report = await reconcileOutbox(
    async (after, limit) => {
      pages.push({ after, limit });
      return pending.filter((row) => row.id > after).slice(0, limit);
    },
    async (rows) => {
      added.push(rows.map((row) => row.id));
    },
  );
  expect(report).toEqual({ enqueued: 1_203 });
  expect(added.map((page) => page.length)).toEqual([500, 500, 203]);
  expect(added.flat()).toEqual(pending.map((row) => row.id));
  expect(pages.map((page) => page.after)).toEqual([0, 999, 1_999, 2_405]);
});

it("adds nothing when nothing is pending", async () => {
  const report = await reconcileOutbox(
    async () => [],
    async () => {
      throw new Error("no rows, no jobs");
    },
  );
  expect(report).toEqual({ enqueued: 0 });
});
