import { getFormProps, type SubmissionResult, useForm } from "@conform-to/react";
import { parseWithZod } from "#app/web/forms.ts";
import { useMemo } from "react";
import { Form, useNavigation } from "react-router";
import { createSendSmsSchema, SEND_INTENT, type SmsFormConfig } from "#app/modules/messaging/schemas.ts";
import { MessageField } from "#app/components/sms/send-sms-form.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { ErrorList, FormErrors } from "#app/components/ui/field.tsx";
import { useHydrated } from "#app/components/use-hydrated.ts";

/** A reply in a thread: the send form with the phone fixed, through the same action and send path. */
export function ReplyForm({
  phone,
  from,
  config,
  lastResult,
}: {
  phone: string;
  /** The sender the reply goes from; null: the account's default. */
  from: string | null;
  config: SmsFormConfig;
  lastResult: SubmissionResult<string[]> | null | undefined;
}) {
  const hydrated = useHydrated();
  const navigation = useNavigation();
  const schema = useMemo(() => createSendSmsSchema(config), [config]);
  const [form, fields] = useForm({
    id: "reply",
    lastResult,
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  return (
    <Form method="post" className="space-y-3" {...getFormProps(form)} noValidate>
      <FormErrors id={form.errorId} errors={form.errors} />
      <input type="hidden" name={fields.phoneNumber.name} value={phone} />
      {/* A reply answers someone who just wrote: it goes now, whatever the quiet hours. */}
      <input type="hidden" name={fields.ignoreQuietHours.name} value="on" />
      {from ? (
        <p className="text-sm text-slate-600">
          From {from}, the number they wrote to.
          <input type="hidden" name={fields.from.name} value={from} />
        </p>
      ) : null}
      <ErrorList errors={[...(fields.phoneNumber.errors ?? []), ...(fields.from.errors ?? [])]} />
      <MessageField meta={fields.message} rows={3} />
      <div className="flex flex-wrap gap-2">
        <Button type="submit" name="intent" value={SEND_INTENT.send} disabled={navigation.state === "submitting"}>
          Send reply
        </Button>
        {hydrated ? null : (
          <Button type="submit" name="intent" value={SEND_INTENT.check} variant="secondary">
            Check cost
          </Button>
        )}
      </div>
    </Form>
  );
}
