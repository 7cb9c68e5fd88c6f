import { Placeholder } from "../../components/placeholder.tsx";
import { requireUser } from "../../modules/auth/guards.server.ts";
import type { Route } from "./+types/scheduled";

export async function loader({ request }: Route.LoaderArgs) {
  await requireUser(request);
  return null;
}

export async function action({ request }: Route.ActionArgs) {
  await requireUser(request);
  return null;
}

export default function Screen() {
  return <Placeholder title="Scheduled SMS" />;
}
