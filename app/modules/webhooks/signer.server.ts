// Standard Webhooks signatures (v1: HMAC-SHA256 of `id.timestamp.payload`, base64) with node:crypto.
// The standardwebhooks package computes the same bytes in JavaScript at about four times the CPU
// (18-20 µs against 5 µs a delivery, decision 133); receivers still verify with the package, and a
// test holds the two equal.
import { createHmac } from "node:crypto";

const PREFIX = "whsec_";

export class WebhookSigner {
  readonly #key: Buffer;

  /** `secret` as endpoints show it: `whsec_` and the base64 key. */
  constructor(secret: string) {
    this.#key = Buffer.from(secret.startsWith(PREFIX) ? secret.slice(PREFIX.length) : secret, "base64");
    if (this.#key.length === 0) throw new Error("Secret can't be empty.");
  }

  /** The `webhook-signature` header for the event `id` sent at `at`. */
  sign(id: string, at: Date, payload: string): string {
    const timestamp = Math.floor(at.getTime() / 1000);
    return `v1,${createHmac("sha256", this.#key).update(`${id}.${timestamp}.${payload}`).digest("base64")}`;
  }
}
