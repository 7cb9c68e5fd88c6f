import { getFormProps, getInputProps, getSelectProps, getTextareaProps, useForm } from "@conform-to/react";
import { parseWithZod } from "#app/web/forms.ts";
import { data, Form, href, Link } from "react-router";
import { z } from "zod";
import { Badge } from "#app/components/ui/badge.tsx";
import { Button, ButtonLink } from "#app/components/ui/button.tsx";
import { RowActionForm } from "#app/components/ui/row-action-form.tsx";
import { Field, FormErrors, SelectField, TextareaField } from "#app/components/ui/field.tsx";
import { Card, PageHeader } from "#app/components/ui/page.tsx";
import { ActionsTh, Table, Td, Th } from "#app/components/ui/table.tsx";
import { requireAdmin } from "#app/routes/auth/guards.server.ts";
import { findUserByEmail } from "#app/modules/auth/users.server.ts";
import { KEYWORD_REPLY_KINDS, KEYWORD_REPLY_LABELS } from "#app/modules/opt-outs/keywords.ts";
import { getKeywordReplies, setKeywordReplies } from "#app/modules/opt-outs/opt-outs.server.ts";
import { KeywordRepliesSchema, RejectSchema, SenderFormSchema } from "#app/modules/senders/admin-schemas.ts";
import { SenderAddressError, SenderNotFoundError } from "#app/modules/senders/errors.ts";
import { DEFAULT_TON_NPI, SENDER_KIND_LABELS, SENDER_KINDS } from "#app/modules/senders/senders.ts";
import {
  approveSenderRequest,
  createSender,
  deleteSender,
  getSender,
  listAllSenders,
  rejectSenderRequest,
  updateSender,
} from "#app/modules/senders/senders.server.ts";
import { getEnv } from "#app/utils/env.server.ts";
import { idOf, positiveIntParam } from "#app/web/params.ts";
import { notFound } from "#app/web/responses.server.ts";
import { redirectWithToast } from "#app/web/toast.server.ts";
import type { Route } from "./+types/senders";

export const meta: Route.MetaFunction = () => [{ title: "Senders | SMS Gateway" }];

const IdSchema = z.object({ id: z.coerce.number().int().positive() });

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  const editId = positiveIntParam(new URL(request.url).searchParams, "edit");
  let editing = null;
  if (editId) {
    try {
      editing = await getSender(editId);
    } catch (error) {
      if (error instanceof SenderNotFoundError) throw notFound();
      throw error;
    }
  }
  const strip = <T extends { createdAt: Date; decidedAt: Date | null }>({ createdAt, decidedAt, ...rest }: T) => rest;
  return {
    senders: (await listAllSenders()).map(strip),
    editing: editing && strip(editing),
    replies: await getKeywordReplies(),
    sharedSender: getEnv().SMPP_SOURCE_ADDR,
  };
}

const BACK = () => href("/admin/senders");

async function saveSender(formData: FormData) {
  const submission = parseWithZod(formData, { schema: SenderFormSchema });
  if (submission.status !== "success")
    return data({ form: "sender" as const, result: submission.reply() }, { status: 400 });
  const { intent, id, account, ...input } = submission.value;
  const owner = account ? await findUserByEmail(account) : undefined;
  if (account && !owner)
    return data(
      {
        form: "sender" as const,
        result: submission.reply({ fieldErrors: { account: [`No account with the e-mail ${account}`] } }),
      },
      { status: 400 },
    );
  const sender = { ...input, userId: owner?.id ?? null };
  try {
    if (intent === "update" && id) await updateSender(id, sender);
    else await createSender(sender);
  } catch (error) {
    if (error instanceof SenderNotFoundError) throw notFound();
    if (error instanceof SenderAddressError)
      return data(
        { form: "sender" as const, result: submission.reply({ fieldErrors: { address: [error.message] } }) },
        { status: 400 },
      );
    throw error;
  }
  return redirectWithToast(BACK(), { description: `Sender ${input.address} saved.` });
}

export async function action({ request }: Route.ActionArgs) {
  await requireAdmin(request);
  const formData = await request.formData();
  const intent = formData.get("intent");
  if (intent === "create" || intent === "update") return saveSender(formData);
  if (intent === "replies") {
    const submission = parseWithZod(formData, { schema: KeywordRepliesSchema });
    if (submission.status !== "success")
      return data({ form: "replies" as const, result: submission.reply() }, { status: 400 });
    await setKeywordReplies(submission.value);
    return redirectWithToast(BACK(), { description: "Automatic replies saved." });
  }
  if (intent === "reject") {
    const submission = parseWithZod(formData, { schema: RejectSchema });
    if (submission.status !== "success")
      return data(
        { form: "reject" as const, id: idOf(formData.get("id")), result: submission.reply() },
        { status: 400 },
      );
    try {
      await rejectSenderRequest(submission.value.id, submission.value.reason);
    } catch (error) {
      if (error instanceof SenderNotFoundError) throw notFound();
      throw error;
    }
    return redirectWithToast(BACK(), { description: "Request rejected; the customer sees your reason." });
  }
  const parsed = IdSchema.safeParse(Object.fromEntries(formData));
  if (!parsed.success) throw notFound();
  try {
    if (intent === "approve") await approveSenderRequest(parsed.data.id);
    else if (intent === "delete") await deleteSender(parsed.data.id);
    else throw notFound();
  } catch (error) {
    if (error instanceof SenderNotFoundError) throw notFound();
    if (error instanceof SenderAddressError)
      return redirectWithToast(BACK(), { type: "error", description: error.message });
    throw error;
  }
  return redirectWithToast(BACK(), { description: intent === "approve" ? "Request approved." : "Sender deleted." });
}

type Editing = Route.ComponentProps["loaderData"]["editing"];

function SenderForm({ editing, lastResult }: { editing: Editing; lastResult: unknown }) {
  const [form, fields] = useForm({
    id: editing ? `sender-${editing.id}` : "new-sender",
    lastResult: lastResult as never,
    shouldValidate: "onSubmit",
    defaultValue: editing
      ? { ...editing, ton: String(editing.ton), npi: String(editing.npi), account: editing.ownerEmail ?? "" }
      : { kind: "alphanumeric", ton: "5", npi: "0" },
  });
  return (
    <Card>
      <h2 className="text-lg font-semibold text-slate-900">{editing ? `Edit ${editing.address}` : "Add a sender"}</h2>
      <Form method="post" className="mt-3 space-y-3" {...getFormProps(form)} noValidate>
        <FormErrors id={form.errorId} errors={form.errors} />
        {editing ? <input type="hidden" name="id" value={editing.id} /> : null}
        <div className="grid gap-3 sm:grid-cols-2">
          <SelectField label="Kind" selectProps={getSelectProps(fields.kind)} errors={fields.kind.errors}>
            {SENDER_KINDS.map((kind) => (
              <option key={kind} value={kind}>
                {SENDER_KIND_LABELS[kind]}
              </option>
            ))}
          </SelectField>
          <Field
            label="Address"
            help="An alphanumeric ID (up to 11 characters), a long number in E.164 (+447700900123) or a short code."
            inputProps={{ ...getInputProps(fields.address, { type: "text" }), autoComplete: "off" }}
            errors={fields.address.errors}
          />
          <Field
            label="TON"
            help={`Type of number: ${SENDER_KINDS.map((k) => `${DEFAULT_TON_NPI[k].ton} for ${SENDER_KIND_LABELS[k].toLowerCase()}`).join(", ")}.`}
            inputProps={{ ...getInputProps(fields.ton, { type: "number" }), min: 0, max: 255 }}
            errors={fields.ton.errors}
          />
          <Field
            label="NPI"
            help="Numbering plan: 1 (ISDN/E.164) for numbers, 0 for names and most short codes."
            inputProps={{ ...getInputProps(fields.npi, { type: "number" }), min: 0, max: 255 }}
            errors={fields.npi.errors}
          />
          <Field
            className="sm:col-span-2"
            label="Assigned to (account e-mail)"
            help="Leave empty to keep it unassigned: nobody sends from it."
            inputProps={{ ...getInputProps(fields.account, { type: "email" }), autoComplete: "off" }}
            errors={fields.account.errors}
          />
        </div>
        <div className="flex flex-wrap gap-2">
          <Button type="submit" name="intent" value={editing ? "update" : "create"}>
            {editing ? "Save sender" : "Add sender"}
          </Button>
          {editing ? (
            <ButtonLink to={href("/admin/senders")} variant="secondary">
              Cancel
            </ButtonLink>
          ) : null}
        </div>
      </Form>
    </Card>
  );
}

function RejectForm({ id, lastResult }: { id: number; lastResult: unknown }) {
  const [form, fields] = useForm({ id: `reject-${id}`, lastResult: lastResult as never, shouldValidate: "onSubmit" });
  return (
    <Form method="post" className="mt-2 flex flex-wrap items-end gap-2" {...getFormProps(form)} noValidate>
      <input type="hidden" name="id" value={id} />
      <Field
        className="min-w-48 flex-1"
        label="Reason for rejecting"
        inputProps={{ ...getInputProps(fields.reason, { type: "text" }), maxLength: 300 }}
        errors={fields.reason.errors}
      />
      <Button type="submit" name="intent" value="reject" variant="danger" size="sm">
        Reject
      </Button>
    </Form>
  );
}

function RepliesForm({ replies, lastResult }: { replies: Record<string, string>; lastResult: unknown }) {
  const [form, fields] = useForm({
    id: "keyword-replies",
    lastResult: lastResult as never,
    shouldValidate: "onSubmit",
    defaultValue: replies,
  });
  return (
    <Card>
      <h2 className="text-lg font-semibold text-slate-900">Automatic replies</h2>
      <p className="mt-1 text-sm text-slate-600">
        Sent free of charge, from the sender the phone wrote to, once per change (and to a HELP or INFO, at most once in
        10 minutes); at most 5 a day to one phone.
      </p>
      <Form method="post" className="mt-3 space-y-3" {...getFormProps(form)} noValidate>
        <FormErrors id={form.errorId} errors={form.errors} />
        {KEYWORD_REPLY_KINDS.map((kind) => (
          <TextareaField
            key={kind}
            label={KEYWORD_REPLY_LABELS[kind]}
            textareaProps={{ ...getTextareaProps(fields[kind]), rows: 2 }}
            errors={fields[kind].errors}
          />
        ))}
        <Button type="submit" name="intent" value="replies">
          Save replies
        </Button>
      </Form>
    </Card>
  );
}

const STATUS_TONES = { active: "success", pending: "warning", rejected: "danger" } as const;

export default function AdminSenders({ loaderData, actionData }: Route.ComponentProps) {
  const { senders, editing, replies, sharedSender } = loaderData;
  const failed = actionData as { form: string; id?: number; result: unknown } | undefined;
  return (
    <div className="space-y-6">
      <PageHeader title="Senders" subtitle="Sender identities, customers' requests and the opt-out replies" />
      <p className="text-sm text-slate-700">
        Accounts without a sender send from the shared default sender, {sharedSender} (SMPP_SOURCE_ADDR).
      </p>
      {senders.length === 0 ? (
        <p className="rounded-lg bg-white p-8 text-center text-slate-600 shadow-sm ring-1 ring-slate-200">
          No senders yet.
        </p>
      ) : (
        <Table>
          <caption className="sr-only">Senders and requests, requests first</caption>
          <thead>
            <tr>
              <Th>Sender</Th>
              <Th>Kind (TON/NPI)</Th>
              <Th>Account</Th>
              <Th>Status</Th>
              <ActionsTh />
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {senders.map((s) => (
              <tr key={s.id} data-testid="admin-sender-row">
                <Td className="break-all font-medium">{s.address}</Td>
                <Td>
                  {SENDER_KIND_LABELS[s.kind]} ({s.ton}/{s.npi})
                </Td>
                <Td className="break-all">{s.ownerEmail ?? "Not assigned"}</Td>
                <Td>
                  <Badge tone={STATUS_TONES[s.status]}>{s.status === "pending" ? "Requested" : s.status}</Badge>
                  {s.rejectionReason ? <p className="mt-1 text-xs text-slate-600">{s.rejectionReason}</p> : null}
                </Td>
                <Td>
                  {s.status === "pending" ? (
                    <div>
                      <Form method="post">
                        <input type="hidden" name="id" value={s.id} />
                        <Button type="submit" name="intent" value="approve" size="sm">
                          Approve <span className="sr-only">{s.address}</span>
                        </Button>
                      </Form>
                      <RejectForm
                        id={s.id}
                        lastResult={failed?.form === "reject" && failed.id === s.id ? failed.result : undefined}
                      />
                    </div>
                  ) : (
                    <div className="flex flex-wrap gap-2">
                      <Link to={`${href("/admin/senders")}?edit=${s.id}`} className="text-sm">
                        Edit <span className="sr-only">{s.address}</span>
                      </Link>
                      <RowActionForm intent="delete" id={s.id} label="Delete" target={s.address} />
                    </div>
                  )}
                </Td>
              </tr>
            ))}
          </tbody>
        </Table>
      )}
      <div className="grid items-start gap-6 lg:grid-cols-2">
        <SenderForm
          key={editing?.id ?? "new"}
          editing={editing}
          lastResult={failed?.form === "sender" ? failed.result : undefined}
        />
        <RepliesForm replies={replies} lastResult={failed?.form === "replies" ? failed.result : undefined} />
      </div>
    </div>
  );
}
