// Signing secrets: `whsec_` + base64 of 24 random bytes (the Standard Webhooks format), stored sealed
// like API keys and TOTP secrets, so a copy of the database alone signs nothing.
import { randomBytes } from "node:crypto";
import { createSealer } from "#app/utils/sealed.server.ts";

const sealer = createSealer("smsgw-webhooks");

export function newWebhookSecret(): string {
  return `whsec_${randomBytes(24).toString("base64")}`;
}

/** `context` binds it to its owner row (e.g. `endpoint:7`), so a sealed secret copied to another row does not open. */
export function sealWebhookSecret(secret: string, context: string): string {
  return sealer.seal(secret, context);
}

export function openWebhookSecret(sealed: string, context: string): string {
  return sealer.open(sealed, context);
}
