import { mkdtempSync } from "node:fs";
import type { IncomingMessage } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import proxyAddr from "proxy-addr";
import { describe, expect, it } from "vitest";
import { MAX_IMAGE_BYTES } from "#app/modules/shop/packages.ts";
import { getEnv, parseEnv } from "#app/utils/env.server.ts";
import { limitKeyOfAddress, safeRedirect } from "#app/utils/http.server.ts";
import { bodyLimit } from "#server/body-limit.ts";

describe("safeRedirect", () => {
  it("refuses every path a browser would read as another host", () => {
    // Browsers drop tabs and line breaks and read a backslash as a slash: each of these is //x to them.
    for (const hostile of [
      "/\t/x",
      "/\n/x",
      "/\r/x",
      "\t//x",
      "//x",
      "/\\x",
      "\\/x",
      "/\\/x",
      "/.//x",
      "/./\t/x",
      "https://x",
      "javascript:alert(1)",
      "x",
      "",
      " /x",
      "/x\u0000",
    ]) {
      expect(safeRedirect(hostile, "/fallback"), JSON.stringify(hostile)).toBe("/fallback");
    }
    expect(safeRedirect(null)).toBe("/");
    expect(safeRedirect(undefined, "/home")).toBe("/home");
  });

  it("keeps paths of this site with their query and hash", () => {
    expect(safeRedirect("/sms/sendSms")).toBe("/sms/sendSms");
    expect(safeRedirect("/order/myOrders?page=2&size=20#top")).toBe("/order/myOrders?page=2&size=20#top");
    expect(safeRedirect("/sms/accountContacts?panel=edit&id=42")).toBe("/sms/accountContacts?panel=edit&id=42");
    expect(safeRedirect("/a/../sms/scheduled")).toBe("/sms/scheduled");
    expect(safeRedirect("/?redirectTo=//x")).toBe("/?redirectTo=//x");
  });
});

describe("TRUST_PROXY", () => {
  const dir = mkdtempSync(join(tmpdir(), "env-"));
  const parse = (value?: string) => parseEnv({ DATA_DIR: dir, TRUST_PROXY: value }).TRUST_PROXY;

  it("is a hop count, a list of proxy addresses, or off", () => {
    expect(parse(undefined)).toBe(0);
    expect(parse("0")).toBe(0);
    expect(parse("false")).toBe(0);
    expect(parse("1")).toBe(1);
    expect(parse("true")).toBe(1);
    expect(parse("2")).toBe(2);
    expect(parse("loopback, 10.0.0.0/8,192.168.1.7")).toEqual(["loopback", "10.0.0.0/8", "192.168.1.7"]);
    expect(() => parse("my-proxy.example")).toThrow(/TRUST_PROXY/);
  });

  it("one hop: the entry the proxy appended counts, not what the client wrote in front of it", () => {
    const req = (forwardedFor: string) =>
      ({
        headers: { "x-forwarded-for": forwardedFor },
        socket: { remoteAddress: "127.0.0.1" },
      }) as unknown as IncomingMessage;
    const oneHop = (_address: string, hop: number) => hop < 1;
    expect(proxyAddr(req("1.2.3.4, 203.0.113.7"), oneHop)).toBe("203.0.113.7");
    expect(proxyAddr(req("203.0.113.7"), oneHop)).toBe("203.0.113.7");
    expect(proxyAddr(req("1.2.3.4, 203.0.113.7"), proxyAddr.compile(["loopback"]))).toBe("203.0.113.7");
  });
});

describe("the address a per-address limit counts", () => {
  it("is an IPv4 address as it is, and an IPv6 address's /64 however it is written", () => {
    expect(limitKeyOfAddress("203.0.113.7")).toBe("203.0.113.7");
    expect(limitKeyOfAddress("2001:db8::1")).toBe("2001:db8:0:0::/64");
    expect(limitKeyOfAddress("2001:0DB8:0000:0000:ffff:1:2:3")).toBe("2001:db8:0:0::/64");
    expect(limitKeyOfAddress("2001:db8:0:1::1")).toBe("2001:db8:0:1::/64");
    expect(limitKeyOfAddress("fe80::1%eth0")).toBe("fe80:0:0:0::/64");
    expect(limitKeyOfAddress("2001:db8:aa:bb:cc:dd:192.0.2.1")).toBe("2001:db8:aa:bb::/64");
    // An IPv4 client seen on a dual-stack socket is still that IPv4 address.
    expect(limitKeyOfAddress("::ffff:192.0.2.7")).toBe("192.0.2.7");
    expect(limitKeyOfAddress("unknown")).toBe("unknown");
  });
});

describe("body limit", () => {
  it("is one limit for every route, and the two uploads' own limit plus that for theirs", () => {
    expect(bodyLimit("/login")).toBe(getEnv().MAX_BODY_BYTES);
    expect(bodyLimit("/sms/sendSms.data?index")).toBe(getEnv().MAX_BODY_BYTES);
    for (const path of ["/sms/importContacts", "/SMS/IMPORTCONTACTS.data", "/sms/importContacts?file=x"]) {
      expect(bodyLimit(path), path).toBe(getEnv().CSV_IMPORT_MAX_BYTES + getEnv().MAX_BODY_BYTES);
    }
    for (const path of [
      "/menuItem/menuItemUpsert",
      "/menuitem/menuitemupsert/12",
      "/menuItem/menuItemUpsert/12.data",
    ]) {
      expect(bodyLimit(path), path).toBe(MAX_IMAGE_BYTES + getEnv().MAX_BODY_BYTES);
    }
    expect(bodyLimit("/sms/importContacts/../../login")).toBe(getEnv().MAX_BODY_BYTES);
  });
});
