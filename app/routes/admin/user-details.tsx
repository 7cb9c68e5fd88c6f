import { randomBytes } from "node:crypto";
import { getFormProps, getInputProps, getTextareaProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, Form, href, useNavigation } from "react-router";
import { Badge } from "#app/components/ui/badge.tsx";
import { Button, ButtonLink } from "#app/components/ui/button.tsx";
import { ErrorList, Field, FormErrors, TextareaField } from "#app/components/ui/field.tsx";
import { Card, PageHeader } from "#app/components/ui/page.tsx";
import { NumberedPager } from "#app/components/ui/pager.tsx";
import { Table, Td, Th } from "#app/components/ui/table.tsx";
import { requireAdmin } from "#app/routes/auth/guards.server.ts";
import { getAccount } from "#app/modules/credits/accounts.server.ts";
import { adjustCredits, type LedgerKind, listLedgerEntries } from "#app/modules/credits/ledger.server.ts";
import { CreditAdjustmentSchema, LedgerPageSchema, MAX_ADJUSTMENT, MAX_REASON } from "#app/modules/credits/schemas.ts";
import { formatDateTime, formatNumber, pluralize } from "#app/utils/misc.ts";
import { notFound } from "#app/utils/responses.server.ts";
import { redirectWithToast } from "#app/utils/toast.server.ts";
import type { Route } from "./+types/user-details";

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: `${loaderData?.account.fullName ?? "Account"} | SMS Gateway` },
];

/** The account named in the URL; anything else (unknown, not a number) is a 404. */
function accountOf(params: { id: string }) {
  const id = Number(params.id);
  const account = Number.isSafeInteger(id) && id > 0 ? getAccount(id) : undefined;
  if (!account) throw notFound();
  return account;
}

export async function loader({ request, params }: Route.LoaderArgs) {
  const admin = await requireAdmin(request);
  const account = accountOf(params);
  const { page } = LedgerPageSchema.parse(Object.fromEntries(new URL(request.url).searchParams));
  const ledger = listLedgerEntries(account.id, page);
  return {
    timeZone: admin.timeZone,
    account: { ...account, createdAt: account.createdAt.getTime() },
    ledger: { ...ledger, rows: ledger.rows.map((r) => ({ ...r, createdAt: r.createdAt.getTime() })) },
    // A fresh key per visit: a double submit of this form books once (see adjustCredits).
    requestKey: randomBytes(18).toString("base64url"),
  };
}

export async function action({ request, params }: Route.ActionArgs) {
  const admin = await requireAdmin(request);
  const account = accountOf(params);
  const submission = parseWithZod(await request.formData(), { schema: CreditAdjustmentSchema });
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  const { direction, amount, reason, requestKey } = submission.value;
  const result = adjustCredits({
    userId: account.id,
    actorUserId: admin.id,
    amount: direction === "add" ? amount : -amount,
    reason,
    requestKey,
  });
  if (result.status === "not-found") throw notFound();
  if (result.status === "insufficient") {
    const available = `Only ${pluralize(result.balance, "credit")} available`;
    return data(
      submission.reply({
        fieldErrors: {
          amount: [
            result.balance === 0
              ? `${available}: there is nothing to remove.`
              : `${available}: remove at most ${formatNumber(result.balance)}.`,
          ],
        },
      }),
      {
        status: 409,
      },
    );
  }
  const description =
    result.status === "duplicate"
      ? "This change was already recorded; it was not booked twice."
      : `${direction === "add" ? "Added" : "Removed"} ${pluralize(amount, "credit")}. Balance: ${formatNumber(result.balance)}.`;
  return redirectWithToast(href("/admin/users/:id", { id: String(account.id) }), { description });
}

const KIND_LABELS: Record<LedgerKind, string> = {
  grant: "Purchase",
  debit: "Messages",
  refund: "Message refund",
  adjustment: "Adjustment",
  reversal: "Payment reversed",
};

const signed = (n: number) => (n > 0 ? `+${formatNumber(n)}` : n < 0 ? `−${formatNumber(-n)}` : "0");

function AdjustForm({
  requestKey,
  lastResult,
}: {
  requestKey: string;
  lastResult: Route.ComponentProps["actionData"];
}) {
  const navigation = useNavigation();
  const [form, fields] = useForm({
    id: "adjust-credits",
    lastResult,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: CreditAdjustmentSchema }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  const directionErrorId = fields.direction.errors?.length ? `${fields.direction.id}-error` : undefined;
  return (
    <Form method="post" {...getFormProps(form)} noValidate className="space-y-4">
      <FormErrors id={form.errorId} errors={form.errors} />
      <input type="hidden" name="requestKey" value={requestKey} />
      <fieldset>
        <legend className="mb-1 block text-sm font-medium text-slate-700">Change</legend>
        <div className="flex flex-wrap gap-4">
          {(["add", "remove"] as const).map((value) => (
            <label key={value} className="flex items-center gap-2 text-sm text-slate-700">
              <input
                type="radio"
                name={fields.direction.name}
                value={value}
                defaultChecked={fields.direction.initialValue === value}
                aria-invalid={directionErrorId ? true : undefined}
                aria-describedby={directionErrorId}
                className="h-4 w-4 border-slate-300 text-brand-600 focus:ring-brand-500"
              />
              {value === "add" ? "Add credits" : "Remove credits"}
            </label>
          ))}
        </div>
        <ErrorList id={directionErrorId} errors={fields.direction.errors} />
      </fieldset>
      <Field
        label="Amount (credits)"
        errors={fields.amount.errors}
        help={`A whole number from 1 to ${formatNumber(MAX_ADJUSTMENT)}.`}
        inputProps={{
          ...getInputProps(fields.amount, { type: "number" }),
          min: 1,
          max: MAX_ADJUSTMENT,
          step: 1,
          inputMode: "numeric",
        }}
      />
      <TextareaField
        label="Reason"
        errors={fields.reason.errors}
        help={`Why, for the ledger (e.g. an invoice number or a correction). At most ${MAX_REASON} characters.`}
        textareaProps={{ ...getTextareaProps(fields.reason), rows: 2, maxLength: MAX_REASON }}
      />
      <Button type="submit" disabled={navigation.state === "submitting"}>
        Book change
      </Button>
    </Form>
  );
}

export default function UserDetails({ loaderData, actionData }: Route.ComponentProps) {
  const { account, ledger, timeZone, requestKey } = loaderData;
  const pageHref = (page: number) =>
    `${href("/admin/users/:id", { id: String(account.id) })}${page > 1 ? `?page=${page}` : ""}`;
  return (
    <div className="space-y-6">
      <PageHeader
        title={account.fullName}
        subtitle={`Account ${account.id}`}
        actions={
          <ButtonLink to={href("/admin/users")} variant="secondary">
            Back to Accounts
          </ButtonLink>
        }
      />
      <Card>
        <dl className="grid gap-x-6 gap-y-3 text-sm sm:grid-cols-2 lg:grid-cols-4">
          <div>
            <dt className="text-slate-500">E-mail</dt>
            <dd className="font-medium break-all">{account.email}</dd>
          </div>
          <div>
            <dt className="text-slate-500">Role</dt>
            <dd>{account.role === "admin" ? <Badge tone="primary">Admin</Badge> : <Badge>Customer</Badge>}</dd>
          </div>
          <div>
            <dt className="text-slate-500">Created ({timeZone})</dt>
            <dd className="font-medium">{formatDateTime(account.createdAt, timeZone)}</dd>
          </div>
          <div>
            <dt className="text-slate-500">Balance</dt>
            <dd className="text-lg font-semibold" data-testid="account-balance">
              {pluralize(account.balance, "credit")}
            </dd>
          </div>
        </dl>
      </Card>
      <Card>
        <h2 className="mb-1 text-lg font-semibold text-slate-900">Add or remove credits</h2>
        <p className="mb-4 text-sm text-slate-600">
          For credits sold outside the shop and for corrections. Every change is recorded in the ledger with your name
          and the reason; a removal never takes the balance below zero.
        </p>
        <AdjustForm key={requestKey} requestKey={requestKey} lastResult={actionData} />
      </Card>
      <section aria-labelledby="ledger-heading">
        <h2 id="ledger-heading" className="mb-3 text-lg font-semibold text-slate-900">
          Ledger
        </h2>
        {ledger.rows.length === 0 ? (
          <p className="rounded-lg bg-white p-6 text-sm text-slate-600 ring-1 ring-slate-200">
            No credits have moved on this account yet.
          </p>
        ) : (
          <Table>
            <caption className="sr-only">Ledger entries, newest first</caption>
            <thead>
              <tr>
                <Th>When ({timeZone})</Th>
                <Th>Kind</Th>
                <Th className="text-right">Credits</Th>
                <Th>Why</Th>
                <Th>By</Th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {ledger.rows.map((entry) => (
                <tr key={entry.id} data-testid="ledger-row">
                  <Td className="whitespace-nowrap">{formatDateTime(entry.createdAt, timeZone)}</Td>
                  <Td>{KIND_LABELS[entry.kind]}</Td>
                  <Td className="text-right whitespace-nowrap">
                    {signed(entry.amount)}
                    {entry.shortfall > 0 ? (
                      <div className="text-xs text-red-700">
                        {formatNumber(entry.shortfall)} already spent (shortfall)
                      </div>
                    ) : null}
                  </Td>
                  <Td className="min-w-48 break-words">
                    {entry.reason ?? entry.note ?? ""}
                    {entry.reason && entry.note ? <div className="text-xs text-slate-500">{entry.note}</div> : null}
                  </Td>
                  <Td>
                    {entry.actor ? (
                      <>
                        <div className="font-medium">{entry.actor.fullName}</div>
                        <div className="text-xs break-all text-slate-500">{entry.actor.email}</div>
                      </>
                    ) : (
                      <span className="text-slate-500">System</span>
                    )}
                  </Td>
                </tr>
              ))}
            </tbody>
          </Table>
        )}
        <NumberedPager
          page={ledger.page}
          totalPages={ledger.totalPages}
          href={pageHref}
          count={pluralize(ledger.total, "entry", "entries")}
          label="Ledger pages"
        />
      </section>
    </div>
  );
}
