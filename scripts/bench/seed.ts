// Bulk rows for the page benchmarks, written straight into SQLite (what years of use would leave).
import type Database from "better-sqlite3";

const DAY_MS = 86_400_000;

/**
 * `count` messages for one account, spread evenly over the past `days` days, with the outcomes a
 * real account has (85 % delivered, 8 % failed, the rest still pending), in one INSERT ... SELECT.
 * Shared by the page benchmarks that need a big account (the dashboard, the history with filters).
 */
export function seedMillionMessages(
  sqlite: Database.Database,
  userId: number,
  now: number,
  { count = 1_000_000, days = 90 } = {},
): void {
  const stepMs = (days * DAY_MS) / count;
  const before = (sqlite.prepare("select coalesce(max(id), 0) as id from sms_messages").get() as { id: number }).id;
  sqlite
    .prepare(
      `with recursive n(i) as (select 1 union all select i + 1 from n where i < :count)
       insert into sms_messages (user_id, to_phone, body, encoding, segments, credits, status, error, source, created_at, updated_at, submitted_at, done_at)
       select :userId, '+1202555' || printf('%04d', i % 10000),
              case i % 4 when 0 then 'Your code is ' || (i * 7919 % 1000000) when 1 then 'Reminder: appointment ' || i
                         when 2 then 'Order ' || i || ' has shipped' else 'Hello from the dashboard benchmark ' || i end,
              'GSM-7', 1, 1,
              case when i % 100 < 85 then 'delivered' when i % 100 < 90 then 'undelivered' when i % 100 < 93 then 'failed'
                   else 'submitted' end,
              case when i % 100 between 85 and 92 then 'Carrier error 001' end,
              case i % 3 when 0 then 'web' when 1 then 'api' else 'group' end,
              t, t, t, case when i % 100 < 93 then t end
       from (select i, cast(:now - (:count - i) * :stepMs as integer) as t from n)`,
    )
    .run({ count, userId, now, stepMs });
  // The dashboards' rollup, as the send path keeps it (decision 045): these rows counted once.
  sqlite
    .prepare(
      `insert into message_rollup (user_id, bucket, pending, delivered, failed)
       select user_id, created_at - created_at % 900000, sum(status not in ('delivered', 'undelivered', 'expired', 'rejected', 'failed')),
              sum(status = 'delivered'), sum(status in ('undelivered', 'expired', 'rejected', 'failed'))
       from sms_messages where id > ? group by 1, 2
       on conflict do update set pending = pending + excluded.pending, delivered = delivered + excluded.delivered,
         failed = failed + excluded.failed`,
    )
    .run(before);
}

const FIRST = ["Ada", "Grace", "Alan", "Edsger", "Barbara", "Donald", "Margaret", "Ken", "Frances", "Dennis"];
const LAST = [
  "Lovelace",
  "Hopper",
  "Turing",
  "Dijkstra",
  "Liskov",
  "Knuth",
  "Hamilton",
  "Thompson",
  "Allen",
  "Ritchie",
];

/** `count` orders from `userIds`, with names, e-mails and phones to search for, and mixed statuses. */
export function seedOrders(sqlite: Database.Database, userIds: number[], count: number, now: number): void {
  const insert = sqlite.prepare(
    `insert into orders (user_id, pickup_name, pickup_email, pickup_phone, total_cents, total_items, total_credits, currency, status, created_at)
     values (?, ?, ?, ?, ?, ?, ?, 'usd', ?, ?)`,
  );
  const statuses = ["Confirmed", "Being Cooked", "Ready for Pickup", "Completed", "Cancelled", "Pending"];
  sqlite.transaction(() => {
    for (let i = 0; i < count; i++) {
      const first = FIRST[i % FIRST.length];
      const last = LAST[Math.floor(i / FIRST.length) % LAST.length];
      insert.run(
        userIds[i % userIds.length],
        `${first} ${last} ${i}`,
        `${first.toLowerCase()}.${last.toLowerCase()}${i}@example.com`,
        `+1202${String(5550000 + (i % 10000)).padStart(7, "0")}`,
        4000,
        1,
        1000,
        statuses[i % statuses.length],
        now - (count - i) * 60_000,
      );
    }
  })();
}
