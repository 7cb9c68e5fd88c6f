import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { parseWithZod } from "#app/web/forms.ts";
import { data, Form, href } from "react-router";
import { z } from "zod";
import { VerifyEmailFirst } from "#app/components/account/verify-email-first.tsx";
import { Badge } from "#app/components/ui/badge.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { RowActionForm } from "#app/components/ui/row-action-form.tsx";
import { Field, FormErrors } from "#app/components/ui/field.tsx";
import { Card, PageHeader } from "#app/components/ui/page.tsx";
import { ActionsTh, Table, Td, Th } from "#app/components/ui/table.tsx";
import { requireUser } from "#app/routes/auth/guards.server.ts";
import { mustVerifyEmail } from "#app/modules/accounts/verification.server.ts";
import { VERIFY_BEFORE, verifyFirstMessage } from "#app/modules/accounts/verify-first.ts";
import { SenderAddressError, SenderNotFoundError } from "#app/modules/senders/errors.ts";
import { SENDER_KIND_LABELS, senderRequestSchema } from "#app/modules/senders/senders.ts";
import { listOwnSenders, requestSender, setDefaultSender } from "#app/modules/senders/senders.server.ts";
import { getEnv } from "#app/utils/env.server.ts";
import { formatDateTime } from "#app/utils/misc.ts";
import { notFound } from "#app/web/responses.server.ts";
import { redirectWithToast } from "#app/web/toast.server.ts";
import type { Route } from "./+types/senders";

export const meta: Route.MetaFunction = () => [{ title: "Senders | SMS Gateway" }];

const DefaultSchema = z.object({ intent: z.literal("default"), id: z.coerce.number().int().positive() });

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireUser(request);
  const senders = (await listOwnSenders(user.id)).map((s) => ({
    id: s.id,
    address: s.address,
    kind: s.kind,
    status: s.status,
    isDefault: s.isDefault,
    rejectionReason: s.rejectionReason,
    createdAt: s.createdAt.getTime(),
    decidedAt: s.decidedAt?.getTime() ?? null,
  }));
  return {
    senders,
    sharedSender: getEnv().SMPP_SOURCE_ADDR,
    timeZone: user.timeZone,
    mustVerifyEmail: await mustVerifyEmail(user.id),
  };
}

export async function action({ request }: Route.ActionArgs) {
  const user = await requireUser(request);
  const formData = await request.formData();
  if (formData.get("intent") === "default") {
    const submission = parseWithZod(formData, { schema: DefaultSchema });
    if (submission.status !== "success") throw notFound();
    try {
      await setDefaultSender(user.id, submission.value.id);
    } catch (error) {
      if (error instanceof SenderNotFoundError) throw notFound();
      throw error;
    }
    return redirectWithToast(href("/sms/senders"), { description: "Default sender changed." });
  }
  const submission = parseWithZod(formData, { schema: senderRequestSchema });
  // A sender ID is the account speaking under a name: not before its address is proved.
  if (await mustVerifyEmail(user.id))
    return data(submission.reply({ formErrors: [verifyFirstMessage(VERIFY_BEFORE.senders)] }), { status: 403 });
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  try {
    await requestSender(user.id, submission.value.address);
  } catch (error) {
    if (error instanceof SenderAddressError)
      return data(submission.reply({ fieldErrors: { address: [error.message] } }), { status: 400 });
    throw error;
  }
  return redirectWithToast(href("/sms/senders"), {
    description: `Sender ID ${submission.value.address} requested: an administrator will approve or reject it.`,
  });
}

const STATUS_BADGES = {
  active: { label: "Active", tone: "success" },
  pending: { label: "Waiting for approval", tone: "warning" },
  rejected: { label: "Rejected", tone: "danger" },
} as const;

export default function Senders({ loaderData, actionData }: Route.ComponentProps) {
  const { senders, sharedSender, timeZone, mustVerifyEmail } = loaderData;
  const [form, fields] = useForm({ id: "request-sender", lastResult: actionData, shouldValidate: "onSubmit" });
  const active = senders.filter((s) => s.status === "active");
  return (
    <div className="space-y-6">
      <PageHeader title="Senders" subtitle="Who your messages come from" />
      <p className="text-sm text-slate-700">
        {active.length === 0
          ? `You have no sender of your own yet: your messages go from the gateway's shared sender, ${sharedSender}. A reply to it reaches your inbox when no other account wrote to that phone from it in the 30 days before; with a sender of your own, every reply is yours.`
          : "Messages go from your default sender unless you choose another in the From field of a send form (or `from` in the API)."}
      </p>
      {senders.length > 0 ? (
        <Table>
          <caption className="sr-only">Your senders and requests</caption>
          <thead>
            <tr>
              <Th>Sender</Th>
              <Th>Kind</Th>
              <Th>Status</Th>
              <Th>Requested or assigned ({timeZone})</Th>
              <ActionsTh />
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {senders.map((s) => (
              <tr key={s.id} data-testid="sender-row">
                <Td className="break-all font-medium">
                  {s.address} {s.isDefault ? <Badge tone="primary">Default</Badge> : null}
                </Td>
                <Td>{SENDER_KIND_LABELS[s.kind]}</Td>
                <Td>
                  <Badge tone={STATUS_BADGES[s.status].tone}>{STATUS_BADGES[s.status].label}</Badge>
                  {s.status === "rejected" && s.rejectionReason ? (
                    <p className="mt-1 text-sm text-slate-700">Reason: {s.rejectionReason}</p>
                  ) : null}
                </Td>
                <Td className="whitespace-nowrap">{formatDateTime(s.createdAt, timeZone)}</Td>
                <Td>
                  {s.status === "active" && !s.isDefault ? (
                    <RowActionForm intent="default" id={s.id} label="Make default" />
                  ) : null}
                </Td>
              </tr>
            ))}
          </tbody>
        </Table>
      ) : null}
      {mustVerifyEmail ? (
        <VerifyEmailFirst before={VERIFY_BEFORE.senders} />
      ) : (
        <Card>
          <h2 className="text-lg font-semibold text-slate-900">Request a sender ID</h2>
          <p className="mt-1 text-sm text-slate-600">
            A name your recipients see instead of a number, such as your brand (up to 11 letters and digits). Replies
            cannot be sent to a name. An administrator checks it before you can use it.
          </p>
          <Form method="post" className="mt-4 flex flex-wrap items-start gap-3" {...getFormProps(form)} noValidate>
            <FormErrors id={form.errorId} errors={form.errors} />
            <Field
              className="min-w-56 flex-1"
              label="Sender ID"
              inputProps={{ ...getInputProps(fields.address, { type: "text" }), maxLength: 11, autoComplete: "off" }}
              errors={fields.address.errors}
            />
            <Button type="submit" name="intent" value="request" className="mt-6">
              Request
            </Button>
          </Form>
        </Card>
      )}
    </div>
  );
}
