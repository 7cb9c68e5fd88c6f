import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { parseWithZod } from "#app/web/forms.ts";
import { useMemo } from "react";
import { data, Form, href, Link, useNavigation } from "react-router";
import { MessageField } from "#app/components/sms/send-sms-form.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { Field, FormErrors } from "#app/components/ui/field.tsx";
import { Card, PageHeader } from "#app/components/ui/page.tsx";
import { requireAdmin } from "#app/routes/auth/guards.server.ts";
import { createSimulateInboundSchema } from "#app/modules/inbound/schemas.ts";
import { simulateInbound } from "#app/modules/inbound/simulate.server.ts";
import { smsFormConfig } from "#app/modules/sms/config.server.ts";
import { getEnv } from "#app/utils/env.server.ts";
import { notFound } from "#app/web/responses.server.ts";
import { redirectWithToast } from "#app/web/toast.server.ts";
import { unexpectedFormFailure } from "#app/web/unexpected-failure.server.ts";
import type { Route } from "./+types/simulate";

export const meta: Route.MetaFunction = () => [{ title: "Simulate an inbound SMS | SMS Gateway" }];

/** Test mode only: a deployment that talks to real carriers has no such page. */
async function requireSimulator(request: Request) {
  await requireAdmin(request);
  if (!getEnv().testMode.active) throw notFound();
}

export async function loader({ request }: Route.LoaderArgs) {
  await requireSimulator(request);
  return { config: smsFormConfig(), defaultSender: getEnv().SMPP_SOURCE_ADDR };
}

export async function action({ request }: Route.ActionArgs) {
  await requireSimulator(request);
  const submission = parseWithZod(await request.formData(), { schema: createSimulateInboundSchema(smsFormConfig()) });
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  const { from, to, message } = submission.value;
  try {
    await simulateInbound({ from, to, text: message });
  } catch (error) {
    return unexpectedFormFailure(submission, "The inbound SMS could not be stored", error);
  }
  return redirectWithToast(href("/admin/simulate"), { description: `Inbound SMS from ${from} to ${to} received` });
}

export default function Simulate({ loaderData, actionData }: Route.ComponentProps) {
  const { config, defaultSender } = loaderData;
  const navigation = useNavigation();
  const schema = useMemo(() => createSimulateInboundSchema(config), [config]);
  const [form, fields] = useForm({
    id: "simulate-inbound",
    lastResult: actionData,
    defaultValue: { to: defaultSender },
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  return (
    <div className="max-w-2xl space-y-4">
      <PageHeader title="Simulate an inbound SMS" subtitle="Test mode" />
      <p className="text-sm text-slate-700">
        A phone texts the gateway: the message goes through the inbound path as real deliver_sm PDUs (long texts in
        parts), lands in the account that owns the sender (or, on the shared sender {defaultSender}, the one account
        that wrote to the phone from it in the last 30 days) and its keywords are applied. Messages nobody owns are in{" "}
        <Link to={href("/admin/inbound")}>Unassigned Inbound SMS</Link>. A message sent with the word "reply" in it gets
        an answer from the simulated phone after its receipt.
      </p>
      <Card>
        <Form method="post" className="space-y-4" {...getFormProps(form)} noValidate>
          <FormErrors id={form.errorId} errors={form.errors} />
          <Field
            label="From (the phone)"
            inputProps={{ ...getInputProps(fields.from, { type: "tel" }), placeholder: "e.g. +1 202 555 0123" }}
            errors={fields.from.errors}
          />
          <Field
            label="To (a sender of the gateway)"
            help={`A sender number or ID; ${defaultSender} is the shared default sender.`}
            inputProps={getInputProps(fields.to, { type: "text" })}
            errors={fields.to.errors}
          />
          <MessageField meta={fields.message} rows={4} />
          <Button type="submit" disabled={navigation.state === "submitting"}>
            Receive it
          </Button>
        </Form>
      </Card>
    </div>
  );
}
