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
