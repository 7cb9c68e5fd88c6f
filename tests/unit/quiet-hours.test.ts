import { describe, expect, it } from "vitest";
import { QUIET_HOURS_INTENT, QuietHoursSchema } from "#app/modules/quiet-hours/schemas.ts";
import { countryOfNumber, zoneOfCountry, zoneOfNumber } from "#app/modules/quiet-hours/recipient-zone.ts";
import { MOST_POPULOUS_ZONE } from "#app/modules/quiet-hours/most-populous-zone.ts";
import { SINGLE_ZONE_COUNTRIES } from "#app/modules/quiet-hours/single-zone-countries.ts";
import { formatTimeOfDay, parseTimeOfDay, quietUntil } from "#app/modules/quiet-hours/window.ts";
import { isValidTimeZone } from "#app/utils/time-zone.ts";

const NIGHT = { startMinute: 21 * 60, endMinute: 8 * 60 }; // 21:00-08:00, wraps midnight
const LUNCH = { startMinute: 12 * 60, endMinute: 14 * 60 };
const utc = (iso: string) => Date.parse(iso);

describe("quietUntil", () => {
  it("holds a message inside a window that wraps midnight until its end, the same or the next day", () => {
    expect(quietUntil(NIGHT, "UTC", utc("2026-06-10T22:15:00Z"))).toBe(utc("2026-06-11T08:00:00Z"));
    expect(quietUntil(NIGHT, "UTC", utc("2026-06-10T21:00:00Z"))).toBe(utc("2026-06-11T08:00:00Z"));
    expect(quietUntil(NIGHT, "UTC", utc("2026-06-11T00:30:00Z"))).toBe(utc("2026-06-11T08:00:00Z"));
    expect(quietUntil(NIGHT, "UTC", utc("2026-06-11T07:59:00Z"))).toBe(utc("2026-06-11T08:00:00Z"));
  });

  it("lets a message outside the window go (the end itself is outside)", () => {
    expect(quietUntil(NIGHT, "UTC", utc("2026-06-11T08:00:00Z"))).toBeNull();
    expect(quietUntil(NIGHT, "UTC", utc("2026-06-11T20:59:00Z"))).toBeNull();
    expect(quietUntil(LUNCH, "UTC", utc("2026-06-11T11:59:00Z"))).toBeNull();
    expect(quietUntil(LUNCH, "UTC", utc("2026-06-11T14:00:00Z"))).toBeNull();
    expect(quietUntil(LUNCH, "UTC", utc("2026-06-11T13:00:00Z"))).toBe(utc("2026-06-11T14:00:00Z"));
  });

  it("counts in the recipient's zone: the same instant is night in New York and day in Tokyo", () => {
    const at = utc("2026-06-11T03:00:00Z"); // 23:00 in New York (EDT), 12:00 in Tokyo
    expect(quietUntil(NIGHT, "America/New_York", at)).toBe(utc("2026-06-11T12:00:00Z")); // 08:00 EDT
    expect(quietUntil(NIGHT, "Asia/Tokyo", at)).toBeNull();
  });

  it("ends at 08:00 on the wall clock across New York's fall back (a night of ten hours)", () => {
    // 23:00 EDT on 31 October; the clocks go back at 02:00 on 1 November 2026, so 08:00 is EST (UTC-5).
    expect(quietUntil(NIGHT, "America/New_York", utc("2026-11-01T03:00:00Z"))).toBe(utc("2026-11-01T13:00:00Z"));
    // 01:30 happens twice that night; either way the window ends at 08:00 EST.
    expect(quietUntil(NIGHT, "America/New_York", utc("2026-11-01T05:30:00Z"))).toBe(utc("2026-11-01T13:00:00Z"));
    expect(quietUntil(NIGHT, "America/New_York", utc("2026-11-01T06:30:00Z"))).toBe(utc("2026-11-01T13:00:00Z"));
  });

  it("ends at 08:00 on the wall clock across Berlin's spring forward (a night of ten hours less one)", () => {
    // 00:00 CET on 29 March 2026; the clocks jump from 02:00 to 03:00, so 08:00 is CEST (UTC+2).
    expect(quietUntil(NIGHT, "Europe/Berlin", utc("2026-03-28T23:00:00Z"))).toBe(utc("2026-03-29T06:00:00Z"));
    // An end inside the skipped hour is the moment the clocks jump past it: 02:30 becomes 03:30 CEST.
    const toHalfPastTwo = { startMinute: 22 * 60, endMinute: 2 * 60 + 30 };
    expect(quietUntil(toHalfPastTwo, "Europe/Berlin", utc("2026-03-28T23:00:00Z"))).toBe(utc("2026-03-29T01:30:00Z"));
  });
});

describe("the recipient's zone from the number", () => {
  it("uses the only zone of a one-zone country and the most populous of a country with several", () => {
    expect(zoneOfNumber("+4930123456")).toBe("Europe/Berlin");
    expect(zoneOfNumber("+33612345678")).toBe("Europe/Paris");
    expect(zoneOfNumber("+12125550123")).toBe("America/New_York");
    expect(zoneOfNumber("+14165550123")).toBe("America/Toronto"); // +1 416: Canada, by the area code
    expect(zoneOfNumber("+79161234567")).toBe("Europe/Moscow");
    expect(zoneOfNumber("+61212345678")).toBe("Australia/Sydney");
    expect(zoneOfNumber("+5511912345678")).toBe("America/Sao_Paulo");
    expect(zoneOfNumber("+6281234567890")).toBe("Asia/Jakarta");
    expect(countryOfNumber("+77012345678")).toBe("KZ"); // +7 7xx: Kazakhstan, not Russia
    expect(zoneOfNumber("+77012345678")).toBe("Asia/Almaty");
  });

  it("knows nothing of a calling code no country has", () => {
    expect(zoneOfNumber("+9991234567")).toBeNull();
    expect(zoneOfCountry("AQ")).toBeNull();
  });

  it("names only zones this runtime knows", () => {
    for (const zone of [...Object.values(SINGLE_ZONE_COUNTRIES), ...Object.values(MOST_POPULOUS_ZONE)])
      expect(isValidTimeZone(zone), zone).toBe(true);
  });
});

describe("the settings form", () => {
  const parse = (fields: Record<string, string>) =>
    QuietHoursSchema.safeParse({ intent: QUIET_HOURS_INTENT, enabled: true, ...fields });

  it("reads HH:MM and allows a window across midnight", () => {
    expect(parse({ start: "21:00", end: "08:00" })).toMatchObject({ success: true, data: { start: 1260, end: 480 } });
    expect(parseTimeOfDay("7:00")).toBeNull();
    expect(formatTimeOfDay(480)).toBe("08:00");
  });

  it("says what is wrong next to the field", () => {
    const badTime = parse({ start: "25:00", end: "08:00" });
    expect(badTime.error?.issues.map((i) => [i.path.join("."), i.message])).toEqual([
      ["start", "Enter the start time as HH:MM (24-hour), e.g. 21:00"],
    ]);
    const same = parse({ start: "08:00", end: "08:00" });
    expect(same.error?.issues[0].path).toEqual(["end"]);
  });
});
