import { Form, href, Link } from "react-router";
import { Badge } from "#app/components/ui/badge.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { Field } from "#app/components/ui/field.tsx";
import { PageHeader } from "#app/components/ui/page.tsx";
import { NumberedPager } from "#app/components/ui/pager.tsx";
import { Table, Td, Th } from "#app/components/ui/table.tsx";
import { requireAdmin } from "#app/routes/auth/guards.server.ts";
import { searchAccounts } from "#app/modules/credits/accounts.server.ts";
import { databaseSize } from "#app/modules/health/health.server.ts";
import { retentionSettings } from "#app/modules/housekeeping/retention.server.ts";
import { AccountsQuerySchema } from "#app/modules/credits/schemas.ts";
import { formatDateTime, formatNumber, pluralize } from "#app/utils/misc.ts";
import type { Route } from "./+types/users";

export const meta: Route.MetaFunction = () => [{ title: "Accounts | SMS Gateway" }];

export async function loader({ request }: Route.LoaderArgs) {
  const admin = await requireAdmin(request);
  const query = AccountsQuerySchema.parse(Object.fromEntries(new URL(request.url).searchParams));
  const list = await searchAccounts(query);
  return {
    q: query.q,
    page: list.page,
    totalPages: list.totalPages,
    total: list.total,
    timeZone: admin.timeZone,
    accounts: list.rows.map((a) => ({
      ...a,
      createdAt: a.createdAt.getTime(),
      disabledAt: a.disabledAt?.getTime() ?? null,
    })),
    database: { ...(await databaseSize()), retention: retentionSettings() },
  };
}

const formatMegabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
const keptFor = (days: number | undefined) => (days ? pluralize(days, "day") : "forever");

function pageHref(q: string, page: number): string {
  const params = new URLSearchParams();
  if (q) params.set("q", q);
  if (page > 1) params.set("page", String(page));
  const search = params.toString();
  return search ? `${href("/admin/users")}?${search}` : href("/admin/users");
}

export default function Users({ loaderData }: Route.ComponentProps) {
  const { q, page, totalPages, total, timeZone, accounts, database } = loaderData;
  return (
    <div>
      <PageHeader title="Accounts" subtitle="Balances and operator credit grants" />
      <p className="mb-4 text-sm text-slate-600" data-testid="database-size">
        Database: {formatMegabytes(database.bytes)} ({formatMegabytes(database.freeBytes)} free inside) · messages kept{" "}
        {keptFor(database.retention.messageDays)} · support requests kept {keptFor(database.retention.supportDays)}
      </p>
      {/* A GET form without a page field: a new search starts at page 1. */}
      <Form
        method="get"
        role="search"
        className="mb-4 flex flex-wrap items-end gap-3 rounded-lg bg-white p-4 shadow-sm ring-1 ring-slate-200"
      >
        <Field
          className="min-w-64 flex-1"
          label="Search"
          help="Part of a name or an e-mail address."
          inputProps={{ name: "q", type: "search", defaultValue: q, maxLength: 100 }}
        />
        <Button type="submit">Search</Button>
      </Form>
      {accounts.length === 0 ? (
        <p className="rounded-lg bg-white p-8 text-center text-slate-600 shadow-sm ring-1 ring-slate-200">
          No accounts found.
        </p>
      ) : (
        <Table>
          <caption className="sr-only">Accounts, newest first</caption>
          <thead>
            <tr>
              <Th>Name</Th>
              <Th>E-mail</Th>
              <Th>Role</Th>
              <Th className="text-right">Balance</Th>
              <Th>Created ({timeZone})</Th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {accounts.map((a) => (
              <tr key={a.id} data-testid="account-row">
                <Td className="break-words">
                  <Link to={href("/admin/users/:id", { id: String(a.id) })}>{a.fullName}</Link>
                  {a.disabledAt ? (
                    <Badge tone="danger" className="ml-2">
                      Disabled
                    </Badge>
                  ) : null}
                </Td>
                <Td className="break-all">{a.email}</Td>
                <Td>{a.role === "admin" ? <Badge tone="primary">Admin</Badge> : <Badge>Customer</Badge>}</Td>
                <Td className="text-right">{formatNumber(a.balance)}</Td>
                <Td className="whitespace-nowrap">{formatDateTime(a.createdAt, timeZone)}</Td>
              </tr>
            ))}
          </tbody>
        </Table>
      )}
      <NumberedPager
        page={page}
        totalPages={totalPages}
        href={(n) => pageHref(q, n)}
        count={pluralize(total, "account")}
        label="Pages"
      />
    </div>
  );
}
