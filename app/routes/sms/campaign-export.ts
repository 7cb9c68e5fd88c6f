import { requireUser } from "#app/routes/auth/guards.server.ts";
import { campaignCsv } from "#app/modules/campaigns/campaign-export.server.ts";
import { csvHeaders } from "#app/utils/csv.server.ts";
import { positiveInt } from "#app/web/params.ts";
import { notFound } from "#app/web/responses.server.ts";
import type { Route } from "./+types/campaign-export";

/** A campaign's recipients and their outcomes as a CSV download, streamed as it is read. */
export async function loader({ request, params }: Route.LoaderArgs) {
  const user = await requireUser(request);
  const id = positiveInt(params.id);
  const csv = id === undefined ? null : await campaignCsv(user.id, id, user.timeZone);
  if (!csv) throw notFound();
  return new Response(csv, { headers: csvHeaders(`campaign-${id}.csv`) });
}
