import { requireUser } from "#app/routes/auth/guards.server.ts";
import { historyCsv } from "#app/modules/sms/history-export.server.ts";
import { isOwnCampaign, parseHistoryFilters } from "#app/modules/sms/history.server.ts";
import { csvHeaders } from "#app/utils/csv.server.ts";
import { notFound } from "#app/web/responses.server.ts";
import type { Route } from "./+types/message-history-export";

/** Every message matching the history's filters as a CSV download, streamed as it is read. */
export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireUser(request);
  const { filters, errors } = parseHistoryFilters(new URL(request.url).searchParams, user.timeZone);
  if (filters.campaign !== undefined && !(await isOwnCampaign(user.id, filters.campaign))) throw notFound();
  const invalid = Object.values(errors);
  if (invalid.length > 0) return new Response(`Bad filter: ${invalid.join("; ")}\n`, { status: 400 });
  return new Response(await historyCsv(user.id, filters, user.timeZone), { headers: csvHeaders("messages.csv") });
}
