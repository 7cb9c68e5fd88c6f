// The dashboards' local days: pure, with "now" injected.
import { describe, expect, it } from "vitest";
import { lastLocalDays, parsePeriod } from "#app/modules/insight/periods.ts";

const HOUR = 3_600_000;
const at = (iso: string) => Date.parse(iso);

describe("lastLocalDays", () => {
  it("ends with today in the zone and starts each day at its local midnight", () => {
    // 02:00Z on 05-12 is still 05-11 in New York.
    const days = lastLocalDays(3, "America/New_York", at("2026-05-12T02:00:00Z"));
    expect(days.map((d) => d.date)).toEqual(["2026-05-09", "2026-05-10", "2026-05-11"]);
    expect(days[0].start).toBe(at("2026-05-09T04:00:00Z"));
    expect(days.at(-1)!.end).toBe(at("2026-05-12T04:00:00Z"));
    days.slice(1).forEach((day, i) => expect(day.start).toBe(days[i].end));
  });

  it("gives a DST change's day 23 or 25 hours", () => {
    const spring = lastLocalDays(3, "America/New_York", at("2026-03-09T12:00:00Z"));
    expect(spring.map((d) => [d.date, (d.end - d.start) / HOUR])).toEqual([
      ["2026-03-07", 24],
      ["2026-03-08", 23],
      ["2026-03-09", 24],
    ]);
    const fall = lastLocalDays(2, "Europe/London", at("2026-10-26T12:00:00Z"));
    expect(fall.map((d) => [d.date, (d.end - d.start) / HOUR])).toEqual([
      ["2026-10-25", 25],
      ["2026-10-26", 24],
    ]);
  });

  it("handles zones a quarter or half hour off", () => {
    const [day] = lastLocalDays(1, "Asia/Kathmandu", at("2026-03-09T18:15:00Z"));
    expect(day).toEqual({ date: "2026-03-10", start: at("2026-03-09T18:15:00Z"), end: at("2026-03-10T18:15:00Z") });
  });
});

describe("parsePeriod", () => {
  it("accepts 7, 30 and 90 and falls back to 7", () => {
    expect([parsePeriod("7"), parsePeriod("30"), parsePeriod("90")]).toEqual([7, 30, 90]);
    expect([parsePeriod(null), parsePeriod("31"), parsePeriod("30.0"), parsePeriod("")]).toEqual([7, 7, 7, 7]);
  });
});
