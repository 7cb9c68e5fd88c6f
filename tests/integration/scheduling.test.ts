// Scheduled SMS against a real Redis: BullMQ's job schedulers fire occurrences, which go through the
// normal send path; the test clock stands in for the days between repeats.
import { count, eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "#app/db/client.server.ts";
import { users } from "#app/db/schema/core.ts";
import { schedules } from "#app/db/schema/scheduling.ts";
import { NotFoundError } from "#app/modules/contacts/errors.ts";
import { book, getBalance } from "#app/modules/credits/ledger.server.ts";
import { nextOccurrence } from "#app/modules/scheduling/recurrence.ts";
import { INSUFFICIENT_CREDITS_REASON, MISSED_REASON, runOccurrence } from "#app/modules/scheduling/runner.server.ts";
import { SCHEDULE_CANCELLED, SCHEDULE_FAILED, SMS_SCHEDULED } from "#app/routes/sms/forms/schedule-sms.server.ts";
import {
  cancelSchedule,
  createSchedule,
  getSchedule,
  listSchedules,
  ScheduleInputError,
  ScheduleNotFoundError,
} from "#app/modules/scheduling/schedules.server.ts";
import { applyReceipts } from "#app/modules/sms/dispatch.server.ts";
import { SimulatorTransport } from "#app/modules/sms/transports/simulator.server.ts";
import { action as scheduleAction, loader as scheduleLoader } from "#app/routes/sms/schedule-sms.tsx";
import { action as scheduledAction, loader as scheduledLoader } from "#app/routes/sms/scheduled.tsx";
import { scheduleQueue } from "#app/modules/scheduling/job-schedulers.server.ts";
import { resetClock, setClock } from "#app/utils/clock.server.ts";
import { formatDate, wallTimeAt } from "#app/utils/time-zone.ts";
import { createSmsSendJob } from "#worker/jobs/sms-send.ts";
import { smsSchedule } from "#worker/jobs/sms-schedule.ts";
import { type RunningWorkers, startWorkers } from "#worker/workers.ts";
import { call, createTestUser, dataOf, locationOf, makeRequest, statusOf } from "#tests/support/requests.ts";
import {
  occurrenceJob,
  scheduleMessages,
  scheduleSoon,
  schedulerOf,
  sentOccurrences,
  tick,
} from "#tests/support/schedules.ts";
import { grantCredits, waitForStatus } from "#tests/support/sms.ts";
import { waitFor } from "#tests/support/wait.ts";

type Reply = { status?: string; error?: Record<string, string[] | null> };

let workers: RunningWorkers;

beforeAll(async () => {
  workers = await startWorkers([
    smsSchedule,
    createSmsSendJob(() => new SimulatorTransport({ dlrMs: 5, onReceipts: applyReceipts })),
  ]);
});
afterAll(async () => {
  await workers.close();
});
afterEach(() => resetClock());

const NY = "America/New_York";

async function schedulesOf(userId: number): Promise<number> {
  return (await getDb().select({ n: count() }).from(schedules).where(eq(schedules.userId, userId)).get())!.n;
}

async function customer(credits: number) {
  const user = await createTestUser();
  await grantCredits(user.id, credits);
  return user;
}

/** The first occurrence sent and the schedule moved on (its message is stored before the schedule row). */
function waitForFirstOccurrence(userId: number, scheduleId: number) {
  return waitFor(
    async () =>
      (await sentOccurrences(scheduleId)).length === 1 &&
      (await getSchedule(userId, scheduleId))?.nextRunAt !== (await sentOccurrences(scheduleId))[0],
    { what: "the first occurrence" },
  );
}

describe("running schedules with BullMQ", () => {
  it("a schedule due in a moment sends exactly one message, then completes and leaves Redis", async () => {
    const user = await customer(5);
    const schedule = await scheduleSoon(user.id, { body: "Due soon" });
    expect(await schedulerOf(schedule.id)).toMatchObject({ pattern: "none", tz: "UTC", next: schedule.firstSendAt });

    await waitFor(async () => (await getSchedule(user.id, schedule.id))?.status === "completed", {
      what: "the schedule to complete",
    });
    const [message] = await scheduleMessages(schedule.id);
    expect(await scheduleMessages(schedule.id)).toHaveLength(1);
    expect(message).toMatchObject({ source: "schedule", toPhone: "+12025550180", body: "Due soon" });
    expect(message.occurrenceAt?.getTime()).toBe(schedule.firstSendAt);
    await waitForStatus(message.id, "delivered");
    expect(await getBalance(user.id)).toBe(4);
    expect(await getSchedule(user.id, schedule.id)).toMatchObject({ nextRunAt: null, finishedAt: expect.any(Number) });
    await waitFor(async () => (await schedulerOf(schedule.id)) === undefined, { what: "the job scheduler to go" });
  });

  it("a repeating schedule sends on each tick and stops after its end date", async () => {
    const user = await customer(10);
    const firstSendAt = Date.now() + 1_500;
    const endDate = formatDate(wallTimeAt(firstSendAt + 2 * 86_400_000, NY));
    const schedule = await scheduleSoon(user.id, { repeat: "daily", timeZone: NY, firstSendAt, endDate });
    const first = schedule.firstSendAt;
    expect(await schedulerOf(schedule.id)).toMatchObject({ pattern: "daily", tz: NY, endDate: expect.any(Number) });

    // The first tick on BullMQ's own timing; the next two by moving the clock to each one.
    await waitForFirstOccurrence(user.id, schedule.id);
    const second = await tick(user.id, schedule.id);
    const third = await tick(user.id, schedule.id);

    const rule = { repeat: "daily" as const, firstSendAt: first, timeZone: NY, endsAt: null };
    expect(second).toBe(nextOccurrence(rule, first));
    expect(third).toBe(nextOccurrence(rule, second));
    expect(await sentOccurrences(schedule.id)).toEqual([first, second, third]);
    expect(await getSchedule(user.id, schedule.id)).toMatchObject({ status: "completed", nextRunAt: null, endDate });
    expect(await getBalance(user.id)).toBe(7);
    await waitFor(async () => (await schedulerOf(schedule.id)) === undefined, { what: "the job scheduler to go" });
    expect(await scheduleQueue().getDelayedCount()).toBe(0);
  });

  it("cancel stops the future occurrences and leaves what was sent alone", async () => {
    const user = await customer(10);
    const schedule = await scheduleSoon(user.id, { repeat: "weekly" });
    await waitForFirstOccurrence(user.id, schedule.id);
    const [sent] = await scheduleMessages(schedule.id);
    const next = (await getSchedule(user.id, schedule.id))!.nextRunAt!;
    await waitFor(() => occurrenceJob(schedule.id, next), { what: "the next occurrence's job" });

    const cancelled = await cancelSchedule(user.id, schedule.id);
    expect(cancelled).toMatchObject({ status: "cancelled", nextRunAt: null });
    expect(await schedulerOf(schedule.id)).toBeUndefined();
    expect(await occurrenceJob(schedule.id, next)).toBeUndefined();

    // Even a tick that had already started when it was cancelled sends nothing.
    setClock(() => next);
    expect(await runOccurrence(schedule.id, next)).toBe("inactive");
    expect((await scheduleMessages(schedule.id)).map((m) => m.id)).toEqual([sent.id]);
    expect(await getBalance(user.id)).toBe(9);
    // Cancelling again changes nothing; another user's id is not found.
    expect(await cancelSchedule(user.id, schedule.id)).toEqual(cancelled);
    const other = await createTestUser();
    await expect(cancelSchedule(other.id, schedule.id)).rejects.toBeInstanceOf(ScheduleNotFoundError);
  });
});

describe("an occurrence", () => {
  async function daily(credits: number, body = "Daily reminder") {
    const user = await customer(credits);
    const schedule = await createSchedule(user.id, {
      target: { kind: "phone", to: "+447911123456" },
      body,
      repeat: "daily",
      firstSendAt: Date.now() + 3_600_000,
      timeZone: "Europe/London",
    });
    return { user, schedule, at: schedule.firstSendAt };
  }

  it("run twice at once sends once and charges once", async () => {
    const { user, schedule, at } = await daily(5);
    setClock(() => at);
    const outcomes = await Promise.all([
      runOccurrence(schedule.id, at),
      runOccurrence(schedule.id, at),
      runOccurrence(schedule.id, at),
    ]);
    expect(outcomes).toContain("queued");
    expect(outcomes.filter((o) => o === "queued")).toHaveLength(1);
    expect(await scheduleMessages(schedule.id)).toHaveLength(1);
    expect(await getBalance(user.id)).toBe(4);
    expect(await runOccurrence(schedule.id, at)).toBe("handled");
    expect((await getSchedule(user.id, schedule.id))?.nextRunAt).toBe(at + 86_400_000);
  });

  it("without enough credits is a failed message that costs nothing, and the schedule goes on", async () => {
    const { user, schedule, at } = await daily(2, "x".repeat(200));
    // Spent elsewhere since it was scheduled (scheduling checks one occurrence's cost, reserves nothing).
    await book({ userId: user.id, kind: "debit", amount: -1, key: `spent:${user.id}` });
    setClock(() => at);
    expect(await runOccurrence(schedule.id, at)).toBe("insufficient-credits");
    const [failed] = await scheduleMessages(schedule.id);
    expect(failed).toMatchObject({ status: "failed", credits: 0, segments: 2 });
    expect(failed.error).toBe(`${INSUFFICIENT_CREDITS_REASON}: 2 needed, 1 available`);
    expect(await getBalance(user.id)).toBe(1);
    expect(await getSchedule(user.id, schedule.id)).toMatchObject({ status: "active", nextRunAt: at + 86_400_000 });

    // Credits bought later do not resend that occurrence; the next one goes out.
    await grantCredits(user.id, 5);
    expect(await runOccurrence(schedule.id, at)).toBe("handled");
    setClock(() => at + 86_400_000);
    expect(await runOccurrence(schedule.id, at + 86_400_000)).toBe("queued");
    // It goes out: the file's worker may have claimed it already (a read of `queued` raced it), and delivers it.
    const [first, next] = await scheduleMessages(schedule.id);
    expect(first.status).toBe("failed");
    await waitForStatus(next.id, "delivered");
    expect(await getBalance(user.id)).toBe(4);
  });

  it("is not sent early, nor at a time that is not one of its occurrences", async () => {
    const { schedule, at } = await daily(5);
    setClock(() => at - 60_000);
    expect(await runOccurrence(schedule.id, at)).toBe("not-due");
    setClock(() => at + 1_000);
    expect(await runOccurrence(schedule.id, at + 1_000)).toBe("not-an-occurrence");
    expect(await scheduleMessages(schedule.id)).toHaveLength(0);
  });

  it("far too late (nothing ran at its time) is recorded as missed, not sent", async () => {
    const { user, schedule, at } = await daily(5);
    setClock(() => at + 2 * 3_600_000);
    expect(await runOccurrence(schedule.id, at)).toBe("missed");
    expect(await scheduleMessages(schedule.id)).toMatchObject([{ status: "failed", error: MISSED_REASON, credits: 0 }]);
    expect(await getBalance(user.id)).toBe(5);
    expect((await getSchedule(user.id, schedule.id))?.nextRunAt).toBe(at + 86_400_000);
  });
});

describe("creating schedules", () => {
  it("refuses bad input with typed errors and creates nothing", async () => {
    const user = await customer(5);
    const valid = {
      target: { kind: "phone" as const, to: "+12025550181" },
      body: "Hi",
      repeat: "daily" as const,
      timeZone: NY,
      firstSendAt: Date.now() + 600_000,
    };
    const issuesOf = (input: Partial<typeof valid> & Record<string, unknown>) =>
      createSchedule(user.id, { ...valid, ...input }).then(
        () => null,
        (error: unknown) => (error instanceof ScheduleInputError ? error.issues.map((i) => i.field) : error),
      );
    expect(await issuesOf({ firstSendAt: Date.now() - 1 })).toEqual(["firstSend"]);
    expect(await issuesOf({ endDate: "2000-01-01" })).toEqual(["endDate"]);
    expect(await issuesOf({ target: { kind: "phone", to: "12345" }, body: "" })).toEqual(["target", "body"]);
    expect(await issuesOf({ timeZone: "Nowhere/Land" })).toEqual(["timeZone"]);
    // A group that is not the user's is not found.
    expect(await issuesOf({ target: { kind: "group", groupId: 1 } } as never)).toBeInstanceOf(NotFoundError);
    expect(await schedulesOf(user.id)).toBe(0);
    expect(await listSchedules(user.id)).toMatchObject({ schedules: [], total: 0, totalPages: 1 });
  });
});

describe("the Schedule SMS screen", () => {
  const form = (overrides: Record<string, string> = {}) => ({
    firstSend: "2030-01-15T09:00",
    repeat: "weekly",
    endDate: "2030-03-01",
    timeZone: "Europe/London",
    phoneNumber: "+44 7911 123456",
    message: "Weekly team call at 9",
    ...overrides,
  });
  const post = (user: { cookie: string }, fields: Record<string, string>) =>
    call(scheduleAction, makeRequest("/sms/scheduleSms", { user, form: fields }));

  it("schedules the message, keeps the zone on the profile and comes back to a clean form with the toast", async () => {
    const user = await customer(5);
    const loaded = dataOf<{ timeZone: string; timeZones: string[] }>(
      await call(scheduleLoader, makeRequest("/sms/scheduleSms", { user })),
    );
    expect(loaded.timeZone).toBe("UTC");
    expect(loaded.timeZones).toEqual(expect.arrayContaining(["UTC", "Europe/London", NY]));

    const result = (await post(user, form())) as Response;
    expect(locationOf(result)).toBe("/sms/scheduleSms");
    expect(result.headers.get("Set-Cookie")).toContain("en_toast=");
    const [schedule] = (await listSchedules(user.id)).schedules;
    expect(schedule).toMatchObject({
      target: { kind: "phone", to: "+447911123456" },
      repeat: "weekly",
      timeZone: "Europe/London",
      firstSendAt: Date.parse("2030-01-15T09:00:00Z"),
      endDate: "2030-03-01",
      status: "active",
    });
    expect(await schedulerOf(schedule.id)).toMatchObject({ next: schedule.firstSendAt, tz: "Europe/London" });
    expect(
      (await getDb().select({ timeZone: users.timeZone }).from(users).where(eq(users.id, user.id)).get())?.timeZone,
    ).toBe("Europe/London");
    // Scheduling reserves nothing: each occurrence pays when it runs.
    expect(await getBalance(user.id)).toBe(5);
    expect(SMS_SCHEDULED).toBe("SMS scheduled successfully!");
  });

  it("bad input gives field errors next to each field and changes nothing", async () => {
    const user = await customer(5);
    const errorsOf = async (fields: Record<string, string>) => {
      const result = await post(user, fields);
      expect(statusOf(result)).toBe(400);
      return dataOf<Reply>(result).error;
    };
    expect(await errorsOf(form({ firstSend: "2020-01-15T09:00" }))).toMatchObject({
      firstSend: ["The first send must be in the future"],
    });
    expect(await errorsOf(form({ endDate: "2030-01-14" }))).toMatchObject({
      endDate: ["End Date must be on or after the first send"],
    });
    expect(await errorsOf(form({ phoneNumber: "555-CALL-NOW" }))).toMatchObject({
      phoneNumber: ['"555-CALL-NOW" is not a valid phone number'],
    });
    expect(await errorsOf(form({ message: "" }))).toMatchObject({ message: ["Message is required"] });
    expect(await errorsOf(form({ firstSend: "2030-01-15T09:02" }))).toMatchObject({
      firstSend: [expect.stringContaining("5-minute step")],
    });
    expect(await errorsOf(form({ firstSend: "" }))).toMatchObject({ firstSend: ["Start date and time is required"] });
    // All at once.
    const all = await errorsOf(form({ firstSend: "2020-01-15T09:00", phoneNumber: "1", message: " " }));
    expect(Object.keys(all ?? {}).sort()).toEqual(["firstSend", "message", "phoneNumber"]);

    expect(await schedulesOf(user.id)).toBe(0);
    expect(await getBalance(user.id)).toBe(5);
    expect(
      (await getDb().select({ timeZone: users.timeZone }).from(users).where(eq(users.id, user.id)).get())?.timeZone,
    ).toBe("UTC");
  });

  it("a one-off ignores the end date the form always shows without JavaScript", async () => {
    const user = await customer(5);
    expect(locationOf(await post(user, form({ repeat: "none", endDate: "2001-01-01" })))).toBe("/sms/scheduleSms");
    expect((await listSchedules(user.id)).schedules[0]).toMatchObject({ repeat: "none", endDate: null });
  });

  it("refuses when the balance cannot pay one message, with the spec's words, and keeps the form", async () => {
    const user = await customer(1);
    const result = await post(user, form({ message: "y".repeat(200) }));
    expect(statusOf(result)).toBe(400);
    const reply = dataOf<Reply & { initialValue?: Record<string, unknown> }>(result);
    expect(reply.error?.[""]).toEqual([
      SCHEDULE_FAILED,
      "Each message costs 2 credits when it is sent; your balance is 1 credit.",
    ]);
    expect(reply.initialValue).toMatchObject({ message: "y".repeat(200), phoneNumber: "+44 7911 123456" });
    expect(await schedulesOf(user.id)).toBe(0);
  });

  it("Check cost (no JavaScript) answers with the counter and creates nothing", async () => {
    const user = await customer(5);
    const result = await post(user, { ...form(), intent: "check" });
    expect(statusOf(result)).toBe(200);
    expect(await schedulesOf(user.id)).toBe(0);
  });
});

describe("the Scheduled SMS list", () => {
  it("shows the owner's schedules only; cancel asks first, then stops it", async () => {
    const owner = await customer(5);
    const schedule = await createSchedule(owner.id, {
      target: { kind: "phone", to: "+12025550182" },
      body: "Owner's reminder",
      repeat: "monthly",
      firstSendAt: Date.parse("2030-01-31T14:00:00Z"),
      timeZone: NY,
      endDate: "2030-12-31",
    });
    const other = await customer(5);
    await createSchedule(other.id, {
      target: { kind: "phone", to: "+12025550183" },
      body: "Other's",
      repeat: "none",
      firstSendAt: Date.now() + 600_000,
      timeZone: "UTC",
    });

    const page = dataOf<{ schedules: { id: number; body: string }[]; confirming: unknown }>(
      await call(scheduledLoader, makeRequest("/sms/scheduled", { user: owner })),
    );
    expect(page.schedules.map((s) => s.body)).toEqual(["Owner's reminder"]);
    expect(page.confirming).toBeNull();

    const confirm = dataOf<{ confirming: { id: number } }>(
      await call(scheduledLoader, makeRequest(`/sms/scheduled?cancel=${schedule.id}`, { user: owner })),
    );
    expect(confirm.confirming.id).toBe(schedule.id);
    expect((await getSchedule(owner.id, schedule.id))?.status).toBe("active");

    // Someone else's id is a 404 (a thrown data(null, { status: 404 })), whether asked about or posted.
    const thrown = (promise: Promise<unknown>) => promise.catch((error: unknown) => error);
    expect(
      statusOf(
        await thrown(call(scheduledLoader, makeRequest(`/sms/scheduled?cancel=${schedule.id}`, { user: other }))),
      ),
    ).toBe(404);
    const refused = await thrown(
      call(
        scheduledAction,
        makeRequest("/sms/scheduled", { user: other, form: { intent: "cancel", id: String(schedule.id) } }),
      ),
    );
    expect(statusOf(refused)).toBe(404);
    expect((await getSchedule(owner.id, schedule.id))?.status).toBe("active");

    const result = (await call(
      scheduledAction,
      makeRequest("/sms/scheduled", { user: owner, form: { intent: "cancel", id: String(schedule.id) } }),
    )) as Response;
    expect(locationOf(result)).toBe("/sms/scheduled");
    expect(result.headers.get("Set-Cookie")).toContain("en_toast=");
    expect(await getSchedule(owner.id, schedule.id)).toMatchObject({ status: "cancelled", nextRunAt: null });
    expect(await schedulerOf(schedule.id)).toBeUndefined();
    expect(SCHEDULE_CANCELLED).toBe("Scheduled SMS cancelled.");
  });

  it("needs a session", async () => {
    const result = await call(scheduledLoader, makeRequest("/sms/scheduled"));
    expect(locationOf(result)).toBe("/login?redirectTo=%2Fsms%2Fscheduled");
  });
});
