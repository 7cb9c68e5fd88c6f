// Browser-safe: a contact's optional time zone, for quiet hours.
import { z } from "zod";
import { canonicalTimeZone, isValidTimeZone } from "#app/utils/time-zone.ts";

export const TIME_ZONE_HINT = "Enter a time zone such as Europe/Berlin or America/New_York, or leave it empty";

/** Empty: null (the number's country decides); else a zone this runtime knows, in its own spelling. */
export const optionalTimeZoneField = z
  .string()
  .trim()
  .max(64, TIME_ZONE_HINT)
  .optional()
  .refine((value) => !value || isValidTimeZone(value), TIME_ZONE_HINT)
  .transform((value) => (value ? canonicalTimeZone(value) : null));
