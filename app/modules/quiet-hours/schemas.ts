import { z } from "zod";
import { parseTimeOfDay } from "#app/modules/quiet-hours/window.ts";

// Browser-safe: the quiet-hours form on /account/settings.

export const QUIET_HOURS_INTENT = "quiet-hours";

const timeOfDayField = (which: string) =>
  z
    .string({ error: `Enter the ${which} time, e.g. 21:00` })
    .trim()
    .refine((value) => parseTimeOfDay(value) !== null, `Enter the ${which} time as HH:MM (24-hour), e.g. 21:00`)
    .transform((value) => parseTimeOfDay(value)!);

export const QuietHoursSchema = z
  .object({
    intent: z.literal(QUIET_HOURS_INTENT),
    enabled: z.boolean().default(false),
    start: timeOfDayField("start"),
    end: timeOfDayField("end"),
  })
  .refine((v) => v.start !== v.end, {
    message: "The end must differ from the start (a window of no time, or of all day, would never let a message go)",
    path: ["end"],
  });
