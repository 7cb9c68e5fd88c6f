import { describe, expect, it } from "vitest";
import { normalizePhone, phoneField } from "#app/modules/messaging/phone.ts";

describe("normalizePhone", () => {
  it("reads local numbers with the default country", () => {
    expect(normalizePhone("(202) 555-0123", "US")).toEqual({ ok: true, e164: "+12025550123" });
    expect(normalizePhone("202.555.0123", "US")).toEqual({ ok: true, e164: "+12025550123" });
    expect(normalizePhone("07911 123456", "GB")).toEqual({ ok: true, e164: "+447911123456" });
    expect(normalizePhone("030 901820", "DE")).toMatchObject({ ok: true, e164: "+4930901820" });
  });

  it("keeps international numbers whatever the default country", () => {
    expect(normalizePhone("+44 7911 123456", "US")).toEqual({ ok: true, e164: "+447911123456" });
    expect(normalizePhone("+1 202 555 0123", "GB")).toEqual({ ok: true, e164: "+12025550123" });
    expect(normalizePhone(" +4915123456789 ", "US")).toEqual({ ok: true, e164: "+4915123456789" });
  });

  it("refuses junk and names it", () => {
    for (const junk of [
      "abc",
      "12345",
      "+999123",
      "202555012x",
      "07911 123456",
      "++12025550123",
      "+1 202 555 0123 ext 5",
    ]) {
      expect(normalizePhone(junk, "US"), junk).toEqual({ ok: false, error: `"${junk}" is not a valid phone number` });
    }
  });
});

describe("phoneField", () => {
  it("yields E.164 or a field error naming the number", () => {
    const field = phoneField("US");
    expect(field.parse(" 202-555-0123 ")).toBe("+12025550123");
    const result = field.safeParse("555-CALL");
    expect(result.success).toBe(false);
    expect(result.error?.issues[0].message).toBe('"555-CALL" is not a valid phone number');
    expect(field.safeParse("").error?.issues[0].message).toBe("Phone number is required");
  });
});

describe("normalizePhone's cost", () => {
  // libphonenumber-js compiled a metadata pattern per check, up to 16 a number (+44); patches/ keeps
  // them compiled (decision 145). A number seen first still compiles one pattern (the national
  // prefix's), a local one two: a count, so it holds on any machine.
  it("compiles at most two patterns a number once warm", () => {
    const numbers = ["+12025550123", "+447911123456", "+4915112345678", "+33612345678", "+819012345678"];
    for (const number of numbers) normalizePhone(number, "US");
    normalizePhone("(202) 555-0188", "US");
    const Original = globalThis.RegExp;
    let compiled = 0;
    globalThis.RegExp = new Proxy(Original, {
      construct(target, args: [string, string?]) {
        compiled++;
        return Reflect.construct(target, args);
      },
    });
    const perNumber = new Map<string, number>();
    try {
      for (const number of [...numbers, "(202) 555-0188"]) {
        compiled = 0;
        // Other numbers of the same plan: the last digit changed.
        for (let digit = 0; digit < 10; digit++) normalizePhone(number.replace(/\d$/, String(digit)), "US");
        perNumber.set(number, compiled / 10);
      }
    } finally {
      globalThis.RegExp = Original;
    }
    for (const [number, count] of perNumber) expect(count, number).toBeLessThanOrEqual(2);
  });
});
