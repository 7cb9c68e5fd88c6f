import { getFormProps, getInputProps, getSelectProps, type SubmissionResult, useForm } from "@conform-to/react";
import { parseWithZod } from "#app/web/forms.ts";
import { type ReactNode, useEffect, useState } from "react";
import { Form, href, useNavigation } from "react-router";
import { REPEAT_LABELS, REPEATS } from "#app/modules/scheduling/recurrence.ts";
import {
  createSchedulePanelSchema,
  createScheduleSmsSchema,
  SCHEDULE_INTENT,
  STEP_MINUTES,
} from "#app/modules/scheduling/schemas.ts";
import type { SmsFormConfig } from "#app/modules/messaging/schemas.ts";
import { BackButton } from "#app/components/ui/back-button.tsx";
import { Button, ButtonLink } from "#app/components/ui/button.tsx";
import { Field, FormErrors, SelectField } from "#app/components/ui/field.tsx";
import { Card, Spinner } from "#app/components/ui/page.tsx";
import { MessageField, PhoneNumberField } from "#app/components/sms/send-sms-form.tsx";
import { useHydrated } from "#app/components/use-hydrated.ts";
import { FromField, type SenderChoice } from "#app/components/sms/from-field.tsx";
import { TemplateConfirm } from "#app/components/templates/template-confirm.tsx";
import type { TemplateSendQuote } from "#app/modules/templates/quote.ts";

/** A schedule panel's fixed recipient: the row's contact or group. */
export type FixedRecipient = { id: number; label: ReactNode; cancelHref: string };

/**
 * The Schedule SMS form. Times are entered in the chosen zone, which starts as the profile's; with
 * JavaScript, a profile still on the default UTC starts at the browser's zone instead. With a
 * `recipient` it is a schedule panel of the contacts or groups list: no phone field, and Cancel.
 */
export function ScheduleSmsForm({
  config,
  timeZone,
  timeZones,
  lastResult,
  recipient,
  phoneNumber,
  senders = [],
  message,
  templateQuote = null,
}: {
  /** The message to start from (a template's body, `?template=ID`). */
  message?: string | null;
  /** A templated group schedule's total for today's members, shown for confirmation first. */
  templateQuote?: TemplateSendQuote | null;
  config: SmsFormConfig;
  /** The account's senders: a From choice when there is more than one. */
  senders?: SenderChoice[];
  timeZone: string;
  timeZones: string[];
  lastResult: SubmissionResult<string[]> | null | undefined;
  recipient?: FixedRecipient;
  /** The phone field's first value (`/sms/scheduleSms?phoneNumber=`). */
  phoneNumber?: string;
}) {
  const hydrated = useHydrated();
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const schemaFor = recipient ? createSchedulePanelSchema : createScheduleSmsSchema;
  const [form, fields] = useForm({
    id: recipient ? `schedule-panel-${recipient.id}` : "schedule-sms",
    lastResult,
    defaultValue: { repeat: "none", timeZone, phoneNumber, message: message ?? undefined },
    // "Now" is read at each validation, so a form left open does not accept a time that has passed.
    onValidate: ({ formData }) => parseWithZod(formData, { schema: schemaFor({ ...config, now: Date.now() }) }),
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
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once, on the first render in the browser
  }, []);
  const repeating = (fields.repeat.value ?? "none") !== "none";
  const zone = String(fields.timeZone.value ?? timeZone);

  const body = (
    <Form
      method="post"
      preventScrollReset={Boolean(recipient)}
      className="space-y-4"
      {...getFormProps(form)}
      noValidate
    >
      <FormErrors id={form.errorId} errors={form.errors} />
      {recipient ? (
        <>
          <input type="hidden" name="id" value={recipient.id} />
          <p className="text-sm text-slate-700">To: {recipient.label}</p>
        </>
      ) : null}
      <FromField meta={fields.from} senders={senders} />
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
      {recipient ? null : <PhoneNumberField meta={fields.phoneNumber} />}
      <MessageField meta={fields.message} rows={recipient ? 4 : 10} />
      {templateQuote && templateQuote.body === String(fields.message.value ?? "").replace(/\r\n?/g, "\n") ? (
        <TemplateConfirm
          quote={templateQuote}
          intent={SCHEDULE_INTENT.schedule}
          label="Add SMS"
          note="Counted for the group's members today; each time it goes, every member's text is rendered and counted again."
        />
      ) : null}
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
        {recipient ? (
          <ButtonLink to={recipient.cancelHref} variant="secondary" preventScrollReset>
            Cancel
          </ButtonLink>
        ) : (
          <>
            <ButtonLink to={href("/sms/messageHistory")} variant="secondary">
              Message History
            </ButtonLink>
            <BackButton fallback={href("/sms/sendSms")} />
          </>
        )}
      </div>
    </Form>
  );
  // A panel sits in the list's own box.
  return recipient ? body : <Card>{body}</Card>;
}
