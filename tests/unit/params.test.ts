// Ids from URLs and forms: only a positive safe integer names a record; anything else names none,
// the same on both engines (PostgreSQL refuses a fractional bigint parameter with an error).
import { describe, expect, it } from "vitest";
import { idOf, positiveInt } from "#app/web/params.ts";

describe("ids from requests", () => {
  it("takes a positive safe integer and nothing else", () => {
    expect(positiveInt("42")).toBe(42);
    for (const value of ["", "0", "-3", "1.5", "-5e-324", "1e300", "9007199254740993", "abc", null, undefined])
      expect(positiveInt(value), String(value)).toBeUndefined();
  });

  it("gives 0, which no row has, for a malformed id or a file", () => {
    expect(idOf("7")).toBe(7);
    expect(idOf("-5e-324")).toBe(0);
    expect(idOf("1.5")).toBe(0);
    expect(idOf(null)).toBe(0);
    expect(idOf(new File(["1"], "id.txt"))).toBe(0);
  });
});
