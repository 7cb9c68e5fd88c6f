import { describe, expect, it } from "vitest";
import {
  creditsPerSegmentIn,
  isUniform,
  matchingPrefix,
  parsePrefix,
  pricedFor,
  priceListOf,
} from "#app/modules/pricing/price-list.ts";

describe("the longest-prefix look-up", () => {
  const list = priceListOf([
    { prefix: "44", creditsPerSegment: 2 },
    { prefix: "447", creditsPerSegment: 3 },
    { prefix: "4479", creditsPerSegment: 5 },
  ]);

  it("takes the longest prefix the number starts with, else 1 (or the * row)", () => {
    expect(matchingPrefix(list, "+447911123456")).toBe("4479");
    expect(creditsPerSegmentIn(list, "+447911123456")).toBe(5);
    expect(creditsPerSegmentIn(list, "+447011123456")).toBe(3);
    expect(creditsPerSegmentIn(list, "+442071234567")).toBe(2);
    expect(creditsPerSegmentIn(list, "+12025550100")).toBe(1);
    const withDefault = priceListOf([{ prefix: "*", creditsPerSegment: 4 }]);
    expect(creditsPerSegmentIn(withDefault, "+12025550100")).toBe(4);
    expect(isUniform(withDefault)).toBe(true);
    expect(isUniform(list)).toBe(false);
  });

  it("prices a count by its segments, the same object when nothing changes", () => {
    const count = { segments: 2, credits: 2 };
    expect(pricedFor(count, list, "+447911123456")).toEqual({ segments: 2, credits: 10 });
    expect(pricedFor(count, list, "+12025550100")).toBe(count);
  });
});

describe("a prefix as typed", () => {
  it.each([
    ["+44 7911", { prefix: "447911" }],
    ["44-79", { prefix: "4479" }],
    [" * ", { prefix: "*" }],
    ["", { error: "Prefix is required: country code and digits, such as +44 7700, or * for all" }],
    ["+0", { error: "A prefix starts with the country code, which never starts with 0" }],
    ["+44a", { error: "A prefix is digits after an optional +, such as +44 7700, or *" }],
    ["1234567890123456", { error: "A prefix has at most 15 digits" }],
  ])("%j", (input, expected) => {
    expect(parsePrefix(input)).toEqual(expected);
  });
});
