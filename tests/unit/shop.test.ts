import { describe, expect, it } from "vitest";
import { cardSchema, isExpired, parseExpiry, passesLuhn } from "../../app/modules/payments/card.ts";
import { inspectImage } from "../../app/modules/shop/images.server.ts";
import { nextStatuses, parseAdminOrderQuery } from "../../app/modules/shop/orders.ts";
import { dollarsToCents, parseHomeFilters } from "../../app/modules/shop/packages.ts";

/** SOI, an APP0 segment, then a start-of-frame segment declaring the size. */
function jpeg(width: number, height: number, frameMarker = 0xc0) {
  const app0 = [0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00];
  const sof = [0xff, frameMarker, 0x00, 0x11, 0x08, height >> 8, height & 0xff, width >> 8, width & 0xff, 0x03, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1];
  return new Uint8Array([0xff, 0xd8, ...app0, ...sof, 0xff, 0xd9]);
}

describe("card checks", () => {
  it("knows Luhn", () => {
    for (const n of ["4242424242424242", "4000000000000002", "4000000000009995", "5555555555554444"]) expect(passesLuhn(n)).toBe(true);
    expect(passesLuhn("4242424242424241")).toBe(false);
  });

  it("reads expiry dates and treats the expiry month as still valid", () => {
    expect(parseExpiry("04/27")).toEqual({ month: 4, year: 2027 });
    expect(parseExpiry("4 / 2031")).toEqual({ month: 4, year: 2031 });
    expect(parseExpiry("13/27")).toBeNull();
    expect(parseExpiry("0427")).toBeNull();
    const now = new Date(Date.UTC(2026, 10, 22));
    expect(isExpired({ month: 11, year: 2026 }, now)).toBe(false);
    expect(isExpired({ month: 10, year: 2026 }, now)).toBe(true);
  });

  it("gives each field its own message", () => {
    const schema = cardSchema(() => new Date(Date.UTC(2026, 0, 1)));
    expect(schema.safeParse({ cardNumber: "4242 4242 4242 4242", expiry: "01/26", cvc: "123" }).success).toBe(true);
    const bad = schema.safeParse({ cardNumber: "4242", expiry: "12/25", cvc: "12" });
    expect(bad.error?.issues.map((i) => [i.path[0], i.message])).toEqual([
      ["cardNumber", "Your card number is incomplete."],
      ["expiry", "Your card's expiration date is in the past."],
      ["cvc", "Your card's security code is incomplete."],
    ]);
  });
});

describe("image inspection by content", () => {
  it("reads JPEG sizes from baseline and progressive frames", () => {
    expect(inspectImage(jpeg(640, 480))).toEqual({ ok: true, info: { type: "jpeg", width: 640, height: 480 } });
    expect(inspectImage(jpeg(800, 600, 0xc2))).toEqual({ ok: true, info: { type: "jpeg", width: 800, height: 600 } });
  });

  it("refuses other formats, truncated headers and huge declared sizes", () => {
    expect(inspectImage(new TextEncoder().encode("GIF89a...."))).toEqual({ ok: false, error: "File Must be in jpeg, jpg or png" });
    expect(inspectImage(new Uint8Array([0x89, 0x50, 0x4e, 0x47]))).toEqual({ ok: false, error: "File Must be in jpeg, jpg or png" });
    expect(inspectImage(jpeg(20_000, 100))).toEqual({ ok: false, error: "Image must be at most 10,000 pixels on each side" });
  });
});

describe("URL state and money", () => {
  it("parses dollars into cents exactly", () => {
    expect(dollarsToCents("40")).toBe(4000);
    expect(dollarsToCents("$0.1")).toBe(10);
    expect(dollarsToCents("19.99")).toBe(1999);
    expect(dollarsToCents("1.999")).toBeNull();
    expect(dollarsToCents("-1")).toBeNull();
  });

  it("falls back to the defaults for unknown values", () => {
    expect(parseHomeFilters(new URLSearchParams("sort=cheapest&category=soup&q=%20x%20"))).toEqual({ q: "x", sort: "name-asc", category: "" });
    expect(parseAdminOrderQuery(new URLSearchParams("size=15&page=3&status=Cancelled"))).toEqual({ q: "", status: "Cancelled", page: 3, size: 15 });
    expect(parseAdminOrderQuery(new URLSearchParams("size=100&page=abc"))).toMatchObject({ page: 1, size: 5 });
  });

  it("lets paid orders move along, pending ones only be cancelled, cancelled ones nowhere", () => {
    expect(nextStatuses("Pending")).toEqual(["Cancelled"]);
    expect(nextStatuses("Cancelled")).toEqual([]);
    expect(nextStatuses("Confirmed")).toEqual(["Being Cooked", "Ready for Pickup", "Completed", "Cancelled"]);
  });
});
