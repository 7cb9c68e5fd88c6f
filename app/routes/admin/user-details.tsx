import { randomBytes } from "node:crypto";
import { getFormProps, getInputProps, getTextareaProps, useForm } from "@conform-to/react";
import { parseWithZod } from "#app/web/forms.ts";
import type { ReactNode } from "react";
import { data, Form, href, useNavigation } from "react-router";
import { z } from "zod";
import { Badge } from "#app/components/ui/badge.tsx";
import { Button, ButtonLink } from "#app/components/ui/button.tsx";
import { ErrorList, Field, FormErrors, TextareaField } from "#app/components/ui/field.tsx";
import { Card, PageHeader } from "#app/components/ui/page.tsx";
import { NumberedPager } from "#app/components/ui/pager.tsx";
import { Table, Td, Th } from "#app/components/ui/table.tsx";
import { requireAdmin } from "#app/routes/auth/guards.server.ts";
import { reloadApiKeys } from "#app/api/auth.server.ts";
import {
  type AccountChange,
  accountAccess,
  clearTwoFactor,
  disableAccount,
  enableAccount,
} from "#app/modules/accounts/account-status.server.ts";
import { isTwoFactorEnabled } from "#app/modules/auth/two-factor.server.ts";
import { getAccount } from "#app/modules/credits/accounts.server.ts";
import { adjustCredits, type LedgerKind, listLedgerEntries } from "#app/modules/credits/ledger.server.ts";
import { CreditAdjustmentSchema, LedgerPageSchema, MAX_ADJUSTMENT, MAX_REASON } from "#app/modules/credits/schemas.ts";
import { formatDateTime, formatNumber, pluralize } from "#app/utils/misc.ts";
import { notFound } from "#app/web/responses.server.ts";
import { redirectWithToast } from "#app/web/toast.server.ts";
import type { Route } from "./+types/user-details";
import { idOf } from "#app/web/params.ts";

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: `${loaderData?.account.fullName ?? "Account"} | SMS Gateway` },
];

/** The account named in the URL; anything else (unknown, not a number) is a 404. */
async function accountOf(params: { id: string }) {
  const account = await getAccount(idOf(params.id));
  if (!account) throw notFound();
  return account;
}

export async function loader({ request, params }: Route.LoaderArgs) {
  const admin = await requireAdmin(request);
  const account = await accountOf(params);
  const search = Object.fromEntries(new URL(request.url).searchParams);
  const { page } = LedgerPageSchema.parse(search);
  const ledger = await listLedgerEntries(account.id, page);
  const access = accountAccess(admin.id, account, await isTwoFactorEnabled(account.id));
  const confirm = ConfirmParam.safeParse(search.confirm);
  return {
    timeZone: admin.timeZone,
    account: { ...account, createdAt: account.createdAt.getTime(), disabledAt: account.disabledAt?.getTime() ?? null },
    access,
    // Only a confirmation the account offers: ?confirm=disable on a disabled account shows nothing.
    confirm: confirm.success && access.can[confirm.data] ? confirm.data : null,
    ledger: { ...ledger, rows: ledger.rows.map((r) => ({ ...r, createdAt: r.createdAt.getTime() })) },
    // A fresh key per visit: a double submit of this form books once (see adjustCredits).
    requestKey: randomBytes(18).toString("base64url"),
  };
}

const ConfirmParam = z.enum(["disable", "clear-two-factor"]);
const AccessIntent = z.object({ intent: z.enum(["disable", "enable", "clear-two-factor"]) });

/** What the admin may do to this account's access: never to their own, nor disable another admin. */
const REFUSALS: Record<Extract<AccountChange, "own-account" | "admin-account">, string> = {
  "own-account": "You cannot change your own account's access here.",
  "admin-account": "An admin's account cannot be disabled.",
};

const ANSWERS: Record<z.infer<typeof AccessIntent>["intent"], { done: string; unchanged: string }> = {
  disable: {
    done: "Account disabled: its sessions ended, its keys are refused and its waiting messages were refunded.",
    unchanged: "The account is already disabled.",
  },
  enable: { done: "Account enabled again.", unchanged: "The account is already enabled." },
  "clear-two-factor": {
    done: "Two-factor authentication cleared; the owner has been e-mailed.",
    unchanged: "Two-factor authentication is already off for this account.",
  },
};

async function changeAccess(adminId: number, userId: number, intent: z.infer<typeof AccessIntent>["intent"]) {
  const change = { disable: disableAccount, enable: enableAccount, "clear-two-factor": clearTwoFactor }[intent];
  const result = await change(adminId, userId);
  if (result === "not-found") throw notFound();
  const here = href("/admin/users/:id", { id: String(userId) });
  if (result === "unchanged") return redirectWithToast(here, { type: "error", description: ANSWERS[intent].unchanged });
  if (result !== "done") return redirectWithToast(here, { type: "error", description: REFUSALS[result] });
  // Cached keys carry whether their account is disabled.
  if (intent !== "clear-two-factor") await reloadApiKeys();
  return redirectWithToast(here, { description: ANSWERS[intent].done });
}

export async function action({ request, params }: Route.ActionArgs) {
  const admin = await requireAdmin(request);
  const account = await accountOf(params);
  const formData = await request.formData();
  const access = AccessIntent.safeParse({ intent: formData.get("intent") });
  if (access.success) return changeAccess(admin.id, account.id, access.data.intent);
  const submission = parseWithZod(formData, { schema: CreditAdjustmentSchema });
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  const { direction, amount, reason, requestKey } = submission.value;
  const result = await adjustCredits({
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

const CONFIRMATIONS = {
  disable: {
    title: "Disable this account?",
    text: "Its owner is signed out and cannot sign in, its API keys are refused (403 account_disabled), its scheduled sends are skipped, its webhooks are not called, and its messages waiting to be sent are cancelled and refunded. You can enable it again later. The owner is e-mailed.",
    yes: "Disable account",
  },
  "clear-two-factor": {
    title: "Clear two-factor authentication?",
    text: "Do this only after checking that the request comes from the owner (e.g. a lost phone and no recovery code left): signing in will then need only the password. The owner is e-mailed.",
    yes: "Clear two-factor",
  },
} as const;

function IntentForm({ intent, label, children }: { intent: string; label: string; children?: ReactNode }) {
  const navigation = useNavigation();
  return (
    <Form method="post" className="flex flex-wrap gap-2">
      <input type="hidden" name="intent" value={intent} />
      <Button
        type="submit"
        variant={intent === "enable" ? "primary" : "danger"}
        disabled={navigation.state === "submitting"}
      >
        {label}
      </Button>
      {children}
    </Form>
  );
}

function AccessCard({
  account,
  access,
  confirm,
  timeZone,
}: Pick<Route.ComponentProps["loaderData"], "account" | "access" | "confirm" | "timeZone">) {
  const here = href("/admin/users/:id", { id: String(account.id) });
  return (
    <Card className="space-y-4">
      <h2 className="text-lg font-semibold text-slate-900">Access</h2>
      <dl className="grid gap-x-6 gap-y-3 text-sm sm:grid-cols-2">
        <div>
          <dt className="text-slate-500">Status</dt>
          <dd data-testid="account-status">
            {account.disabledAt ? (
              <>
                <Badge tone="danger">Disabled</Badge>{" "}
                <span className="text-slate-700">
                  since {formatDateTime(account.disabledAt, timeZone)} ({timeZone})
                </span>
              </>
            ) : (
              <Badge tone="success">Active</Badge>
            )}
          </dd>
        </div>
        <div>
          <dt className="text-slate-500">Two-factor</dt>
          <dd data-testid="account-two-factor">{access.twoFactorOn ? "On" : "Off"}</dd>
        </div>
      </dl>
      {confirm ? (
        <div className="space-y-3 rounded-md bg-red-50 p-4 ring-1 ring-red-200">
          <h3 className="font-semibold text-slate-900">{CONFIRMATIONS[confirm].title}</h3>
          <p className="text-sm text-slate-700">{CONFIRMATIONS[confirm].text}</p>
          <IntentForm intent={confirm} label={CONFIRMATIONS[confirm].yes}>
            <ButtonLink to={here} variant="secondary" replace preventScrollReset>
              Cancel
            </ButtonLink>
          </IntentForm>
        </div>
      ) : (
        <div className="flex flex-wrap gap-2">
          {access.can.disable ? (
            <ButtonLink to="?confirm=disable" variant="danger" preventScrollReset>
              Disable account
            </ButtonLink>
          ) : null}
          {access.can.enable ? <IntentForm intent="enable" label="Enable account" /> : null}
          {access.can["clear-two-factor"] ? (
            <ButtonLink to="?confirm=clear-two-factor" variant="secondary" preventScrollReset>
              Clear two-factor
            </ButtonLink>
          ) : null}
        </div>
      )}
      {access.own ? (
        <p className="text-sm text-slate-600">
          This is your own account: its access is changed on your Security pages.
        </p>
      ) : account.role === "admin" ? (
        <p className="text-sm text-slate-600">An admin&apos;s account cannot be disabled.</p>
      ) : null}
    </Card>
  );
}

export default function UserDetails({ loaderData, actionData }: Route.ComponentProps) {
  const { account, access, confirm, ledger, timeZone, requestKey } = loaderData;
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
      <AccessCard account={account} access={access} confirm={confirm} timeZone={timeZone} />
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
