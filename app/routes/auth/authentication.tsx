import { PageHeader, Card } from "#app/components/ui/page.tsx";
import { requireUser } from "#app/routes/auth/guards.server.ts";
import type { Route } from "./+types/authentication";

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireUser(request);
  return { fullName: user.fullName, role: user.role };
}

export default function Authentication({ loaderData }: Route.ComponentProps) {
  return (
    <div className="mx-auto max-w-xl">
      <PageHeader title="Authentication" />
      <Card>
        <p>This page can be accessed by any logged in user.</p>
        <p className="mt-2 text-sm text-slate-600">
          Signed in as {loaderData.fullName} ({loaderData.role}).
        </p>
      </Card>
    </div>
  );
}
