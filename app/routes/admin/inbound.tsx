import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { parseWithZod } from "#app/web/forms.ts";
import { data, Form, href, Link } from "react-router";
import { Button } from "#app/components/ui/button.tsx";
import { Field, FormErrors } from "#app/components/ui/field.tsx";
import { PageHeader } from "#app/components/ui/page.tsx";
import { NumberedPager } from "#app/components/ui/pager.tsx";
import { requireAdmin } from "#app/routes/auth/guards.server.ts";
import { findUserByEmail } from "#app/modules/auth/users.server.ts";
import { assignInbound, type CandidateAccount, listUnassignedInbound } from "#app/modules/inbound/inbox.server.ts";
import { AssignInboundSchema } from "#app/modules/inbound/schemas.ts";
import { getEnv } from "#app/utils/env.server.ts";
import { formatDateTime, pluralize } from "#app/utils/misc.ts";
import { redirectWithToast } from "#app/web/toast.server.ts";
import type { Route } from "./+types/inbound";
import { idOf } from "#app/web/params.ts";

export const meta: Route.MetaFunction = () => [{ title: "Unassigned inbound SMS | SMS Gateway" }];

const pageHref = (page: number) => (page > 1 ? `${href("/admin/inbound")}?page=${page}` : href("/admin/inbound"));

export async function loader({ request }: Route.LoaderArgs) {
  const admin = await requireAdmin(request);
  const page = Number(new URL(request.url).searchParams.get("page") ?? 1);
  return { ...(await listUnassignedInbound(page)), timeZone: admin.timeZone, canSimulate: getEnv().testMode.active };
}

export async function action({ request }: Route.ActionArgs) {
  await requireAdmin(request);
  const formData = await request.formData();
  const id = idOf(formData.get("id"));
  const submission = parseWithZod(formData, { schema: AssignInboundSchema });
  if (submission.status !== "success") return data({ id, result: submission.reply() }, { status: 400 });
  const { account } = submission.value;
  const owner = await findUserByEmail(account);
  if (!owner)
    return data(
      { id, result: submission.reply({ fieldErrors: { account: [`No account with the e-mail ${account}`] } }) },
      { status: 400 },
    );
  if (!(await assignInbound(submission.value.id, owner.id)))
    return data(
      {
        id,
        result: submission.reply({ formErrors: ["This message is no longer unassigned: it was assigned already."] }),
      },
      { status: 409 },
    );
  // Back to the page the admin was on (the URL's ?page), which the form posts to.
  return redirectWithToast(pageHref(Number(new URL(request.url).searchParams.get("page") ?? 1)), {
    description: `Message assigned to ${owner.email}: it is in their inbox now.`,
  });
}

function AssignForm({
  id,
  candidates,
  lastResult,
}: {
  id: number;
  candidates: CandidateAccount[];
  lastResult: unknown;
}) {
  const [form, fields] = useForm({ id: `assign-${id}`, lastResult: lastResult as never, shouldValidate: "onSubmit" });
  const listId = `candidates-${id}`;
  return (
    <Form method="post" className="space-y-2 self-start" {...getFormProps(form)} noValidate>
      <FormErrors id={form.errorId} errors={form.errors} />
      <input type="hidden" name="id" value={id} />
      <Field
        label="Assign to (account e-mail)"
        inputProps={{
          ...getInputProps(fields.account, { type: "email" }),
          autoComplete: "off",
          list: candidates.length > 0 ? listId : undefined,
        }}
        errors={fields.account.errors}
      />
      {candidates.length > 0 ? (
        <datalist id={listId}>
          {candidates.map((c) => (
            <option key={c.id} value={c.email} />
          ))}
        </datalist>
      ) : null}
      <Button type="submit" variant="secondary" size="sm">
        Assign
      </Button>
    </Form>
  );
}

export default function UnassignedInbound({ loaderData, actionData }: Route.ComponentProps) {
  const { messages, page, totalPages, total, timeZone, canSimulate } = loaderData;
  return (
    <div>
      <PageHeader title="Unassigned inbound SMS" subtitle="Messages no account owns" />
      <p className="mb-4 text-sm text-slate-700">
        Sent to an address that is no account&apos;s sender, or to the shared sender by a phone that no account, or more
        than one, wrote to from it in the 30 days before. Assign one to the account it answers: it then shows in that
        account&apos;s inbox, API and webhooks.
        {canSimulate ? (
          <>
            {" "}
            <Link to={href("/admin/simulate")}>Simulate an inbound SMS</Link>.
          </>
        ) : null}
      </p>
      {messages.length === 0 ? (
        <p className="rounded-lg bg-white p-8 text-center text-slate-600 shadow-sm ring-1 ring-slate-200">
          No unassigned messages.
        </p>
      ) : (
        <ul className="space-y-4" aria-label="Unassigned inbound messages, newest first">
          {messages.map((m) => (
            <li
              key={m.id}
              data-testid="unassigned-row"
              className="grid gap-4 rounded-lg bg-white p-4 text-sm shadow-sm ring-1 ring-slate-200 md:grid-cols-2"
            >
              <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1">
                <dt className="text-slate-600">Received</dt>
                <dd>
                  {formatDateTime(m.receivedAt, timeZone)} ({timeZone})
                </dd>
                <dt className="text-slate-600">From</dt>
                <dd className="break-all">{m.from}</dd>
                <dt className="text-slate-600">To</dt>
                <dd className="break-all">{m.to}</dd>
                <dt className="text-slate-600">Message</dt>
                <dd className="break-words whitespace-pre-wrap text-slate-900">{m.body}</dd>
                <dt className="text-slate-600">Accounts that wrote to it</dt>
                <dd>
                  {m.candidates.length === 0 ? (
                    <span className="text-slate-600">No account in the 30 days before</span>
                  ) : (
                    <ul className="space-y-1" data-testid="candidates">
                      {m.candidates.map((c) => (
                        <li key={c.id} className="break-all">
                          <Link to={href("/admin/users/:id", { id: String(c.id) })}>{c.email}</Link>
                        </li>
                      ))}
                    </ul>
                  )}
                </dd>
              </dl>
              <AssignForm
                id={m.id}
                candidates={m.candidates}
                lastResult={actionData?.id === m.id ? actionData.result : undefined}
              />
            </li>
          ))}
        </ul>
      )}
      <NumberedPager
        page={page}
        totalPages={totalPages}
        href={pageHref}
        count={pluralize(total, "message")}
        label="Pages"
      />
    </div>
  );
}
