import {
  type FieldMetadata,
  getFormProps,
  getInputProps,
  getTextareaProps,
  type SubmissionResult,
  useForm,
} from "@conform-to/react";
import { parseWithZod } from "#app/web/forms.ts";
import { type ReactNode, useMemo, useState } from "react";
import { Form, href, Link, useNavigation } from "react-router";
import { createSendSmsSchema, SEND_INTENT, type SmsFormConfig } from "#app/modules/messaging/schemas.ts";
import { countSegments, SEGMENT_LIMITS } from "#app/modules/messaging/segments.ts";
import { type CountryCode, normalizePhone } from "#app/modules/messaging/phone.ts";
import {
  ANY_DESTINATION,
  creditsPerSegmentIn,
  DEFAULT_CREDITS_PER_SEGMENT,
  type DestinationPrice,
  priceListOf,
} from "#app/modules/pricing/price-list.ts";
import { pluralize } from "#app/utils/misc.ts";
import { Button, ButtonLink } from "#app/components/ui/button.tsx";
import { useHydrated } from "#app/components/use-hydrated.ts";
import { CheckboxField, Field, FormErrors, TextareaField } from "#app/components/ui/field.tsx";
import { Card, Notice } from "#app/components/ui/page.tsx";
import { FromField, type SenderChoice } from "#app/components/sms/from-field.tsx";

function countryName(code: string): string {
  return new Intl.DisplayNames(["en"], { type: "region" }).of(code) ?? code;
}

/**
 * Characters, encoding, segments and cost: live with JavaScript, from the posted text without.
 * `creditsPerSegment`: the recipient's destination's price, when the screen knows the recipient.
 */
export function SegmentCounter({
  body,
  creditsPerSegment = DEFAULT_CREDITS_PER_SEGMENT,
}: {
  body: string;
  creditsPerSegment?: number;
}) {
  const count = countSegments(body);
  const credits = count.segments * creditsPerSegment;
  return (
    <span data-testid="segment-counter" className="flex flex-wrap gap-x-3 gap-y-1">
      <span>{pluralize(count.characters, "character")}</span>
      <span>{count.encoding}</span>
      <span aria-live="polite" className="font-medium text-slate-700">
        {`${pluralize(count.segments, "segment")} · Cost: ${pluralize(credits, "credit")}`}
        {creditsPerSegment === DEFAULT_CREDITS_PER_SEGMENT
          ? null
          : ` (${pluralize(creditsPerSegment, "credit")} per segment to this destination)`}
      </span>
      {count.segments > 0 ? <span>{count.remaining} left in this segment</span> : null}
      {count.nonGsm.length > 0 ? (
        <span className="basis-full">UCS-2 because of: {count.nonGsm.slice(0, 5).join(" ")}</span>
      ) : null}
    </span>
  );
}

export function PhoneNumberField({
  meta,
  onValueChange,
}: {
  meta: FieldMetadata<string>;
  /** The number as typed, on every change (the send form prices the message by it). */
  onValueChange?: (value: string) => void;
}) {
  return (
    <Field
      label="Phone Number"
      inputProps={{
        ...getInputProps(meta, { type: "tel" }),
        autoComplete: "tel",
        placeholder: "e.g. +1 202 555 0123",
        onChange: onValueChange && ((event) => onValueChange(event.currentTarget.value)),
      }}
      errors={meta.errors}
    />
  );
}

/** The message textarea with the segment counter under it. */
export function MessageField({
  meta,
  rows,
  creditsPerSegment,
}: {
  meta: FieldMetadata<string>;
  rows: number;
  creditsPerSegment?: number;
}) {
  const [body, setBody] = useState(() => String(meta.initialValue ?? ""));
  return (
    <TextareaField
      label="Message"
      textareaProps={{ ...getTextareaProps(meta), rows, onChange: (event) => setBody(event.currentTarget.value) }}
      errors={meta.errors}
      help={<SegmentCounter body={body} creditsPerSegment={creditsPerSegment} />}
    />
  );
}

/** What a segment to the number typed costs; a number not (yet) valid: the price of destinations without their own. */
function usePricePerSegment(prices: readonly DestinationPrice[], defaultCountry: CountryCode, phone: string) {
  const list = useMemo(() => priceListOf(prices), [prices]);
  const parsed = normalizePhone(phone, defaultCountry);
  return creditsPerSegmentIn(list, parsed.ok ? parsed.e164 : ANY_DESTINATION);
}

/** The send form of /sms/sendSms and /sms/documentation. Its action is sendSmsFormAction. */
export function SendSmsForm({
  config,
  senders,
  lastResult,
  message,
  prices,
}: {
  config: SmsFormConfig;
  senders: SenderChoice[];
  lastResult: SubmissionResult<string[]> | null | undefined;
  /** The message to start from (a template's body). */
  message?: string | null;
  /** The price list by destination, for the counter's cost. */
  prices: readonly DestinationPrice[];
}) {
  const hydrated = useHydrated();
  const navigation = useNavigation();
  const schema = useMemo(() => createSendSmsSchema(config), [config]);
  const [form, fields] = useForm({
    id: "send-sms",
    lastResult,
    defaultValue: message ? { message } : undefined,
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  const [phone, setPhone] = useState(() => String(fields.phoneNumber.initialValue ?? ""));
  const creditsPerSegment = usePricePerSegment(prices, config.defaultCountry, phone);
  return (
    <Card>
      <Form method="post" className="space-y-4" {...getFormProps(form)} noValidate>
        <FormErrors id={form.errorId} errors={form.errors} />
        <FromField meta={fields.from} senders={senders} />
        <PhoneNumberField meta={fields.phoneNumber} onValueChange={setPhone} />
        <MessageField meta={fields.message} rows={6} creditsPerSegment={creditsPerSegment} />
        <CheckboxField
          label="Send even during quiet hours"
          inputProps={getInputProps(fields.ignoreQuietHours, { type: "checkbox" })}
          errors={fields.ignoreQuietHours.errors}
        />
        <div className="flex flex-wrap gap-2">
          <Button type="submit" name="intent" value={SEND_INTENT.send} disabled={navigation.state === "submitting"}>
            Send SMS
          </Button>
          {/* With JavaScript the counter is live; without it, this asks the server for the same. */}
          {hydrated ? null : (
            <Button type="submit" name="intent" value={SEND_INTENT.check} variant="secondary">
              Check cost
            </Button>
          )}
          <ButtonLink to={href("/sms/messageHistory")} variant="secondary">
            Message History
          </ButtonLink>
        </div>
      </Form>
    </Card>
  );
}

/** The numbered how-to list and the 160-character notice beside the form (send and schedule screens). */
export function SendSmsHowTo({
  config,
  title = "How to send an SMS",
  submitStep = "Press Send SMS.",
}: {
  config: SmsFormConfig;
  title?: string;
  submitStep?: ReactNode;
}) {
  const gsm = SEGMENT_LIMITS["GSM-7"];
  const ucs2 = SEGMENT_LIMITS["UCS-2"];
  return (
    <div className="space-y-4">
      <Notice tone="warning">
        A single SMS has a maximum of {gsm.single} characters. Longer messages are sent in parts of {gsm.part}{" "}
        characters (up to {config.maxSegments} parts); with characters outside the GSM alphabet, such as emoji, a single
        SMS holds {ucs2.single} and each part {ucs2.part}. Every SMS or part costs 1 credit, or what the{" "}
        <Link to={href("/pricing/destinations")}>price list</Link> says for its destination.
      </Notice>
      <Card>
        <h2 className="text-lg font-semibold text-slate-900">{title}</h2>
        <ol className="mt-3 list-decimal space-y-2 pl-5 text-sm text-slate-700">
          <li>
            Check that you have enough credits: your balance is at the top of the page. Buy more on the{" "}
            <Link to={href("/")}>pricing page</Link>.
          </li>
          <li>
            Enter the recipient's phone number with its country code (e.g. +44 7911 123456); a number without one is
            read as a {countryName(config.defaultCountry)} number.
          </li>
          <li>Type your message. The counter under it shows its length, encoding, segments and cost.</li>
          <li>{submitStep}</li>
          <li>
            Follow its delivery status in <Link to={href("/sms/messageHistory")}>Message History</Link>.
          </li>
        </ol>
      </Card>
    </div>
  );
}
