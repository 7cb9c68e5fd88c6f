// Bulk rows for the page benchmarks, written straight into SQLite (what years of use would leave).
import type Database from "better-sqlite3";

/** `count` delivered messages for one user, spread over the past `count` minutes. */
export function seedMessages(sqlite: Database.Database, userId: number, count: number, now: number): void {
  sqlite
    .prepare(
      `with recursive n(i) as (select 1 union all select i + 1 from n where i < ?)
       insert into sms_messages (user_id, to_phone, body, encoding, segments, credits, status, source, created_at, updated_at, submitted_at, done_at)
       select ?, '+1202555' || printf('%04d', i % 10000), 'History message number ' || i || ': your code is ' || (i * 7919 % 1000000),
              'GSM-7', 1, 1, 'delivered', 'api', ? - (? - i) * 60000, ? - (? - i) * 60000, ? - (? - i) * 60000, ? - (? - i) * 60000
       from n`,
    )
    .run(count, userId, now, count, now, count, now, count, now, count);
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
