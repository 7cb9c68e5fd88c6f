import { getFormProps, getInputProps, getSelectProps, type SubmissionResult, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { useEffect, useState } from "react";
import { Form, useNavigation } from "react-router";
import { REPEAT_LABELS, REPEATS } from "../../modules/scheduling/recurrence.ts";
import { createScheduleSmsSchema, SCHEDULE_INTENT, STEP_MINUTES } from "../../modules/scheduling/schemas.ts";
import type { SmsFormConfig } from "../../modules/sms/schemas.ts";
import { BackButton } from "../ui/back-button.tsx";
import { Button, ButtonLink } from "../ui/button.tsx";
import { Field, FormErrors, SelectField } from "../ui/field.tsx";
import { Card, Spinner } from "../ui/page.tsx";
import { MessageField, PhoneNumberField } from "../sms/send-sms-form.tsx";
import { useHydrated } from "../use-hydrated.ts";

/**
 * The Schedule SMS form. Times are entered in the chosen zone, which starts as the profile's; with
 * JavaScript, a profile still on the default UTC starts at the browser's zone instead.
 */
export function ScheduleSmsForm({
  config,
  timeZone,
  timeZones,
  lastResult,
}: {
  config: SmsFormConfig;
  timeZone: string;
  timeZones: string[];
  lastResult: SubmissionResult<string[]> | null | undefined;
}) {
  const hydrated = useHydrated();
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const [form, fields] = useForm({
    id: "schedule-sms",
    lastResult,
    defaultValue: { repeat: "none", timeZone },
    // "Now" is read at each validation, so a form left open does not accept a time that has passed.
    onValidate: ({ formData }) => parseWithZod(formData, { schema: createScheduleSmsSchema({ ...config, now: Date.now() }) }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  const [zones, setZones] = useState(timeZones);
  const [detected, setDetected] = useState<string | null>(null);
  useEffect(() => {
    if (lastResult || timeZone !== "UTC") return;
    const browserZone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    if (!browserZone || browserZone === "UTC") return;
    setZones((list) => (list.includes(browserZone) ? list : [browserZone, ...list]));
    form.update({ name: fields.timeZone.name, value: browserZone });
    setDetected(browserZone);
    // Once, on the first render in the browser.
  }, []);
  const repeating = (fields.repeat.value ?? "none") !== "none";
  const zone = String(fields.timeZone.value ?? timeZone);

  return (
    <Card>
      <Form method="post" className="space-y-4" {...getFormProps(form)} noValidate>
        <FormErrors id={form.errorId} errors={form.errors} />
        <div className="grid gap-4 sm:grid-cols-2">
          <Field
            label="Start Date and Time"
            inputProps={{ ...getInputProps(fields.firstSend, { type: "datetime-local" }), step: STEP_MINUTES * 60 }}
            errors={fields.firstSend.errors}
            help={`In ${zone}, in ${STEP_MINUTES}-minute steps.`}
          />
          <SelectField
            label="Time Zone"
            selectProps={getSelectProps(fields.timeZone)}
            errors={fields.timeZone.errors}
            help={detected === zone ? "Detected from your browser." : undefined}
          >
            {zones.map((name) => (
              <option key={name} value={name}>
                {name.replaceAll("_", " ")}
              </option>
            ))}
          </SelectField>
          <SelectField label="Repeat" selectProps={getSelectProps(fields.repeat)} errors={fields.repeat.errors}>
            {REPEATS.map((repeat) => (
              <option key={repeat} value={repeat}>
                {REPEAT_LABELS[repeat]}
              </option>
            ))}
          </SelectField>
          {/* Without JavaScript it cannot follow Repeat, so it is always there (and ignored for None). */}
          {!hydrated || repeating ? (
            <Field
              label="End Date"
              inputProps={getInputProps(fields.endDate, { type: "date" })}
              errors={fields.endDate.errors}
              help={`${hydrated ? "The last day it is sent" : "Only for repeating messages (ignored with Repeat: None)"}; leave empty to repeat until you cancel it.`}
            />
          ) : null}
        </div>
        <PhoneNumberField meta={fields.phoneNumber} />
        <MessageField meta={fields.message} rows={10} />
        <div className="flex flex-wrap gap-2">
          <Button type="submit" name="intent" value={SCHEDULE_INTENT.schedule} disabled={busy}>
            {busy ? <Spinner className="h-4 w-4" /> : null}
            Add SMS
          </Button>
          {hydrated ? null : (
            <Button type="submit" name="intent" value={SCHEDULE_INTENT.check} variant="secondary">
              Check cost
            </Button>
          )}
          <ButtonLink to="/sms/messageHistory" variant="secondary">
            Message History
          </ButtonLink>
          <BackButton fallback="/sms/sendSms" />
        </div>
      </Form>
    </Card>
  );
}
