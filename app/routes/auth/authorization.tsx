import { PageHeader, Card } from "#app/components/ui/page.tsx";
import { requireAdmin } from "#app/routes/auth/guards.server.ts";
import type { Route } from "./+types/authorization";

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  return null;
}

export default function Authorization() {
  return (
    <div className="mx-auto max-w-xl">
      <PageHeader title="Authorization" />
      <Card>
        <p>This page can be accessed only if the role of the logged in user is ADMIN.</p>
      </Card>
    </div>
  );
}
