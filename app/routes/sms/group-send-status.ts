import { requireUser } from "#app/routes/auth/guards.server.ts";
import { getGroupSendReport } from "#app/modules/group-sends/group-send.server.ts";
import { positiveInt } from "#app/web/params.ts";
import { notFound } from "#app/web/responses.server.ts";
import type { Route } from "./+types/group-send-status";

/** One group send's progress as JSON, polled by the groups list's progress bar. */
export async function loader({ request, params }: Route.LoaderArgs) {
  const user = await requireUser(request);
  const id = positiveInt(params.id);
  const report = id === undefined ? null : await getGroupSendReport(user.id, id);
  if (!report) throw notFound();
  return Response.json(report, { headers: { "Cache-Control": "no-store" } });
}
