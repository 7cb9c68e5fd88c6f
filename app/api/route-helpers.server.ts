// What several resources' routes share: the request shapes made from the configuration, the
// verified-e-mail check before a send and the Idempotent-Replayed header.
import { smsFormConfig } from "#app/modules/sms/config.server.ts";
import { VERIFY_BEFORE } from "#app/modules/accounts/verify-first.ts";
import { refuseUnverified } from "#app/api/auth.server.ts";
import { createRequestSchemas } from "#app/api/schemas.ts";

// Made on first use: their limits come from the configuration, which import does not read.
let requestSchemas: ReturnType<typeof createRequestSchemas> | undefined;
export const schemas = () => (requestSchemas ??= createRequestSchemas(smsFormConfig()));

export const refuseUnverifiedSender = (userId: number) => refuseUnverified(userId, VERIFY_BEFORE.sending);

export const replayed = (yes: boolean) => (yes ? { "Idempotent-Replayed": "true" } : undefined);
