// What the send schemas need from the environment; the pages, the REST API and the schedules read it here.
import { getEnv } from "#app/utils/env.server.ts";
import type { SmsFormConfig } from "#app/modules/messaging/schemas.ts";

export function smsFormConfig(): SmsFormConfig {
  return { defaultCountry: getEnv().DEFAULT_COUNTRY, maxSegments: getEnv().SMS_MAX_SEGMENTS };
}
