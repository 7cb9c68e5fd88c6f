import type { IncomingMessage } from "node:http";
import { describe, expect, it } from "vitest";
import { crossSiteReason } from "#server/same-origin.ts";

function req(method: string, url: string, headers: Record<string, string>): IncomingMessage {
  return { method, url, headers, socket: {} } as unknown as IncomingMessage;
}

describe("cross-site form posts", () => {
  it("lets same-origin posts and safe methods through", () => {
    expect(
      crossSiteReason(
        req("POST", "/login", { host: "app.test", origin: "http://app.test", "sec-fetch-site": "same-origin" }),
      ),
    ).toBeNull();
    expect(
      crossSiteReason(
        req("GET", "/login", { host: "app.test", origin: "https://evil.test", "sec-fetch-site": "cross-site" }),
      ),
    ).toBeNull();
  });

  it("refuses a post another site's page makes", () => {
    expect(crossSiteReason(req("POST", "/sms/sendSms", { host: "app.test", "sec-fetch-site": "cross-site" }))).toMatch(
      /cross-site/,
    );
    expect(crossSiteReason(req("POST", "/sms/sendSms", { host: "app.test", "sec-fetch-site": "same-site" }))).toMatch(
      /same-site/,
    );
    expect(crossSiteReason(req("POST", "/logout", { host: "app.test", origin: "https://evil.test" }))).toMatch(/evil/);
    expect(crossSiteReason(req("DELETE", "/payment/return", { host: "app.test", origin: "null" }))).toMatch(/null/);
  });

  it("leaves server-to-server calls (no browser headers) and the bearer-key API alone", () => {
    expect(crossSiteReason(req("POST", "/payment/webhook/stripe", { host: "app.test" }))).toBeNull();
    expect(
      crossSiteReason(req("POST", "/api/v1/messages", { host: "app.test", origin: "https://other.test" })),
    ).toBeNull();
  });
});
