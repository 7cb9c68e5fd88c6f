// Bulk rows for the page benchmarks, written straight into the database (what years of use would
// leave): one set-based statement per engine, through the app's connection.
import { sqlRow, sqlRun } from "#tests/support/database.ts";

const DAY_MS = 86_400_000;

/** `i` from 1 to `@count` (a bigint on PostgreSQL, so products of `i` do not overflow). */
const numbers = {
  sqlite: "with recursive n(i) as (select 1 union all select i + 1 from n where i < @count) select i from n",
  postgres: "select i from generate_series(1::bigint, @count::bigint) as i",
};
/** A parameter in a select list: PostgreSQL would take it for text without the column's type. */
const bigint = (engine: keyof typeof numbers, name: string) =>
  engine === "postgres" ? `@${name}::bigint` : `@${name}`;

/**
 * `count` messages for one account, spread evenly over the past `days` days, with the outcomes a
 * real account has (85 % delivered, 8 % failed, the rest still pending), in one INSERT ... SELECT.
 * Shared by the page benchmarks that need a big account (the dashboard, the history with filters).
 * `settled`: the pending ones delivered too (no sweep has work with them while a phase runs), each
 * with its part as the SMSC answered it.
 */
export async function seedMillionMessages(
  userId: number,
  now: number,
  { count = 1_000_000, days = 90, settled = false } = {},
): Promise<void> {
  const stepMs = (days * DAY_MS) / count;
  const before = (await sqlRow<{ id: number }>("select coalesce(max(id), 0) as id from sms_messages"))!.id;
  const insert = (engine: keyof typeof numbers, phone: string, time: string) =>
    `insert into sms_messages (user_id, to_phone, body, encoding, segments, credits, status, error, source, created_at, updated_at, submitted_at, done_at)
     select ${bigint(engine, "userId")}, '+1202555' || ${phone},
            case i % 4 when 0 then 'Your code is ' || (i * 7919 % 1000000) when 1 then 'Reminder: appointment ' || i
                       when 2 then 'Order ' || i || ' has shipped' else 'Hello from the dashboard benchmark ' || i end,
            'GSM-7', 1, 1,
            case when i % 100 < 85 then 'delivered' when i % 100 < 90 then 'undelivered' when i % 100 < 93 then 'failed'
                 else '${settled ? "delivered" : "submitted"}' end,
            case when i % 100 between 85 and 92 then 'Carrier error 001' end,
            case i % 3 when 0 then 'web' when 1 then 'api' else 'group' end,
            t, t, t, ${settled ? "t" : "case when i % 100 < 93 then t end"}
     from (select i, ${time} as t from (${numbers[engine]}) as n) as timed`;
  await sqlRun(
    {
      sqlite: insert("sqlite", "printf('%04d', i % 10000)", "cast(@now - (@count - i) * @stepMs as integer)"),
      postgres: insert(
        "postgres",
        "lpad((i % 10000)::text, 4, '0')",
        "(@now::bigint - (@count::bigint - i) * @stepMs::double precision)::bigint",
      ),
    },
    { count, userId, now, stepMs },
  );
  // A settled message was answered by the SMSC: its part, as a running gateway's parts table holds them.
  if (settled)
    await sqlRun(
      `insert into sms_message_parts (message_id, part, provider_id, status, updated_at)
       select id, 1, 'settled-' || id, status, updated_at from sms_messages where id > ?`,
      before,
    );
  // The dashboards' rollup, as the send path keeps it (decision 045): these rows counted once.
  await sqlRun(
    `insert into message_rollup (user_id, bucket, pending, delivered, failed)
     select user_id, created_at - created_at % 900000,
            sum(case when status not in ('delivered', 'undelivered', 'expired', 'rejected', 'failed') then 1 else 0 end),
            sum(case when status = 'delivered' then 1 else 0 end),
            sum(case when status in ('undelivered', 'expired', 'rejected', 'failed') then 1 else 0 end)
     from sms_messages where id > ? group by 1, 2
     on conflict (user_id, bucket) do update set pending = message_rollup.pending + excluded.pending,
       delivered = message_rollup.delivered + excluded.delivered, failed = message_rollup.failed + excluded.failed`,
    before,
  );
}

/** `count` contacts of the account, each a member of the group, in two set-based statements. */
export async function seedGroupMembers(userId: number, groupId: number, count: number, now: number): Promise<void> {
  const insert = (engine: keyof typeof numbers, digits: string) =>
    `insert into contacts (user_id, name, phone, email, status, created_at, updated_at)
     select ${bigint(engine, "userId")}, 'Member ' || (i - 1), '+1202' || ${digits}, 'member' || (i - 1) || '@bench.test', true,
            ${bigint(engine, "now")}, ${bigint(engine, "now")}
     from (${numbers[engine]}) as n`;
  await sqlRun(
    { sqlite: insert("sqlite", "(2000000 + i - 1)"), postgres: insert("postgres", "(2000000 + i - 1)::text") },
    { userId, now, count },
  );
  await sqlRun(
    "insert into contact_group_members (group_id, contact_id) select ?, id from contacts where user_id = ? order by id",
    groupId,
    userId,
  );
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
export async function seedOrders(userIds: number[], count: number, now: number): Promise<void> {
  const statuses = ["Confirmed", "Being Cooked", "Ready for Pickup", "Completed", "Cancelled", "Pending"];
  // Row i (from 0) of the lists given as JSON arrays: the same names, owners and statuses as one insert per order.
  const nth = {
    sqlite: (list: string, i: string) => `json_extract(@${list}, '$[' || (${i}) || ']')`,
    postgres: (list: string, i: string) => `(@${list}::jsonb ->> (${i})::int)`,
  };
  const insert = (engine: keyof typeof numbers) => {
    const at = (list: string, i: string) => nth[engine](list, i);
    const first = at("first", "i % 10");
    const last = at("last", `(i / 10) % 10`);
    return `insert into orders (user_id, pickup_name, pickup_email, pickup_phone, total_cents, total_items, total_credits, currency, status, created_at)
     select ${engine === "postgres" ? `${at("users", `i % ${userIds.length}`)}::bigint` : at("users", `i % ${userIds.length}`)},
            ${first} || ' ' || ${last} || ' ' || i, lower(${first}) || '.' || lower(${last}) || i || '@example.com',
            '+1202' || (5550000 + i % 10000), 4000, 1, 1000, 'usd', ${at("statuses", "i % 6")}, @now - (@count - i) * 60000
     from (select i - 1 as i from (${numbers[engine]}) as n) as orders_n`;
  };
  await sqlRun(
    { sqlite: insert("sqlite"), postgres: insert("postgres") },
    {
      count,
      now,
      first: JSON.stringify(FIRST),
      last: JSON.stringify(LAST),
      users: JSON.stringify(userIds),
      statuses: JSON.stringify(statuses),
    },
  );
}

/**
 * `count` route prefixes ("1200", "1201", ...: the bench's +1202 numbers match one) to the
 * environment's upstream (upstream_id null), and a price of 1 credit per segment for each, in
 * set-based statements: the per-message route and price look-ups then run against a realistic table
 * while every message still goes to the bench's SMSC at the usual price. The "*" route is the caller's.
 */
export async function seedRouteTable(count: number, now: number): Promise<void> {
  const prefix = { sqlite: "'1' || (199 + i)", postgres: "'1' || (199 + i)::text" };
  const each = (engine: keyof typeof numbers, insert: string, values: string) =>
    `${insert} select ${prefix[engine]}, ${values} from (${numbers[engine]}) as n`;
  const statement = (insert: string, values: (engine: keyof typeof numbers) => string) => ({
    sqlite: each("sqlite", insert, values("sqlite")),
    postgres: each("postgres", insert, values("postgres")),
  });
  await sqlRun(
    statement(
      "insert into routes (prefix, created_at, updated_at)",
      (engine) => `${bigint(engine, "now")}, ${bigint(engine, "now")}`,
    ),
    { count, now },
  );
  // What the carrier charges differs by prefix, as on a real price sheet (the dry run's margin).
  await sqlRun(
    `insert into route_upstreams (route_id, position, upstream_id, weight, cost_micros)
     select id, 0, null, null, 2000 + id from routes where prefix <> '*'`,
  );
  await sqlRun(
    statement(
      "insert into destination_prices (prefix, credits_per_segment, updated_at)",
      (engine) => `1, ${bigint(engine, "now")}`,
    ),
    { count, now },
  );
  // Every process reloads its price list when the version moves (decision 134).
  await sqlRun(
    `insert into destination_price_version (id, version) values (1, 1)
     on conflict (id) do update set version = destination_price_version.version + 1`,
  );
}
