// When a schedule's messages go out: pure functions, with "now" injected.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  describeRecurrence,
  endDateOf,
  endOfDate,
  isOccurrence,
  latestOccurrence,
  nextOccurrence,
  type Recurrence,
  repeatOptionsOf,
  scheduleRepeatStrategy,
  TIMING_MESSAGES,
  timingIssues,
} from "#app/modules/scheduling/recurrence.ts";
import { createScheduleSmsSchema, SCHEDULE_FORM_MESSAGES } from "#app/modules/scheduling/schemas.ts";
import { formatLocalDateTime, instantOf, parseLocalDateTime, wallTimeAt } from "#app/utils/time-zone.ts";

const NY = "America/New_York";
const LONDON = "Europe/London";
const utc = (iso: string) => Date.parse(iso);
const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString().replace(".000Z", "Z"));

/** A rule from the wall time a user enters and an inclusive end date, as the form makes it. */
function rule(
  repeat: Recurrence["repeat"],
  local: string,
  timeZone: string,
  endDate: string | null = null,
): Recurrence {
  return {
    repeat,
    firstSendAt: instantOf(parseLocalDateTime(local)!, timeZone).ms,
    timeZone,
    endsAt: endDate === null ? null : endOfDate(endDate, timeZone),
  };
}

/** Every occurrence, walking from just before the first one (bounded). */
function occurrences(r: Recurrence, limit = 50): string[] {
  const out: string[] = [];
  for (let at = nextOccurrence(r, r.firstSendAt - 1); at !== null && out.length < limit; at = nextOccurrence(r, at))
    out.push(iso(at)!);
  return out;
}

/** The same, as wall times in the rule's zone. */
function localOccurrences(r: Recurrence, limit = 50): string[] {
  return occurrences(r, limit).map((at) => formatLocalDateTime(wallTimeAt(utc(at), r.timeZone)));
}

describe("time zones", () => {
  it("a wall time the clocks skip moves on by the gap; one that happens twice is the first", () => {
    // New York springs forward at 02:00 on 2026-03-08 and falls back at 02:00 on 2026-11-01.
    expect(instantOf(parseLocalDateTime("2026-03-08T02:30")!, NY)).toEqual({
      ms: utc("2026-03-08T07:30:00Z"),
      skipped: true,
    });
    expect(wallTimeAt(utc("2026-03-08T07:30:00Z"), NY)).toMatchObject({ hour: 3, minute: 30 });
    expect(instantOf(parseLocalDateTime("2026-11-01T01:30")!, NY)).toEqual({
      ms: utc("2026-11-01T05:30:00Z"),
      skipped: false,
    });
    // London springs forward at 01:00 GMT on 2026-03-29.
    expect(instantOf(parseLocalDateTime("2026-03-29T01:30")!, LONDON)).toEqual({
      ms: utc("2026-03-29T01:30:00Z"),
      skipped: true,
    });
    expect(instantOf(parseLocalDateTime("2026-10-25T01:30")!, LONDON).ms).toBe(utc("2026-10-25T00:30:00Z"));
  });

  it("an end date ends at the next local midnight", () => {
    expect(iso(endOfDate("2026-03-10", NY))).toBe("2026-03-11T04:00:00Z");
    expect(endDateOf(endOfDate("2026-03-10", NY), NY)).toBe("2026-03-10");
    expect(iso(endOfDate("2026-10-25", LONDON))).toBe("2026-10-26T00:00:00Z");
  });
});

describe("occurrences", () => {
  it("a one-off happens once", () => {
    const once = rule("none", "2026-05-01T09:00", NY, "2026-12-31");
    expect(occurrences(once)).toEqual(["2026-05-01T13:00:00Z"]);
    expect(nextOccurrence(once, utc("2026-05-01T13:00:00Z"))).toBeNull();
  });

  it("daily 09:00 stays 09:00 in New York across the spring change, and stops after the end date", () => {
    const daily = rule("daily", "2026-03-06T09:00", NY, "2026-03-10");
    expect(occurrences(daily)).toEqual([
      "2026-03-06T14:00:00Z",
      "2026-03-07T14:00:00Z",
      "2026-03-08T13:00:00Z", // EDT from here
      "2026-03-09T13:00:00Z",
      "2026-03-10T13:00:00Z",
    ]);
    expect(new Set(localOccurrences(daily).map((local) => local.slice(11)))).toEqual(new Set(["09:00"]));
  });

  it("daily 09:00 stays 09:00 in New York across the autumn change", () => {
    expect(occurrences(rule("daily", "2026-10-31T09:00", NY, "2026-11-02"))).toEqual([
      "2026-10-31T13:00:00Z",
      "2026-11-01T14:00:00Z",
      "2026-11-02T14:00:00Z",
    ]);
  });

  it("daily 09:00 stays 09:00 in London across both changes", () => {
    expect(occurrences(rule("daily", "2026-03-28T09:00", LONDON, "2026-03-30"))).toEqual([
      "2026-03-28T09:00:00Z",
      "2026-03-29T08:00:00Z",
      "2026-03-30T08:00:00Z",
    ]);
    expect(occurrences(rule("daily", "2026-10-24T09:00", LONDON, "2026-10-26"))).toEqual([
      "2026-10-24T08:00:00Z",
      "2026-10-25T09:00:00Z",
      "2026-10-26T09:00:00Z",
    ]);
  });

  it("a daily time the clocks skip that day goes out an hour later that day only; a doubled one goes out once", () => {
    expect(localOccurrences(rule("daily", "2026-03-07T02:30", NY, "2026-03-09"))).toEqual([
      "2026-03-07T02:30",
      "2026-03-08T03:30",
      "2026-03-09T02:30",
    ]);
    expect(occurrences(rule("daily", "2026-10-31T01:30", NY, "2026-11-02"))).toEqual([
      "2026-10-31T05:30:00Z",
      "2026-11-01T05:30:00Z", // the first 01:30 (EDT) only
      "2026-11-02T06:30:00Z",
    ]);
  });

  it("weekly keeps the weekday and the wall time across London's spring change; the end date is inclusive", () => {
    const weekly = rule("weekly", "2026-03-23T08:00", LONDON, "2026-04-06");
    expect(occurrences(weekly)).toEqual(["2026-03-23T08:00:00Z", "2026-03-30T07:00:00Z", "2026-04-06T07:00:00Z"]);
    expect(describeRecurrence(weekly)).toBe("Weekly on Monday at 08:00");
  });

  it("an occurrence late on the end date is in, in the rule's zone", () => {
    // 23:30 in New York on the end date is already the next day in UTC.
    expect(occurrences(rule("daily", "2026-03-09T23:30", NY, "2026-03-10"))).toEqual([
      "2026-03-10T03:30:00Z",
      "2026-03-11T03:30:00Z",
    ]);
  });

  it("monthly on the 31st falls on the last day of shorter months, and on the 31st again after them", () => {
    const monthly = rule("monthly", "2026-01-31T09:00", "UTC", "2026-07-31");
    expect(localOccurrences(monthly)).toEqual([
      "2026-01-31T09:00",
      "2026-02-28T09:00",
      "2026-03-31T09:00",
      "2026-04-30T09:00",
      "2026-05-31T09:00",
      "2026-06-30T09:00",
      "2026-07-31T09:00",
    ]);
    expect(describeRecurrence(monthly)).toBe("Monthly on the 31st at 09:00 (or the month's last day)");
  });

  it("monthly on the 29th and 30th: February of leap and common years", () => {
    expect(localOccurrences(rule("monthly", "2027-12-29T10:00", NY, "2028-03-31"))).toEqual([
      "2027-12-29T10:00",
      "2028-01-29T10:00",
      "2028-02-29T10:00",
      "2028-03-29T10:00",
    ]);
    expect(localOccurrences(rule("monthly", "2026-01-30T10:00", NY, "2026-03-30"))).toEqual([
      "2026-01-30T10:00",
      "2026-02-28T10:00",
      "2026-03-30T10:00",
    ]);
  });

  it("monthly keeps the wall time across New York's change and runs past the year end", () => {
    expect(occurrences(rule("monthly", "2026-02-15T09:00", NY, "2026-04-15"))).toEqual([
      "2026-02-15T14:00:00Z",
      "2026-03-15T13:00:00Z",
      "2026-04-15T13:00:00Z",
    ]);
    expect(localOccurrences(rule("monthly", "2026-11-30T18:00", LONDON, "2027-02-28"))).toEqual([
      "2026-11-30T18:00",
      "2026-12-30T18:00",
      "2027-01-30T18:00",
      "2027-02-28T18:00",
    ]);
  });

  it("without an end date it repeats on and on", () => {
    const daily = rule("daily", "2026-01-01T07:05", NY);
    expect(iso(nextOccurrence(daily, utc("2030-06-15T12:00:00Z")))).toBe("2030-06-16T11:05:00Z");
    expect(occurrences(daily, 400)).toHaveLength(400);
  });

  it("the next occurrence from any moment is the first of the walk after it (any zone, repeat and start)", () => {
    const zones = [NY, LONDON, "UTC", "Australia/Sydney", "Asia/Kolkata", "America/Santiago"];
    fc.assert(
      fc.property(
        fc.constantFrom("daily" as const, "weekly" as const, "monthly" as const),
        fc.constantFrom(...zones),
        fc.integer({ min: utc("2025-01-01T00:00:00Z"), max: utc("2030-01-01T00:00:00Z") }),
        fc.integer({ min: 0, max: 800 * 86_400_000 }),
        (repeat, timeZone, start, offset) => {
          const r: Recurrence = { repeat, firstSendAt: Math.floor(start / 300_000) * 300_000, timeZone, endsAt: null };
          const after = r.firstSendAt + offset;
          const next = nextOccurrence(r, after)!;
          expect(next).toBeGreaterThan(after);
          expect(isOccurrence(r, next)).toBe(true);
          // Nothing in between: the occurrence before `next` is at or before `after`.
          expect(latestOccurrence(r, r.firstSendAt, next - 1)!).toBeLessThanOrEqual(after);
        },
      ),
      { numRuns: 150 },
    );
  });

  it("knows its own occurrences and the latest one due", () => {
    const daily = rule("daily", "2026-03-06T09:00", NY, "2026-03-10");
    expect(isOccurrence(daily, utc("2026-03-08T13:00:00Z"))).toBe(true);
    expect(isOccurrence(daily, utc("2026-03-08T14:00:00Z"))).toBe(false);
    expect(isOccurrence(daily, utc("2026-03-11T13:00:00Z"))).toBe(false); // past the end
    expect(iso(latestOccurrence(daily, daily.firstSendAt, utc("2026-03-09T12:00:00Z")))).toBe("2026-03-08T13:00:00Z");
    expect(iso(latestOccurrence(daily, daily.firstSendAt, utc("2027-01-01T00:00:00Z")))).toBe("2026-03-10T13:00:00Z");
    expect(latestOccurrence(daily, daily.firstSendAt, daily.firstSendAt - 1)).toBeNull();
  });

  it("BullMQ's repeat strategy reads the rule back from the scheduler's options", () => {
    const monthly = rule("monthly", "2026-01-31T09:00", NY, "2026-04-30");
    const options = repeatOptionsOf(monthly);
    expect(options).toMatchObject({ pattern: "monthly", tz: NY });
    expect(iso(scheduleRepeatStrategy(utc("2026-01-01T00:00:00Z"), options) ?? null)).toBe("2026-01-31T14:00:00Z");
    expect(iso(scheduleRepeatStrategy(utc("2026-01-31T14:00:00Z"), options) ?? null)).toBe("2026-02-28T14:00:00Z");
    expect(scheduleRepeatStrategy(utc("2026-04-30T13:00:00Z"), options)).toBeUndefined();
  });
});

describe("the rules of a new schedule, with an injected now", () => {
  const now = utc("2026-03-10T12:00:00Z");

  it("the first send must be in the future", () => {
    const input = { firstSendAt: now, timeZone: NY, repeat: "none" as const, endDate: null };
    expect(timingIssues(input, now)).toEqual([{ field: "firstSend", message: TIMING_MESSAGES.past }]);
    expect(timingIssues({ ...input, firstSendAt: now + 60_000 }, now)).toEqual([]);
  });

  it("a repeating schedule ends on or after the first send's date, in its zone; a one-off ignores the end", () => {
    // 23:30 on 2026-03-10 in New York is 03:30 UTC on the 11th: ending on the 10th is fine.
    const late = { firstSendAt: utc("2026-03-11T03:30:00Z"), timeZone: NY, repeat: "daily" as const };
    expect(timingIssues({ ...late, endDate: "2026-03-10" }, now)).toEqual([]);
    expect(timingIssues({ ...late, endDate: "2026-03-09" }, now)).toEqual([
      { field: "endDate", message: TIMING_MESSAGES.endBeforeStart },
    ]);
    expect(timingIssues({ ...late, repeat: "none", endDate: "2026-03-09" }, now)).toEqual([]);
  });
});

describe("the Schedule SMS form's schema", () => {
  const now = utc("2026-03-10T12:00:00Z");
  const schema = createScheduleSmsSchema({ defaultCountry: "US", maxSegments: 10, now });
  const valid = {
    firstSend: "2026-03-12T09:05",
    repeat: "daily",
    endDate: "2026-03-20",
    timeZone: LONDON,
    phoneNumber: "(202) 555-0123",
    message: "Hi",
  };
  const errorsOf = (input: Record<string, unknown>) => {
    const result = schema.safeParse(input);
    return result.success
      ? {}
      : Object.fromEntries(result.error.issues.map((issue) => [String(issue.path[0]), issue.message]));
  };

  it("turns the wall time in the chosen zone into UTC", () => {
    expect(schema.parse(valid)).toEqual({
      firstSendAt: utc("2026-03-12T09:05:00Z"),
      timeZone: LONDON,
      repeat: "daily",
      endDate: "2026-03-20",
      phoneNumber: "+12025550123",
      message: "Hi",
    });
    expect(schema.parse({ ...valid, timeZone: NY, repeat: undefined }).firstSendAt).toBe(utc("2026-03-12T13:05:00Z"));
    expect(schema.parse({ ...valid, repeat: "none" }).endDate).toBeNull();
  });

  it("names every bad field at once", () => {
    expect(errorsOf({ ...valid, firstSend: "2026-03-10T11:00", phoneNumber: "555-CALL-NOW", message: " " })).toEqual({
      firstSend: TIMING_MESSAGES.past,
      phoneNumber: '"555-CALL-NOW" is not a valid phone number',
      message: "Message is required",
    });
    expect(errorsOf({ ...valid, endDate: "2026-03-11" })).toEqual({ endDate: TIMING_MESSAGES.endBeforeStart });
    expect(errorsOf({ ...valid, firstSend: "2026-03-12T09:07" })).toEqual({ firstSend: SCHEDULE_FORM_MESSAGES.step });
    expect(errorsOf({ ...valid, firstSend: undefined })).toEqual({ firstSend: SCHEDULE_FORM_MESSAGES.startRequired });
    expect(errorsOf({ ...valid, firstSend: "next tuesday" })).toEqual({
      firstSend: SCHEDULE_FORM_MESSAGES.startFormat,
    });
    expect(errorsOf({ ...valid, timeZone: "Mars/Olympus_Mons" })).toEqual({
      timeZone: SCHEDULE_FORM_MESSAGES.zoneUnknown,
    });
    expect(errorsOf({ ...valid, endDate: "2026-02-30" })).toEqual({ endDate: SCHEDULE_FORM_MESSAGES.endFormat });
  });

  it("refuses a time the clocks skip, and ignores the end date of a one-off", () => {
    expect(errorsOf({ ...valid, firstSend: "2026-03-29T01:30" })).toEqual({
      firstSend: SCHEDULE_FORM_MESSAGES.skipped(LONDON),
    });
    expect(errorsOf({ ...valid, repeat: "none", endDate: "garbage" })).toEqual({});
  });
});
