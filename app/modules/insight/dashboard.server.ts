// The customer's dashboard: messages per local day by outcome, delivery rate, credits spent, latest campaigns.
import { sqlText, statements } from "#app/db/statements.server.ts";
import { countsByDay } from "#app/modules/insight/rollup.server.ts";
import { type DayCounts, lastLocalDaysCached, type Period } from "#app/modules/insight/periods.ts";
import type { GroupSendStatus } from "#app/db/schema/contacts.ts";

export type PeriodTotals = {
  sent: number;
  delivered: number;
  failed: number;
  pending: number;
  inbound: number;
  creditsSpent: number;
  /** Delivered of the messages with a final answer (delivered or failed); null when none has one yet. */
  deliveryRate: number | null;
};

export function totalsOf(days: DayCounts[]): PeriodTotals {
  const sum = (pick: (day: DayCounts) => number) => days.reduce((total, day) => total + pick(day), 0);
  const delivered = sum((d) => d.delivered);
  const failed = sum((d) => d.failed);
  const pending = sum((d) => d.pending);
  return {
    sent: delivered + failed + pending,
    delivered,
    failed,
    pending,
    inbound: sum((d) => d.inbound),
    creditsSpent: sum((d) => d.credits),
    deliveryRate: delivered + failed > 0 ? delivered / (delivered + failed) : null,
  };
}

type CampaignSummary = {
  id: number;
  groupName: string;
  body: string;
  status: GroupSendStatus;
  total: number;
  queued: number;
  skipped: number;
  createdAt: number;
};

const LATEST_CAMPAIGNS = 5;
const queries = statements({
  latestGroupSends: sqlText<[number, number], CampaignSummary>(
    `select id, group_name as groupName, body, status, total, queued, skipped, created_at as createdAt
   from group_sends where user_id = ? order by id desc limit ?`,
  ),
});

/** Everything the dashboard shows for the last `period` days in the account's time zone. */
export async function getDashboard(userId: number, period: Period, timeZone: string, now: number) {
  const perDay = await countsByDay(userId, lastLocalDaysCached(period, timeZone, now));
  return { perDay, totals: totalsOf(perDay), campaigns: await queries.latestGroupSends.all(userId, LATEST_CAMPAIGNS) };
}
