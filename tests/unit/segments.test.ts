import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { messageBodyField } from "#app/modules/messaging/schemas.ts";
import { countSegments, encodeGsm7, splitMessage } from "#app/modules/messaging/segments.ts";

const gsm = (n: number) => "a".repeat(n);
const ucs2 = (n: number) => "ж".repeat(n);

describe("countSegments: GSM-7", () => {
  it("fits 160 characters in one segment and needs two for 161", () => {
    expect(countSegments(gsm(160))).toMatchObject({
      encoding: "GSM-7",
      characters: 160,
      units: 160,
      segments: 1,
      credits: 1,
      remaining: 0,
    });
    expect(countSegments(gsm(161))).toMatchObject({
      encoding: "GSM-7",
      segments: 2,
      perSegment: 153,
      credits: 2,
      remaining: 145,
    });
  });

  it("fits 153 x 2 in two parts and needs three for one more", () => {
    expect(countSegments(gsm(306))).toMatchObject({ segments: 2, remaining: 0 });
    expect(countSegments(gsm(307))).toMatchObject({ segments: 3, credits: 3, remaining: 152 });
  });

  it("counts the extension characters as two", () => {
    expect(countSegments("[]{}")).toMatchObject({ characters: 4, units: 8, segments: 1 });
    expect(countSegments("€".repeat(80))).toMatchObject({ encoding: "GSM-7", units: 160, segments: 1 });
    expect(countSegments("€".repeat(81))).toMatchObject({ segments: 2 });
    for (const c of "^{}\\[~]|€") expect(countSegments(c).units, c).toBe(2);
  });

  it("never splits an escape pair across parts", () => {
    // 152 plain characters, then "[" needs 2 septets: it moves whole to part 2.
    const body = `${gsm(152)}[${gsm(10)}`;
    const split = splitMessage(body);
    expect(split.parts).toHaveLength(2);
    expect(split.parts[0]).toBe(gsm(152));
    expect(split.parts[1]).toBe(`[${gsm(10)}`);
    expect(countSegments(body).segments).toBe(2);
    // One plain character less and the pair ends part 1 exactly.
    expect(splitMessage(`${gsm(151)}[${gsm(10)}`).parts[0]).toBe(`${gsm(151)}[`);
  });

  it("moves the segment count when an escape pair would straddle a boundary", () => {
    // 306 septets would fill two parts exactly, but the pair cannot split, so part 1 holds 152: three parts.
    const body = `${gsm(152)}[${gsm(152)}`;
    expect(countSegments(body)).toMatchObject({ units: 306, segments: 3 });
  });
});

describe("countSegments: UCS-2", () => {
  it("fits 70 in one segment and needs two for 71", () => {
    expect(countSegments(ucs2(70))).toMatchObject({ encoding: "UCS-2", segments: 1, remaining: 0 });
    expect(countSegments(ucs2(71))).toMatchObject({ encoding: "UCS-2", segments: 2, perSegment: 67 });
  });

  it("fits 67 x 2 in two parts", () => {
    expect(countSegments(ucs2(134))).toMatchObject({ segments: 2, remaining: 0 });
    expect(countSegments(ucs2(135))).toMatchObject({ segments: 3 });
  });

  it("counts an emoji as two UTF-16 code units and never splits it", () => {
    expect(countSegments("😀")).toMatchObject({
      encoding: "UCS-2",
      characters: 1,
      units: 2,
      segments: 1,
      nonGsm: ["😀"],
    });
    expect(countSegments("😀".repeat(35))).toMatchObject({ units: 70, segments: 1 });
    const split = splitMessage("😀".repeat(36));
    expect(split.parts.map((p) => p.length)).toEqual([66, 6]);
    expect(countSegments(`hello 😀`)).toMatchObject({ encoding: "UCS-2", characters: 7, units: 8 });
  });

  it("is UCS-2 as soon as one character is outside the GSM alphabet", () => {
    expect(countSegments(`${gsm(100)}’`)).toMatchObject({ encoding: "UCS-2", segments: 2, nonGsm: ["’"] });
  });
});

/** The septets of a character, or null when GSM-7 cannot carry it. */
function encodeGsm7Safe(char: string): Uint8Array | null {
  try {
    return encodeGsm7(char);
  } catch {
    return null;
  }
}

describe("splitMessage", () => {
  it("loses and adds nothing, and every part fits", () => {
    const alphabet = fc.constantFrom(..."abc €[]^Ωж😀\n".split(/(?:)/u));
    fc.assert(
      fc.property(
        fc.array(alphabet, { maxLength: 800 }).map((a) => a.join("")),
        (body) => {
          const split = splitMessage(body);
          expect(split.parts.join("")).toBe(body);
          const limit =
            split.parts.length > 1 ? (split.encoding === "GSM-7" ? 153 : 67) : split.encoding === "GSM-7" ? 160 : 70;
          for (const part of split.parts) {
            const units = split.encoding === "GSM-7" ? encodeGsm7(part).length : part.length;
            expect(units).toBeLessThanOrEqual(limit);
            // No part starts with a lone low surrogate.
            expect(/^[\uDC00-\uDFFF]/.test(part)).toBe(false);
          }
          const count = countSegments(body);
          expect(count.segments).toBe(split.parts.length);
          expect(count.characters).toBe(Array.from(body).length);
          const last = split.parts.at(-1) ?? "";
          const lastUnits = split.encoding === "GSM-7" ? encodeGsm7(last).length : last.length;
          expect(count.remaining).toBe(count.perSegment - lastUnits);
          const outside = Array.from(body).filter((c) => encodeGsm7Safe(c) === null);
          expect(split.nonGsm).toEqual([...new Set(outside)]);
        },
      ),
    );
  });

  it("encodes GSM-7 as unpacked septets with escapes", () => {
    expect([...encodeGsm7("@£$ [€]")]).toEqual([0x00, 0x01, 0x02, 0x20, 0x1b, 0x3c, 0x1b, 0x65, 0x1b, 0x3e]);
  });
});

describe("messageBodyField", () => {
  it("requires text, stores LF line breaks and stops at the segment limit", () => {
    const field = messageBodyField(10);
    expect(field.parse("a\r\nb")).toBe("a\nb");
    expect(field.safeParse("   ").error?.issues[0].message).toBe("Message is required");
    expect(field.safeParse("a".repeat(1530)).success).toBe(true);
    expect(field.safeParse("a".repeat(1531)).error?.issues[0].message).toBe(
      "Message is too long: 11 segments, the maximum is 10",
    );
    expect(field.safeParse("a".repeat(1_000_000)).error?.issues[0].message).toBe(
      "Message is too long: more than 10 segments, the maximum is 10",
    );
  });
});
