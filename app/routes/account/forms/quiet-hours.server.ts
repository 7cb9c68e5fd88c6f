// The quiet-hours form's action on /account/settings.
import { parseWithZod } from "@conform-to/zod/v4";
import { data, href } from "react-router";
import { redirectWithToast } from "#app/web/toast.server.ts";
import { saveQuietHours } from "#app/modules/quiet-hours/quiet-hours.server.ts";
import { QuietHoursSchema } from "#app/modules/quiet-hours/schemas.ts";
import { formatTimeOfDay } from "#app/modules/quiet-hours/window.ts";

export function saveQuietHoursForm(userId: number, formData: FormData) {
  const submission = parseWithZod(formData, { schema: QuietHoursSchema });
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  const { enabled, start, end } = submission.value;
  saveQuietHours(userId, { enabled, startMinute: start, endMinute: end });
  const description = enabled
    ? `Quiet hours on: ${formatTimeOfDay(start)}-${formatTimeOfDay(end)} in each recipient's local time.`
    : "Quiet hours off.";
  return redirectWithToast(href("/account/settings"), { description });
}
