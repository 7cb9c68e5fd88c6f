import { getFormProps, getTextareaProps, type SubmissionResult, useForm } from "@conform-to/react";
import { parseWithZod } from "#app/web/forms.ts";
import { type ReactNode, useMemo, useState } from "react";
import { Form, useNavigation } from "react-router";
import { createPanelSendSchema, SEND_PANEL_INTENT } from "#app/modules/contacts/schemas.ts";
import { countSegments } from "#app/modules/messaging/segments.ts";
import { pluralize } from "#app/utils/misc.ts";
import { SegmentCounter } from "#app/components/sms/send-sms-form.tsx";
import { useHydrated } from "#app/components/use-hydrated.ts";
import { FromField, type SenderChoice } from "#app/components/sms/from-field.tsx";
import { Button, ButtonLink } from "#app/components/ui/button.tsx";
import { FormErrors, TextareaField } from "#app/components/ui/field.tsx";
import { TemplateConfirm } from "#app/components/templates/template-confirm.tsx";
import type { TemplateSendQuote } from "#app/modules/templates/quote.ts";
import { hasMergeFields } from "#app/modules/messaging/merge-fields.ts";
import { DEFAULT_CREDITS_PER_SEGMENT } from "#app/modules/pricing/price-list.ts";

/**
 * The send panel of a contact or a group: the message with the live counter (a "Check cost" post
 * without JavaScript) and, for a group, what the whole send costs.
 */
export function MessagePanel({
  id,
  recipient,
  recipients,
  maxSegments,
  requestKey,
  cancelHref,
  lastResult,
  senders = [],
  defaultMessage,
  templateQuote = null,
  creditsPerSegment = DEFAULT_CREDITS_PER_SEGMENT,
  pricesVary = false,
}: {
  /** A segment's price to the contact (for a group: to destinations without their own price). */
  creditsPerSegment?: number;
  /** The price list prices some destinations differently: a group's total is counted member by member. */
  pricesVary?: boolean;
  id: number;
  /** The message to start from (a template's body, `?template=ID`). */
  defaultMessage?: string | null;
  /** A templated group send's total, shown for confirmation before it starts. */
  templateQuote?: TemplateSendQuote | null;
  /** The account's senders: a From choice when there is more than one. */
  senders?: SenderChoice[];
  recipient: ReactNode;
  /** Active members of a group: the cost is per message times this. */
  recipients?: number;
  maxSegments: number;
  requestKey?: string;
  cancelHref: string;
  lastResult: SubmissionResult<string[]> | null | undefined;
}) {
  const hydrated = useHydrated();
  const navigation = useNavigation();
  const schema = useMemo(() => createPanelSendSchema(maxSegments), [maxSegments]);
  const [form, fields] = useForm({
    id: `send-${id}`,
    lastResult,
    defaultValue: defaultMessage ? { message: defaultMessage } : undefined,
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  const [body, setBody] = useState(() => String(fields.message.initialValue ?? ""));
  const perMessage = countSegments(body).segments * creditsPerSegment;
  return (
    <Form method="post" preventScrollReset className="space-y-4" {...getFormProps(form)} noValidate>
      <FormErrors id={form.errorId} errors={form.errors} />
      <input type="hidden" name="id" value={id} />
      {requestKey ? <input type="hidden" name="requestKey" value={requestKey} /> : null}
      <p className="text-sm text-slate-700">To: {recipient}</p>
      <FromField meta={fields.from} senders={senders} />
      <TextareaField
        label="Message"
        textareaProps={{
          ...getTextareaProps(fields.message),
          rows: 4,
          onChange: (event) => setBody(event.currentTarget.value),
        }}
        errors={fields.message.errors}
        help={
          <>
            <SegmentCounter body={body} creditsPerSegment={recipients === undefined ? creditsPerSegment : undefined} />
            {recipients !== undefined && hasMergeFields(body) ? (
              <span className="mt-1 block font-medium text-slate-700" data-testid="group-cost">
                Each member's own text is counted: Send SMS shows the total for you to confirm first.
              </span>
            ) : recipients !== undefined && pricesVary ? (
              <span className="mt-1 block font-medium text-slate-700" data-testid="group-cost">
                Each member's number costs what the price list says for its destination: Send SMS shows the total for
                you to confirm first.
              </span>
            ) : recipients !== undefined ? (
              <span className="mt-1 block font-medium text-slate-700" data-testid="group-cost">
                {pluralize(recipients, "active contact")} × {pluralize(perMessage, "credit")} ={" "}
                {pluralize(recipients * perMessage, "credit")}
              </span>
            ) : null}
          </>
        }
      />
      {templateQuote && templateQuote.body === body.replace(/\r\n?/g, "\n") ? (
        <TemplateConfirm quote={templateQuote} />
      ) : null}
      <div className="flex flex-wrap gap-2">
        <Button type="submit" name="intent" value={SEND_PANEL_INTENT.send} disabled={navigation.state === "submitting"}>
          Send SMS
        </Button>
        {hydrated ? null : (
          <Button type="submit" name="intent" value={SEND_PANEL_INTENT.check} variant="secondary">
            Check cost
          </Button>
        )}
        <ButtonLink to={cancelHref} variant="secondary" preventScrollReset>
          Cancel
        </ButtonLink>
      </div>
    </Form>
  );
}
