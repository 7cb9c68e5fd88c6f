// What the send schemas need from the environment; the pages, the REST API and the schedules read it here.
import { env } from "../../utils/env.server.ts";
import type { SmsFormConfig } from "./schemas.ts";

export function smsFormConfig(): SmsFormConfig {
  return { defaultCountry: env.DEFAULT_COUNTRY, maxSegments: env.SMS_MAX_SEGMENTS };
}
