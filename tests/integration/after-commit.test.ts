// Work given to afterCommit() inside a transaction runs once, after the outermost COMMIT, and never
// after a rollback (decision 122); the mail and webhook outboxes add their jobs that way.
import { beforeEach, expect, it, vi } from "vitest";
import { afterCommit, afterCommitBatch, runningTransaction, withTx } from "#app/db/client.server.ts";
import { addMailJobs } from "#app/queue/jobs/mail.server.ts";
import { addWebhookJobs } from "#app/queue/jobs/webhooks.server.ts";
import { queueMail } from "#app/modules/mail/outbox.server.ts";
import { createEndpoint } from "#app/modules/webhooks/endpoints.server.ts";
import { recordEvent } from "#app/modules/webhooks/outbox.server.ts";
import { createTestUser } from "#tests/support/requests.ts";

// Mails are pending (and so get a job) only with an SMTP server; no worker runs to deliver them.
process.env.SMTP_URL = "smtp://127.0.0.1:9";
process.env.WEBHOOK_ALLOW_PRIVATE = "1";

// The jobs the outboxes add, recorded instead of sent to Redis.
vi.mock("#app/queue/jobs/mail.server.ts", async (original) => ({
  ...(await original<object>()),
  addMailJobs: vi.fn(async () => {}),
}));
vi.mock("#app/queue/jobs/webhooks.server.ts", async (original) => ({
  ...(await original<object>()),
  addWebhookJobs: vi.fn(async () => {}),
}));

beforeEach(() => {
  vi.mocked(addMailJobs).mockClear();
  vi.mocked(addWebhookJobs).mockClear();
});

const rolledBack = new Error("rolled back");

/** Runs `write` in a transaction that then rolls back, and waits the turn a setImmediate would take. */
async function inRolledBackTransaction(write: () => unknown): Promise<void> {
  await expect(
    withTx(async () => {
      await write();
      throw rolledBack;
    }),
  ).rejects.toThrow(rolledBack);
  await new Promise((resume) => setImmediate(resume));
}

const mail = { userId: null, kind: "support" as const, to: "someone@example.com", subject: "Hello", text: "Hi" };

it("runs hooks once, in order, after the COMMIT, with the transaction's rows there to read", async () => {
  const ran: string[] = [];
  const result = await withTx(async () => {
    afterCommit(() => ran.push(`first, in a transaction: ${runningTransaction() !== null}`));
    afterCommit(() => ran.push("second"));
    expect(ran).toEqual([]);
    return "done";
  });
  expect(result).toBe("done");
  expect(ran).toEqual(["first, in a transaction: false", "second"]);
});

it("drops the hooks of a transaction that rolls back", async () => {
  const ran: string[] = [];
  await inRolledBackTransaction(() => afterCommit(() => ran.push("hook")));
  expect(ran).toEqual([]);
  // Nothing left over for the next transaction either.
  await withTx(async () => afterCommit(() => ran.push("next")));
  expect(ran).toEqual(["next"]);
});

it("runs a savepoint's hooks when the outermost transaction commits, and drops them when the savepoint rolls back", async () => {
  const ran: string[] = [];
  await withTx(async () => {
    afterCommit(() => ran.push("outer"));
    await withTx(async () => afterCommit(() => ran.push("released savepoint")));
    await expect(
      withTx(async () => {
        afterCommit(() => ran.push("rolled-back savepoint"));
        throw rolledBack;
      }),
    ).rejects.toThrow(rolledBack);
    expect(ran).toEqual([]);
  });
  expect(ran).toEqual(["outer", "released savepoint"]);
});

it("hands a batch over once per transaction, savepoints included, and each call's items at once outside one", async () => {
  const flushes: number[][] = [];
  const collect = afterCommitBatch<number>((items) => flushes.push(items));
  await withTx(async () => {
    collect([1, 2]);
    await withTx(async () => collect([3]));
    await expect(
      withTx(async () => {
        collect([4]);
        throw rolledBack;
      }),
    ).rejects.toThrow(rolledBack);
    collect([5]);
  });
  expect(flushes).toEqual([[1, 2, 3, 5]]);
  collect([6]);
  expect(flushes).toEqual([[1, 2, 3, 5], [6]]);
});

it("logs a hook that throws, runs the others, and reports the transaction as committed", async () => {
  const logged = vi.spyOn(console, "error").mockImplementation(() => {});
  const ran: string[] = [];
  try {
    const result = await withTx(async () => {
      afterCommit(() => {
        throw new Error("hook broke");
      });
      afterCommit(() => ran.push("after the broken one"));
      return "committed";
    });
    expect(result).toBe("committed");
    expect(ran).toEqual(["after the broken one"]);
    expect(logged.mock.calls.map((args) => String(args[0]))).toEqual([
      expect.stringContaining("after-commit work failed"),
    ]);
  } finally {
    logged.mockRestore();
  }
});

it("runs a hook at once outside a transaction", () => {
  const ran: string[] = [];
  afterCommit(() => ran.push("now"));
  expect(ran).toEqual(["now"]);
});

it("adds no mail job for a mail written in a transaction that rolls back", async () => {
  await inRolledBackTransaction(async () => await withTx(async (tx) => await queueMail(tx, mail)));
  expect(addMailJobs).not.toHaveBeenCalled();
});

it("adds the mails a transaction wrote in one call once it has committed", async () => {
  const ids = await withTx(async (tx) => [await queueMail(tx, mail), await queueMail(tx, mail)]);
  expect(vi.mocked(addMailJobs).mock.calls).toEqual([[ids]]);
});

it("adds no webhook delivery job for an event written in a transaction that rolls back", async () => {
  const user = await createTestUser();
  await createEndpoint(user.id, { url: "http://127.0.0.1:9/hook", events: ["opt_out.changed"], enabled: true });
  vi.mocked(addWebhookJobs).mockClear();

  await inRolledBackTransaction(async () => await recordEvent(user.id, "opt_out.changed", { phone: "+12025550100" }));
  expect(addWebhookJobs).not.toHaveBeenCalled();

  await withTx(async () => await recordEvent(user.id, "opt_out.changed", { phone: "+12025550101" }));
  expect(addWebhookJobs).toHaveBeenCalledTimes(1);
  expect(vi.mocked(addWebhookJobs).mock.calls[0][0]).toEqual([
    { deliveries: [{ deliveryId: expect.any(Number), attempt: 0 }] },
  ]);
});
