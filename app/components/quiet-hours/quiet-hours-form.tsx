import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { parseWithZod } from "#app/web/forms.ts";
import { Form, useNavigation } from "react-router";
import { Button } from "#app/components/ui/button.tsx";
import { CheckboxField, Field, FormErrors } from "#app/components/ui/field.tsx";
import { Card } from "#app/components/ui/page.tsx";
import { QUIET_HOURS_INTENT, QuietHoursSchema } from "#app/modules/quiet-hours/schemas.ts";
import { formatTimeOfDay, type QuietWindow } from "#app/modules/quiet-hours/window.ts";

/** The quiet-hours card on /account/settings; its action is saveQuietHoursForm. */
export function QuietHoursForm({
  setting,
  lastResult,
}: {
  setting: QuietWindow & { enabled: boolean };
  lastResult: unknown;
}) {
  const navigation = useNavigation();
  const [form, fields] = useForm({
    id: "quiet-hours",
    lastResult: lastResult as never,
    defaultValue: {
      enabled: setting.enabled ? "on" : undefined,
      start: formatTimeOfDay(setting.startMinute),
      end: formatTimeOfDay(setting.endMinute),
    },
    onValidate: ({ formData }) => parseWithZod(formData, { schema: QuietHoursSchema }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  return (
    <Card>
      <h2 className="mb-2 text-lg font-semibold text-slate-900">Quiet hours</h2>
      <p className="mb-4 text-sm text-slate-700">
        Group messages (sent now or scheduled) that would reach someone between these times, in their local time, wait
        until the end instead. So do single messages, unless you tick "Send even during quiet hours". A contact's time
        zone is used when it has one, else the one of its number's country.
      </p>
      <Form method="post" className="space-y-4" {...getFormProps(form)} noValidate>
        <input type="hidden" name="intent" value={QUIET_HOURS_INTENT} />
        <FormErrors id={form.errorId} errors={form.errors} />
        <CheckboxField
          label="Quiet hours on"
          inputProps={getInputProps(fields.enabled, { type: "checkbox" })}
          errors={fields.enabled.errors}
        />
        <div className="grid gap-4 sm:grid-cols-2">
          <Field
            label="Start (HH:MM, 24-hour)"
            inputProps={{
              ...getInputProps(fields.start, { type: "text" }),
              inputMode: "numeric",
              placeholder: "21:00",
            }}
            errors={fields.start.errors}
          />
          <Field
            label="End (HH:MM, 24-hour)"
            inputProps={{ ...getInputProps(fields.end, { type: "text" }), inputMode: "numeric", placeholder: "08:00" }}
            errors={fields.end.errors}
            help="May be earlier than the start: 21:00 to 08:00 runs overnight."
          />
        </div>
        <Button type="submit" disabled={navigation.state === "submitting"}>
          Save Quiet Hours
        </Button>
      </Form>
    </Card>
  );
}
