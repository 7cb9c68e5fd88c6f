// Our signer against the standardwebhooks package, which receivers use to verify: byte for byte the
// same header for any secret, id, time and payload (decision 133).
import { randomBytes } from "node:crypto";
import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import { WebhookSigner } from "#app/modules/webhooks/signer.server.ts";

const PAYLOADS = [
  "",
  '{"type":"message.delivered","data":{"id":1}}',
  JSON.stringify({ body: "Ünïcödé, 中文, emoji 👋, a lone surrogate \ud800 escaped by JSON" }),
  "x".repeat(70_000),
];

describe("WebhookSigner", () => {
  it("signs as the standardwebhooks package does, with or without the whsec_ prefix", () => {
    for (let i = 0; i < 20; i++) {
      const key = randomBytes(1 + (i % 64)).toString("base64");
      const secret = i % 2 === 0 ? `whsec_${key}` : key;
      const at = new Date(1_700_000_000_000 + i * 987_654);
      for (const payload of PAYLOADS) {
        const id = `evt_${i}_${payload.length}`;
        expect(new WebhookSigner(secret).sign(id, at, payload)).toBe(new Webhook(secret).sign(id, at, payload));
      }
    }
  });

  it("gives headers the package verifies", () => {
    const secret = `whsec_${randomBytes(24).toString("base64")}`;
    const payload = JSON.stringify({ type: "message.sent", data: { id: 7 } });
    const at = new Date();
    const headers = {
      "webhook-id": "evt_7",
      "webhook-timestamp": String(Math.floor(at.getTime() / 1000)),
      "webhook-signature": new WebhookSigner(secret).sign("evt_7", at, payload),
    };
    expect(new Webhook(secret).verify(payload, headers)).toEqual(JSON.parse(payload));
  });

  it("refuses an empty secret, as the package does", () => {
    expect(() => new WebhookSigner("whsec_")).toThrow("Secret can't be empty.");
  });
});
