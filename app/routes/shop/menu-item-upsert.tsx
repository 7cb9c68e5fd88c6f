import { Placeholder } from "../../components/placeholder.tsx";
import { requireAdmin } from "../../modules/auth/guards.server.ts";
import type { Route } from "./+types/menu-item-upsert";

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  return null;
}

export async function action({ request }: Route.ActionArgs) {
  await requireAdmin(request);
  return null;
}

export default function Screen() {
  return <Placeholder title="Menu Item" />;
}
