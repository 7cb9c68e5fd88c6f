// The optional features the attribution table switches off one at a time (`npm run bench --
// --attribution`), each through what the bench controls: its accounts' settings, its own database,
// and environment variables the app already reads. With `--all-features` every one is in use:
// quiet hours on (a window 12 hours from now: checked, holds nothing), 1,000 numbers on the account's
// opt-out list, an active default sender, a merge field in the group send's text, metrics served,
// request logs at `info` (the API's summary, decision 117). The rollup is not here: it is one upsert
// per batch in the app's code since decision 045's amendment (its cost: scripts/bench/rollup-triggers.ts).
import { sqlRun } from "#tests/support/database.ts";

export const FEATURES = ["opt-outs", "quiet-hours", "senders", "templates", "metrics", "request-logs"] as const;
export type Feature = (typeof FEATURES)[number];

/** What "off" means for each: the switch, since some checks run whatever the account set (see docs/benchmark.md). */
export const OFF_MEANS: Record<Feature, string> = {
  "opt-outs": "the account's opt-out list empty (the per-send look-up itself still runs: no switch)",
  "quiet-hours": "quiet hours disabled on the accounts",
  senders: "no sender of the account's own (the shared sender)",
  templates: "the group send's text without a merge field",
  metrics: "METRICS_TOKEN unset (/metrics not served; the counters themselves have no switch)",
  "request-logs": "LOG_LEVEL=warn (no access log summary)",
};

export function isFeature(name: string): name is Feature {
  return (FEATURES as readonly string[]).includes(name);
}

/**
 * Puts every feature but `off` in use for the sending accounts, in the bench's database before the
 * app starts; returns the environment the app's processes get on top of the bench's.
 */
export async function useFeatures(
  userIds: number[],
  off: Feature | undefined,
  now: number,
): Promise<Record<string, string | undefined>> {
  const minute = Math.floor(now / 60_000) % 1440;
  const start = (minute + 720) % 1440;
  for (const userId of userIds) {
    await sqlRun(
      "insert into quiet_hours (user_id, enabled, start_minute, end_minute, updated_at) values (?, ?, ?, ?, ?)",
      userId,
      off === "quiet-hours" ? 0 : 1,
      start,
      (start + 60) % 1440,
      now,
    );
    // Numbers the bench never sends to (it sends to +1202...), in one statement per account.
    if (off !== "opt-outs")
      await sqlRun(
        {
          sqlite: `with recursive n(i) as (select 0 union all select i + 1 from n where i < 999)
           insert into opt_outs (phone, source, user_id, created_at) select '+1303555' || printf('%04d', i), 'manual', @userId, @now from n`,
          postgres: `insert into opt_outs (phone, source, user_id, created_at)
           select '+1303555' || lpad(i::text, 4, '0'), 'manual', @userId::bigint, @now::bigint from generate_series(0, 999) as i`,
        },
        { userId, now },
      );
    if (off !== "senders")
      await sqlRun(
        `insert into senders (address, kind, ton, npi, user_id, is_default, status, created_at, updated_at)
         values (?, 'alphanumeric', 5, 0, ?, true, 'active', ?, ?)`,
        `Bench${userId}`,
        userId,
        now,
        now,
      );
  }
  return {
    LOG_LEVEL: off === "request-logs" ? "warn" : "info",
    METRICS_TOKEN: off === "metrics" ? undefined : process.env.METRICS_TOKEN,
  };
}

/** The group send's text: with a merge field unless the templates path is off. */
export const groupText = (off: Feature | undefined) =>
  off === "templates" ? "Group benchmark: hello everyone" : "Group benchmark: hello {{name|everyone}}";
