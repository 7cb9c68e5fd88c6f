// The one executor on PostgreSQL (decision 127): the domain's builder queries over the SQLite tables,
// its raw statements, and withTx (SERIALIZABLE, run again when PostgreSQL refuses an overlap). Runs in
// the "postgres" project only (tests/postgres-files.ts), on a migrated database of its own.
import { asc, eq, sql } from "drizzle-orm";
import pg from "pg";
import { describe, expect, it } from "vitest";
import {
  afterCommit,
  getDb,
  MESSAGE_STATE_TURN,
  getSqlite,
  read,
  runningTransaction,
  usesPostgres,
  withTx,
} from "#app/db/client.server.ts";
import { alias } from "#app/db/dialect.server.ts";
import { users } from "#app/db/schema/core.ts";
import { packages } from "#app/db/schema/shop.ts";
import { sqlText, statementFor, statements } from "#app/db/statements.server.ts";
import { getEnv } from "#app/utils/env.server.ts";
import { workCounters } from "#app/utils/work-counts.server.ts";
import { sendQueuedMessages } from "#app/modules/sms/dispatch.server.ts";
import { queueMessage } from "#app/modules/sms/send.server.ts";
import { createTestUser } from "#tests/support/requests.ts";
import { acceptAll, grantCredits, messageRow, outboxHas } from "#tests/support/sms.ts";
import { waitFor } from "#tests/support/wait.ts";

const queries = statements({
  countNamed: sqlText<[string], { n: number }>("select count(*) as n from packages where name = ?"),
  namesLike: sqlText<[string, number], { packageName: string }>(
    "select name as packageName from packages where name like ? and credits >= ? order by name",
  ),
  renameAll: sqlText<[string, string]>("update packages set description = ? where name like ?"),
  creditsBetween: sqlText<[{ low: number; high: number }], { name: string }>(
    "select name from packages where credits >= @low and credits <= @high and name <> '@low' order by name",
  ),
  ownPid: sqlText<[], { pid: number }>("select pg_backend_pid() as pid"),
  preparedHere: sqlText<[], { statement: string }>(
    "select statement from pg_prepared_statements where not from_sql order by statement",
  ),
  otherConnections: sqlText<[], { n: number }>(
    "select count(*)::int as n from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()",
  ),
  endOtherConnections: sqlText<[], unknown>(
    "select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()",
  ),
  insertNamed: sqlText<[string]>({
    sqlite: "insert into packages (name, price_cents, credits) values (?, 100, 1)",
    postgres: "insert into packages (name, price_cents, credits) values ($1, 100, 1) returning id",
  }),
});

const named = async (name: string) => (await queries.countNamed.get(name))!.n;

async function insertPackage(name: string, credits = 10) {
  return (await getDb()
    .insert(packages)
    .values({ name, priceCents: 100, credits })
    .returning({ id: packages.id })
    .get())!.id;
}

describe("the executor on PostgreSQL", () => {
  it("runs on PostgreSQL when DATABASE_URL is set, and refuses the raw SQLite connection", () => {
    expect(usesPostgres()).toBe(true);
    expect(() => getSqlite()).toThrow("the database is PostgreSQL");
  });

  it("answers the builder's terminals over the SQLite tables as SQLite does", async () => {
    const id = await insertPackage("pg-terminals", 25);
    const row = await getDb().select().from(packages).where(eq(packages.id, id)).get();
    expect(row).toMatchObject({ id, name: "pg-terminals", credits: 25, description: "", category: "appetizer" });
    expect(row!.createdAt).toBeInstanceOf(Date);
    expect(await getDb().select({ name: packages.name }).from(packages).where(eq(packages.id, id)).all()).toEqual([
      { name: "pg-terminals" },
    ]);
    expect(
      await getDb()
        .select({ name: packages.name, credits: packages.credits })
        .from(packages)
        .where(eq(packages.id, id))
        .values(),
    ).toEqual([["pg-terminals", 25]]);
    const updated = await getDb().update(packages).set({ credits: 30 }).where(eq(packages.id, id)).run();
    expect(updated.changes).toBe(1);
    const awaited = await getDb().update(packages).set({ credits: 31 }).where(eq(packages.name, "pg-none"));
    expect((awaited as unknown as { changes: number }).changes).toBe(0);
    expect(await getDb().select().from(packages).where(eq(packages.name, "pg-none")).get()).toBeUndefined();
  });

  it("joins a table with an alias of another", async () => {
    const [owner] = await getDb()
      .insert(users)
      .values({ email: "pg-join@example.com", fullName: "Join Owner", passwordHash: "x" })
      .returning({ id: users.id });
    const actors = alias(users, "actors");
    const rows = await getDb()
      .select({ email: users.email, actor: actors.fullName, verified: users.emailVerified })
      .from(users)
      .innerJoin(actors, eq(actors.id, users.id))
      .where(eq(users.id, owner!.id))
      .all();
    expect(rows).toEqual([{ email: "pg-join@example.com", actor: "Join Owner", verified: true }]);
  });

  it("runs raw statements with numbered placeholders and keeps camel-case names", async () => {
    await insertPackage("pg-raw-b", 5);
    await insertPackage("pg-raw-a", 50);
    await insertPackage("pg-raw-c", 500);
    expect(await queries.namesLike.all("pg-raw-%", 10)).toEqual([
      { packageName: "pg-raw-a" },
      { packageName: "pg-raw-c" },
    ]);
    expect((await queries.renameAll.run("renamed ?", "pg-raw-%")).changes).toBe(3);
    expect(await named("pg-raw-a")).toBe(1);
    const descriptions = await getDb()
      .select({ description: packages.description })
      .from(packages)
      .where(sql`${packages.name} like 'pg-raw-%'`)
      .orderBy(asc(packages.name))
      .all();
    expect(descriptions.map((row) => row.description)).toEqual(["renamed ?", "renamed ?", "renamed ?"]);
  });

  it("takes named parameters (@name) as one object, and gives an insert's returned id as lastInsertRowid", async () => {
    await insertPackage("pg-named-a", 7);
    await insertPackage("pg-named-b", 70);
    expect(await queries.creditsBetween.all({ low: 7, high: 8 })).toEqual([{ name: "pg-named-a" }]);
    const { lastInsertRowid } = await queries.insertNamed.run("pg-named-c");
    const row = await getDb()
      .select()
      .from(packages)
      .where(eq(packages.id, Number(lastInsertRowid)))
      .get();
    expect(row?.name).toBe("pg-named-c");
  });

  it("prepares a table's statements once per connection, and plans a list's shaped ones each time", async () => {
    await insertPackage("pg-prepared", 3);
    const prepared = await withTx(async () => {
      for (let run = 0; run < 3; run++) expect(await named("pg-prepared")).toBe(1);
      await statementFor<[string], { name: string }>("select name from packages where name = ?").all("pg-prepared");
      return (await queries.preparedHere.all()).map((row) => row.statement);
    });
    expect(prepared.filter((text) => text.includes("from packages where name = $1"))).toEqual([
      "select count(*) as n from packages where name = $1",
    ]);
  });

  it("outlives idle pooled connections the server ends, and runs the next statement on a new one", async () => {
    await Promise.all([insertPackage("pg-ended-a"), insertPackage("pg-ended-b")]);
    await withTx(async () => await queries.endOtherConnections.all());
    await waitFor(async () => (await queries.otherConnections.get())!.n === 0, { what: "the ended connections gone" });
    expect(await named("pg-ended-a")).toBe(1);
  });

  it("runs a transaction again when the server ends its connection before COMMIT, as a restart does", async () => {
    let tries = 0;
    await withTx(async () => {
      tries += 1;
      if (tries === 1) {
        // Ended from outside, mid-transaction: what `pg_ctl restart --mode fast` does to every session.
        const { pid } = (await queries.ownPid.get())!;
        const admin = new pg.Client({ connectionString: getEnv().DATABASE_URL });
        await admin.connect();
        await admin.query("select pg_terminate_backend($1)", [pid]);
        await admin.end();
      }
      await insertPackage("pg-restarted");
    });
    expect(tries).toBe(2);
    expect(await named("pg-restarted")).toBe(1);
  });

  it("runs a transaction again when the server ends its connection after its last statement, before COMMIT is sent", async () => {
    // The driver's own "error" events, to wait until it has heard its session end.
    const heard: unknown[] = [];
    const emit = pg.Client.prototype.emit;
    pg.Client.prototype.emit = function (this: pg.Client, event: string | symbol, ...args: unknown[]) {
      if (event === "error") heard.push(args[0]);
      return emit.call(this, event, ...args);
    };
    let tries = 0;
    try {
      await withTx(async () => {
        tries += 1;
        await insertPackage("pg-ended-before-commit");
        if (tries > 1) return;
        // The session ends while the transaction waits for its caller: node-postgres hears it (often in
        // the packet that carried the last answer) and refuses to send the COMMIT.
        const { pid } = (await queries.ownPid.get())!;
        const admin = new pg.Client({ connectionString: getEnv().DATABASE_URL });
        await admin.connect();
        await admin.query("select pg_terminate_backend($1)", [pid]);
        await admin.end();
        await waitFor(() => heard.length > 0, { what: "the driver told its session ended" });
      });
    } finally {
      pg.Client.prototype.emit = emit;
    }
    expect(tries).toBe(2);
    expect(await named("pg-ended-before-commit")).toBe(1);
  });

  /**
   * Runs `work` with the answer to the next statement `picked` names lost, as a restart gives: the
   * connection goes before the answer comes. `ran`: the server got the statement and ran it (a COMMIT:
   * committed it); else it never got it, and rolls the transaction back when it sees the connection gone.
   */
  async function withAnswerLost<T>(picked: (text: string) => boolean, ran: boolean, work: () => Promise<T>) {
    const query = pg.Client.prototype.query;
    const send = query as (this: pg.Client, ...args: unknown[]) => Promise<unknown>;
    let cut = false;
    pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
      const text = typeof args[0] === "string" ? args[0] : ((args[0] as { text?: string }).text ?? "");
      if (cut || !picked(text)) return send.apply(this, args);
      cut = true;
      return (async () => {
        if (ran) await send.apply(this, args);
        (this as unknown as { connection: { stream: { destroy(): void } } }).connection.stream.destroy();
        throw new Error("Connection terminated unexpectedly");
      })();
    } as typeof query;
    try {
      return await work();
    } finally {
      pg.Client.prototype.query = query;
    }
  }

  /** `work` with its next COMMIT cut off as a restart would after sending it (`committed`: the server had committed it). */
  const withCommitCutOff = <T>(committed: boolean, work: () => Promise<T>): Promise<T> =>
    withAnswerLost((text) => text === "COMMIT", committed, work);

  it("looks up a COMMIT cut off after it was sent: committed, it is a success; rolled back, it runs again", async () => {
    const ran: string[] = [];
    let tries = 0;
    const answer = await withCommitCutOff(true, () =>
      withTx(
        async () => {
          tries += 1;
          await insertPackage("pg-cut-off-committed");
          afterCommit(() => ran.push("after commit"));
          return "recorded";
        },
        { lookUpCutOffCommit: true },
      ),
    );
    expect({ answer, tries, ran }).toEqual({ answer: "recorded", tries: 1, ran: ["after commit"] });
    expect(await named("pg-cut-off-committed")).toBe(1);

    tries = 0;
    await withCommitCutOff(false, () =>
      withTx(
        async () => {
          tries += 1;
          await insertPackage("pg-cut-off-rolled-back");
        },
        { lookUpCutOffCommit: true },
      ),
    );
    expect(tries).toBe(2);
    expect(await named("pg-cut-off-rolled-back")).toBe(1);

    // Without the option the caller gets the error: the transaction may have committed.
    await expect(
      withCommitCutOff(true, () => withTx(async () => void (await insertPackage("pg-cut-off-unasked")))),
    ).rejects.toThrow("Connection terminated unexpectedly");
    expect(await named("pg-cut-off-unasked")).toBe(1);
  });

  describe("the worker's claim (queued to submitting)", () => {
    /**
     * Runs `work` with the answer to the next claim lost after the server ran it, as a restart right
     * then gives. A claim that committed by itself (an autocommit statement) left its messages
     * submitting, never sent.
     */
    const withClaimAnswerLost = <T>(work: () => Promise<T>): Promise<T> =>
      withAnswerLost((text) => text.includes("set status = 'submitting'"), true, work);

    async function queued(body: string) {
      const user = await createTestUser();
      await grantCredits(user.id, 5);
      return (await queueMessage(user.id, { to: "+12025550197", body })).id;
    }

    it("claims again when a restart takes the claim's answer: the message is sent, not left submitting", async () => {
      const id = await queued("claimed across a restart");
      const outcomes = await withClaimAnswerLost(() => sendQueuedMessages(acceptAll, [id]));
      expect(outcomes.get(id)).toEqual({ kind: "submitted" });
      expect(await messageRow(id)).toMatchObject({ status: "submitted", attempts: 1 });
      expect(await outboxHas(id)).toBe(false);
    });

    it("looks up a claim whose COMMIT a restart cut off: committed, its message is sent", async () => {
      const id = await queued("claim committed unseen");
      const outcomes = await withCommitCutOff(true, () => sendQueuedMessages(acceptAll, [id]));
      expect(outcomes.get(id)).toEqual({ kind: "submitted" });
      expect(await messageRow(id)).toMatchObject({ status: "submitted", attempts: 1 });
    });
  });

  it("commits a transaction, then runs its after-commit work; a rollback leaves nothing and runs none", async () => {
    const ran: string[] = [];
    await withTx(async () => {
      await insertPackage("pg-committed");
      afterCommit(() => ran.push("committed"));
      expect(runningTransaction()).not.toBeNull();
      // Outside the transaction (the pool) the uncommitted row is not there yet.
      expect(ran).toEqual([]);
    });
    expect(ran).toEqual(["committed"]);
    expect(await named("pg-committed")).toBe(1);
    await expect(
      withTx(async () => {
        await insertPackage("pg-rolled-back");
        afterCommit(() => ran.push("rolled back"));
        throw new Error("rolled back on purpose");
      }),
    ).rejects.toThrow("rolled back on purpose");
    expect(await named("pg-rolled-back")).toBe(0);
    expect(ran).toEqual(["committed"]);
    expect(runningTransaction()).toBeNull();
  });

  it("keeps a transaction's uncommitted writes from statements of other chains", async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let inserted!: () => void;
    const insertedYet = new Promise<void>((resolve) => (inserted = resolve));
    const transaction = withTx(async () => {
      await insertPackage("pg-isolated");
      inserted();
      await held;
    });
    await insertedYet;
    expect(await named("pg-isolated")).toBe(0);
    release();
    await transaction;
    expect(await named("pg-isolated")).toBe(1);
  });

  it("rolls a savepoint back without the outer transaction", async () => {
    await withTx(async () => {
      await insertPackage("pg-outer");
      await expect(
        withTx(async () => {
          await insertPackage("pg-inner");
          throw new Error("inner fails");
        }),
      ).rejects.toThrow("inner fails");
      expect(await named("pg-inner")).toBe(0);
    });
    expect(await named("pg-outer")).toBe(1);
    expect(await named("pg-inner")).toBe(0);
  });

  it("lets concurrent count-then-insert transactions through one at a time, as SQLite's one writer did", async () => {
    // Twenty transactions each insert only when none exists yet: SERIALIZABLE refuses the overlaps, withTx runs them again.
    const attempts = Array.from({ length: 20 }, () =>
      withTx(async () => {
        if ((await named("pg-only-one")) > 0) return false;
        await insertPackage("pg-only-one");
        return true;
      }),
    );
    const inserted = (await Promise.all(attempts)).filter(Boolean);
    expect(inserted).toHaveLength(1);
    expect(await named("pg-only-one")).toBe(1);
  });

  it("runs the transactions of one turn one at a time, each seeing what the one before committed", async () => {
    // The first holds the turn, uncommitted, until the second has asked for it.
    let holding!: () => void;
    const held = new Promise<void>((resolve) => (holding = resolve));
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const first = withTx(
      async () => {
        await insertPackage("pg-turn");
        holding();
        await released;
      },
      { turn: MESSAGE_STATE_TURN },
    );
    await held;
    let secondSaw: number | undefined;
    const second = withTx(
      async () => {
        secondSaw = await named("pg-turn");
        if (secondSaw === 0) await insertPackage("pg-turn");
      },
      { turn: MESSAGE_STATE_TURN },
    );
    // A transaction without the turn is not held up by it.
    expect(await withTx(() => named("pg-turn"))).toBe(0);
    expect(secondSaw).toBeUndefined();
    release();
    await Promise.all([first, second]);
    expect(secondSaw).toBe(1);
    expect(await named("pg-turn")).toBe(1);
  });

  it("lets READ COMMITTED transactions wait on a row instead of refusing each other", async () => {
    // Thirty guarded increments of one row at once: each waits for the one before it, none is run again.
    const id = await insertPackage("pg-hot-row");
    const retriesBefore = workCounters().busyRetries;
    await Promise.all(
      Array.from({ length: 30 }, () =>
        withTx(
          () =>
            getDb()
              .update(packages)
              .set({ credits: sql`${packages.credits} + 1` })
              .where(eq(packages.id, id))
              .run(),
          {
            readCommitted: true,
          },
        ),
      ),
    );
    const row = await getDb().select({ credits: packages.credits }).from(packages).where(eq(packages.id, id)).get();
    expect(row!.credits).toBe(10 + 30);
    expect(workCounters().busyRetries).toBe(retriesBefore);
  });

  it("reads one snapshot in read()", async () => {
    await insertPackage("pg-snapshot");
    let firstRead!: () => void;
    const readOnce = new Promise<void>((resolve) => (firstRead = resolve));
    let written!: () => void;
    const writtenMeanwhile = new Promise<void>((resolve) => (written = resolve));
    const reading = read(async () => {
      const before = await named("pg-snapshot");
      firstRead();
      await writtenMeanwhile;
      return [before, await named("pg-snapshot")];
    });
    await readOnce;
    await insertPackage("pg-snapshot");
    written();
    expect(await reading).toEqual([1, 1]);
    expect(await named("pg-snapshot")).toBe(2);
  });

  it("leaves a text's NUL characters out, which PostgreSQL cannot store, instead of failing", async () => {
    const id = await insertPackage("pg-nul\u0000name");
    expect((await getDb().select({ name: packages.name }).from(packages).where(eq(packages.id, id)).get())!.name).toBe(
      "pg-nulname",
    );
    expect(await named("pg-nul\u0000name")).toBe(1);
  });

  it("binds a NaN as NULL, as SQLite does: a look-up by a malformed id finds nothing instead of failing", async () => {
    expect(
      await getDb()
        .select()
        .from(packages)
        .where(eq(packages.id, Number("abc")))
        .get(),
    ).toBeUndefined();
    expect(await getDb().delete(packages).where(eq(packages.id, Number.NaN)).returning().all()).toEqual([]);
    expect(await queries.countNamed.get(Number.NaN as unknown as string)).toEqual({ n: 0 });
  });
});
