// What several resources' routes share: request shapes made from the configuration, the
// verified-e-mail check before a send and the Idempotent-Replayed header.
import { smsFormConfig } from "#app/modules/sms/config.server.ts";
import { VERIFY_BEFORE } from "#app/modules/accounts/verify-first.ts";
import { refuseUnverified } from "#app/api/auth.server.ts";
import type { SmsFormConfig } from "#app/modules/messaging/schemas.ts";

/** Request shapes whose rules depend on the settings (default country, longest message), made on first use: import does not read the configuration. */
export function fromConfig<Shapes>(make: (config: SmsFormConfig) => Shapes): () => Shapes {
  let made: Shapes | undefined;
  return () => (made ??= make(smsFormConfig()));
}

export const refuseUnverifiedSender = (userId: number) => refuseUnverified(userId, VERIFY_BEFORE.sending);

export const replayed = (yes: boolean) => (yes ? { "Idempotent-Replayed": "true" } : undefined);
