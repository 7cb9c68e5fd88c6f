import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { cardSchema, isExpired, parseExpiry, passesLuhn } from "#app/modules/payments/card.ts";
import { inspectImage } from "#app/modules/shop/images.server.ts";
import { nextStatuses, parseAdminOrderQuery } from "#app/modules/shop/orders.ts";
import { dollarsToCents, parseHomeFilters } from "#app/modules/shop/packages.ts";
import { appended, jpeg, jpegComment, png, pngChunk } from "#tests/support/images.ts";

describe("card checks", () => {
  it("knows Luhn", () => {
    for (const n of ["4242424242424242", "4000000000000002", "4000000000009995", "5555555555554444"])
      expect(passesLuhn(n)).toBe(true);
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
  const TYPE = "File Must be in jpeg, jpg or png";
  const DAMAGED = "This image file is damaged or holds more than a picture: save it again from an image editor";
  const MARKUP = "This image file holds text such as a script or web page: save it again from an image editor";
  const DIMENSIONS = "Image must be at most 10,000 pixels on each side";
  const realPng = readFileSync(resolve("public/images/packages/credits-100.png"));

  it("reads PNG and JPEG sizes, baseline and progressive", () => {
    expect(inspectImage(png(320, 200))).toEqual({ ok: true, info: { type: "png", width: 320, height: 200 } });
    expect(inspectImage(realPng)).toMatchObject({ ok: true, info: { type: "png" } });
    expect(inspectImage(jpeg(640, 480))).toEqual({ ok: true, info: { type: "jpeg", width: 640, height: 480 } });
    expect(inspectImage(jpeg(800, 600, 0xc2))).toEqual({ ok: true, info: { type: "jpeg", width: 800, height: 600 } });
    // Harmless metadata stays allowed: text chunks, XMP, a comment, zero padding after EOI.
    const xmp = '<?xpacket begin="" id="W5M0MpCehiHzreSzNTczkc9d"?><x:xmpmeta xmlns:x="adobe:ns:meta/"></x:xmpmeta>';
    expect(
      inspectImage(
        png(10, 10, {
          extra: [pngChunk("tEXt", "Software\0GIMP 2.10"), pngChunk("iTXt", `XML:com.adobe.xmp\0\0\0\0\0${xmp}`)],
        }),
      ).ok,
    ).toBe(true);
    expect(inspectImage(jpeg(10, 10, 0xc0, [jpegComment("Created with GIMP")])).ok).toBe(true);
    expect(inspectImage(new Uint8Array([...jpeg(10, 10), 0, 0, 0])).ok).toBe(true);
  });

  it("refuses other formats, an SVG renamed .png, and truncated files", () => {
    expect(inspectImage(new TextEncoder().encode("GIF89a...."))).toEqual({ ok: false, error: TYPE });
    const svg = '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><script>alert(2)</script></svg>';
    expect(inspectImage(new TextEncoder().encode(svg))).toEqual({ ok: false, error: TYPE });
    expect(inspectImage(new TextEncoder().encode(`<?xml version="1.0"?>\n${svg}`))).toEqual({ ok: false, error: TYPE });
    expect(inspectImage(new Uint8Array([0x89, 0x50, 0x4e, 0x47]))).toEqual({ ok: false, error: TYPE });
    expect(inspectImage(png(10, 10).subarray(0, 40))).toEqual({ ok: false, error: DAMAGED });
    expect(inspectImage(jpeg(10, 10).subarray(0, 30))).toEqual({ ok: false, error: DAMAGED });
  });

  it("refuses polyglots: a payload after IEND or EOI, or markup in a chunk or segment", () => {
    expect(inspectImage(appended(realPng, "<html><script>alert(1)</script></html>"))).toEqual({
      ok: false,
      error: DAMAGED,
    });
    expect(inspectImage(appended(png(10, 10), "anything at all"))).toEqual({ ok: false, error: DAMAGED });
    expect(inspectImage(appended(jpeg(10, 10), "<script>alert(1)</script>"))).toEqual({ ok: false, error: DAMAGED });
    for (const payload of [
      "<script>alert(1)</script>",
      "<HTML><body onload=x>",
      "<?php system($_GET['c']); ?>",
      "<svg/onload=alert(1)>",
      "<iframe src=//evil>",
      "javascript:alert(1)",
    ]) {
      expect(inspectImage(png(10, 10, { extra: [pngChunk("tEXt", `Comment\0${payload}`)] })), payload).toEqual({
        ok: false,
        error: MARKUP,
      });
      expect(inspectImage(jpeg(10, 10, 0xc0, [jpegComment(payload)])), payload).toEqual({ ok: false, error: MARKUP });
    }
    // A chunk whose CRC does not match its bytes (edited by hand) is not an image as written.
    const tampered = png(10, 10, { extra: [pngChunk("tEXt", "Comment\0hello")] });
    tampered[45] ^= 0xff;
    expect(inspectImage(tampered)).toEqual({ ok: false, error: DAMAGED });
    // Scan data before any frame header, a second SOI, no EOI.
    expect(inspectImage(new Uint8Array([0xff, 0xd8, 0xff, 0xda, 0x00, 0x02, 0x00, 0xff, 0xd9]))).toEqual({
      ok: false,
      error: DAMAGED,
    });
    expect(inspectImage(new Uint8Array([0xff, 0xd8, 0xff, 0xd8, ...jpeg(10, 10).subarray(2)]))).toEqual({
      ok: false,
      error: DAMAGED,
    });
    expect(inspectImage(jpeg(10, 10).subarray(0, -2))).toEqual({ ok: false, error: DAMAGED });
  });

  it("refuses a bitmap over 10,000 pixels a side, however small the file", () => {
    expect(inspectImage(png(10_000, 10_000))).toMatchObject({ ok: true });
    expect(inspectImage(png(10_001, 10))).toEqual({ ok: false, error: DIMENSIONS });
    expect(inspectImage(png(20_000, 20_000))).toEqual({ ok: false, error: DIMENSIONS });
    expect(inspectImage(png(0xffffffff, 1))).toEqual({ ok: false, error: DIMENSIONS });
    expect(inspectImage(png(0, 10))).toEqual({ ok: false, error: DIMENSIONS });
    expect(inspectImage(jpeg(20_000, 100))).toEqual({ ok: false, error: DIMENSIONS });
    expect(inspectImage(jpeg(100, 65_535))).toEqual({ ok: false, error: DIMENSIONS });
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
    expect(parseHomeFilters(new URLSearchParams("sort=cheapest&category=soup&q=%20x%20"))).toEqual({
      q: "x",
      sort: "name-asc",
      category: "",
    });
    expect(parseAdminOrderQuery(new URLSearchParams("size=15&page=3&status=Cancelled"))).toEqual({
      q: "",
      status: "Cancelled",
      page: 3,
      size: 15,
    });
    expect(parseAdminOrderQuery(new URLSearchParams("size=100&page=abc"))).toMatchObject({ page: 1, size: 5 });
  });

  it("lets paid orders move along, pending ones only be cancelled, cancelled ones nowhere", () => {
    expect(nextStatuses("Pending")).toEqual(["Cancelled"]);
    expect(nextStatuses("Cancelled")).toEqual([]);
    expect(nextStatuses("Confirmed")).toEqual(["Being Cooked", "Ready for Pickup", "Completed", "Cancelled"]);
  });
});
