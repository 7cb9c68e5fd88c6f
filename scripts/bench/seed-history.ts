// What the history filters need on top of seedMillionMessages (which mixes the outcomes): a
// 10,000-message campaign and inbound replies, written straight into the database (either engine).
import { sqlRow, sqlRun } from "#tests/support/database.ts";

const DAY_MS = 86_400_000;
const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/**
 * Makes 10,000 of the user's seeded messages a campaign and adds 20,000 inbound messages; returns
 * the history URLs the benchmark requests (every filter alone, some together, a few pages deep).
 */
export async function seedHistoryFilters(userId: number, now: number): Promise<string[]> {
  const campaign = (await sqlRow<{ id: number }>(
    `insert into group_sends (user_id, group_name, body, segments, status, total, queued, credits, created_at, updated_at, finished_at)
     values (?, 'Bench customers', 'History message', 1, 'done', 10000, 10000, 10000, ?, ?, ?) returning id`,
    userId,
    now - 30 * DAY_MS,
    now,
    now,
  ))!;
  await sqlRun(
    `update sms_messages set group_send_id = ?, source = 'group'
     where id in (select id from sms_messages where user_id = ? order by id desc limit 10000 offset 43200)`,
    campaign.id,
    userId,
  );
  await sqlRun(
    {
      sqlite: `with recursive n(i) as (select 1 union all select i + 1 from n where i < 20000)
       insert into inbound_messages (user_id, from_phone, to_address, body, encoding, parts, dedupe_key, received_at)
       select @userId, '+1202555' || printf('%04d', i % 10000), '+12025550000', 'Reply number ' || i, 'GSM-7', 1, 'bench-' || i, @now - (20000 - i) * 3600000
       from n`,
      postgres: `insert into inbound_messages (user_id, from_phone, to_address, body, encoding, parts, dedupe_key, received_at)
       select @userId::bigint, '+1202555' || lpad((i % 10000)::text, 4, '0'), '+12025550000', 'Reply number ' || i, 'GSM-7', 1, 'bench-' || i,
              @now::bigint - (20000 - i) * 3600000
       from generate_series(1::bigint, 20000) as i`,
    },
    { userId, now },
  );

  const filters = [
    "status=failed",
    "status=undelivered",
    "status=submitted",
    "phone=%2B12025550042",
    "phone=%2B12025559999&status=failed",
    "text=code+is+12",
    "text=Order+99",
    `from=${isoDay(now - 10 * DAY_MS)}&to=${isoDay(now - 3 * DAY_MS)}`,
    `from=${isoDay(now - 400 * DAY_MS)}&to=${isoDay(now - 300 * DAY_MS)}`,
    `from=${isoDay(now - 60 * DAY_MS)}&to=${isoDay(now - 30 * DAY_MS)}&status=failed`,
    `campaign=${campaign.id}`,
    `campaign=${campaign.id}&status=undelivered`,
    "direction=inbound",
    "direction=inbound&phone=%2B12025550042",
    "direction=inbound&text=number+42",
    "status=delivered&text=code",
  ];
  return filters.flatMap((filter, i) =>
    [1, 2, 7].map((page) => `/sms/messageHistory?${filter}&page=${page + (i % 3)}`),
  );
}
