// The price per destination (decision 134): the admin's list, its CSV import, the cached list every
// send path prices by, and what a credit brings in for the admin overview.
import { parse } from "csv-parse/sync";
import { asc, eq, sql } from "drizzle-orm";
import { getDb, type Tx, withTx } from "#app/db/client.server.ts";
import { destinationPrices, destinationPriceVersion } from "#app/db/schema/pricing.ts";
import { sqlText, statements } from "#app/db/statements.server.ts";
import { clock } from "#app/utils/clock.server.ts";
import {
  creditsError,
  creditsPerSegmentIn,
  type DestinationPrice,
  matchingPrefix,
  parsePrefix,
  type PriceList,
  priceListOf,
} from "#app/modules/pricing/price-list.ts";

/**
 * How long a process trusts its list before it reads the version row again: the process that
 * changes the list drops its copy at once, every other process (web, workers, other hosts) sees the
 * change within this, and a burst of sends pays one short read per second rather than one per batch.
 */
export const PRICE_VERSION_CHECK_MS = 1_000;
/** The version row's id: the table has one row. */
const VERSION_ROW = 1;
/** Rows per insert of an import (three parameters each, far under either engine's limit). */
const IMPORT_CHUNK = 500;
/** A price list longer than this is the wrong file. */
export const MAX_IMPORT_ROWS = 20_000;
export const IMPORT_HEADER = ["prefix", "credits_per_segment"] as const;

const queries = statements({
  version: sqlText<[number], { version: number }>("select version from destination_price_version where id = ?"),
  // Credits charged in [start, end) by the first `digits` digits of the number, net of refunds.
  creditsByHead: sqlText<
    [{ digits: number; start: number; end: number }],
    { head: string; credits: number; messages: number }
  >({
    sqlite: `select substr(m.to_phone, 2, @digits) as head,
     sum(m.credits) - coalesce(sum(r.amount), 0) as credits, count(*) as messages
   from sms_messages m left join credit_ledger r on r.key = 'msg:' || m.id || ':refund'
   where m.created_at >= @start and m.created_at < @end and m.credits > 0
   group by head`,
    postgres: `select substr(m.to_phone, 2, @digits) as head,
     (sum(m.credits) - coalesce(sum(r.amount), 0))::bigint as credits, count(*)::bigint as messages
   from sms_messages m left join credit_ledger r on r.key = 'msg:' || m.id || ':refund'
   where m.created_at >= @start and m.created_at < @end and m.credits > 0
   group by head`,
  }),
  soldCredits: sqlText<[], { cents: number | null; credits: number | null }>({
    sqlite: `select sum(total_cents - refunded_cents) as cents, sum(total_credits - credits_reversed) as credits
   from orders where confirmed_at is not null`,
    postgres: `select sum(total_cents - refunded_cents)::bigint as cents, sum(total_credits - credits_reversed)::bigint as credits
   from orders where confirmed_at is not null`,
  }),
});

type CachedList = { version: number; list: PriceList; checkedAt: number };
// One per process (the web process loads app/ twice: the pages' build and the server's imports).
const CACHE = Symbol.for("smsgw.pricing.cache");
const holder = globalThis as { [CACHE]?: CachedList };

/**
 * The price list every send path and quote prices by: kept in memory, its version read at most
 * once per PRICE_VERSION_CHECK_MS and the rows only when the version moved (decision 134).
 */
export async function currentPriceList(): Promise<PriceList> {
  // The injected clock, so a test that holds time still holds the statements a send costs.
  const now = clock.now();
  const cached = holder[CACHE];
  if (cached && now >= cached.checkedAt && now - cached.checkedAt < PRICE_VERSION_CHECK_MS) return cached.list;
  const version = (await queries.version.get(VERSION_ROW))?.version ?? 0;
  if (cached?.version === version) {
    cached.checkedAt = now;
    return cached.list;
  }
  // Read after the version: the rows are at least that new, and a later change moves it again.
  const list = priceListOf(await listPrices());
  holder[CACHE] = { version, list, checkedAt: now };
  return list;
}

/** What a segment to `e164` costs now (the contact send panel's counter). */
export async function creditsPerSegmentTo(e164: string): Promise<number> {
  return creditsPerSegmentIn(await currentPriceList(), e164);
}

/** Every prefix's price, "*" first then by prefix. */
export async function listPrices(): Promise<DestinationPrice[]> {
  return await getDb()
    .select({ prefix: destinationPrices.prefix, creditsPerSegment: destinationPrices.creditsPerSegment })
    .from(destinationPrices)
    .orderBy(asc(destinationPrices.prefix))
    .all();
}

/**
 * Runs a change of the list (which says whether it changed anything) with the version raised in its
 * transaction when it did, then drops this process's copy.
 */
async function changeList(change: (tx: Tx) => Promise<boolean>): Promise<boolean> {
  const changed = await withTx(async (tx) => {
    if (!(await change(tx))) return false;
    await tx
      .insert(destinationPriceVersion)
      .values({ id: VERSION_ROW, version: 1 })
      .onConflictDoUpdate({
        target: destinationPriceVersion.id,
        set: { version: sql`${destinationPriceVersion.version} + 1` },
      })
      .run();
    return true;
  });
  if (changed) holder[CACHE] = undefined;
  return changed;
}

const upsertSet = {
  creditsPerSegment: sql.raw("excluded.credits_per_segment"),
  updatedAt: sql.raw("excluded.updated_at"),
};

/** Adds a prefix or changes its price. */
export async function savePrice(price: DestinationPrice): Promise<void> {
  const updatedAt = clock.date();
  await changeList(async (tx) => {
    await tx
      .insert(destinationPrices)
      .values({ ...price, updatedAt })
      .onConflictDoUpdate({ target: destinationPrices.prefix, set: upsertSet })
      .run();
    return true;
  });
}

/** Removes a prefix's price (its numbers then cost what a shorter prefix or "*" says); false when there was none. */
export async function deletePrice(prefix: string): Promise<boolean> {
  return await changeList(async (tx) => {
    const removed = await tx
      .delete(destinationPrices)
      .where(eq(destinationPrices.prefix, prefix))
      .returning({ prefix: destinationPrices.prefix })
      .all();
    return removed.length > 0;
  });
}

export type ImportLineError = { line: number; message: string };
export type ImportResult = { imported: number } | { errors: ImportLineError[] };

/** Each row of a price CSV as a price, or every bad row's line and reason (the header is line 1). */
function readPriceCsv(text: string): { prices: DestinationPrice[]; errors: ImportLineError[] } {
  let records: { record: string[]; info: { lines: number } }[];
  try {
    records = parse(text, {
      bom: true,
      info: true,
      relax_column_count: true,
      skip_empty_lines: true,
      trim: true,
    }) as unknown as typeof records;
  } catch (error) {
    const line = (error as { lines?: number }).lines ?? 1;
    return { prices: [], errors: [{ line, message: "This is not readable CSV (check the quotes)" }] };
  }
  if (records.length === 0) return { prices: [], errors: [{ line: 1, message: "The file is empty" }] };
  const [header, ...rows] = records;
  const names = header.record.map((cell) => cell.toLowerCase());
  if (names.length !== 2 || names[0] !== IMPORT_HEADER[0] || names[1] !== IMPORT_HEADER[1]) {
    const expected = IMPORT_HEADER.join(",");
    return { prices: [], errors: [{ line: header.info.lines, message: `The first line must be ${expected}` }] };
  }
  if (rows.length === 0)
    return { prices: [], errors: [{ line: 2, message: "The file has no prices under its header" }] };
  if (rows.length > MAX_IMPORT_ROWS) {
    return { prices: [], errors: [{ line: 1, message: `At most ${MAX_IMPORT_ROWS} prices in one file` }] };
  }
  const prices: DestinationPrice[] = [];
  const errors: ImportLineError[] = [];
  const seen = new Map<string, number>();
  for (const { record, info } of rows) {
    const line = info.lines;
    if (record.length !== 2) {
      errors.push({ line, message: `Expected 2 values (prefix,credits_per_segment), found ${record.length}` });
      continue;
    }
    const parsed = parsePrefix(record[0]);
    const credits = record[1] === "" ? Number.NaN : Number(record[1]);
    const creditsProblem = Number.isNaN(credits) ? "Credits per segment must be a number" : creditsError(credits);
    if ("error" in parsed || creditsProblem) {
      errors.push({ line, message: "error" in parsed ? parsed.error : creditsProblem! });
      continue;
    }
    const first = seen.get(parsed.prefix);
    if (first !== undefined) {
      errors.push({ line, message: `The prefix ${record[0]} is already on line ${first}` });
      continue;
    }
    seen.set(parsed.prefix, line);
    prices.push({ prefix: parsed.prefix, creditsPerSegment: credits });
  }
  return { prices, errors };
}

/**
 * Imports a price CSV (header prefix,credits_per_segment): all of it in one transaction, or, when
 * any row is bad, nothing and every bad row's line. `replace`: prefixes not in the file are removed.
 */
export async function importPrices(text: string, { replace = false } = {}): Promise<ImportResult> {
  const { prices, errors } = readPriceCsv(text);
  if (errors.length > 0) return { errors };
  const updatedAt = clock.date();
  await changeList(async (tx) => {
    if (replace) await tx.delete(destinationPrices).run();
    for (let i = 0; i < prices.length; i += IMPORT_CHUNK) {
      await tx
        .insert(destinationPrices)
        .values(prices.slice(i, i + IMPORT_CHUNK).map((price) => ({ ...price, updatedAt })))
        .onConflictDoUpdate({ target: destinationPrices.prefix, set: upsertSet })
        .run();
    }
    return true;
  });
  return { imported: prices.length };
}

/**
 * Money one credit brings in, in cents: what paid orders took (net of refunds) over the credits
 * they sold (net of reversals), all time; null before the first sale. Granted credits are not sales.
 */
export async function revenuePerCredit(): Promise<number | null> {
  const sold = await queries.soldCredits.get();
  const credits = Number(sold?.credits ?? 0);
  return credits > 0 ? Number(sold?.cents ?? 0) / credits : null;
}

export type DestinationRevenue = { prefix: string; messages: number; credits: number; revenueCents: number | null };

/**
 * Credits charged in [start, end), net of refunds, by the price list's prefix that matches each
 * number, with the revenue they stand for (credits x revenuePerCredit); the most credits first.
 */
export async function revenueByDestination(start: number, end: number): Promise<DestinationRevenue[]> {
  const list = await currentPriceList();
  // A number's first `longest` digits decide its longest matching prefix: one group per such head.
  const heads = await queries.creditsByHead.all({ digits: Math.max(1, list.longest), start, end });
  const perCredit = await revenuePerCredit();
  const byPrefix = new Map<string, { messages: number; credits: number }>();
  for (const head of heads) {
    const prefix = matchingPrefix(list, head.head);
    const sums = byPrefix.get(prefix) ?? { messages: 0, credits: 0 };
    sums.messages += Number(head.messages);
    sums.credits += Number(head.credits);
    byPrefix.set(prefix, sums);
  }
  return [...byPrefix]
    .map(([prefix, sums]) => ({
      prefix,
      ...sums,
      revenueCents: perCredit === null ? null : Math.round(sums.credits * perCredit),
    }))
    .sort((a, b) => b.credits - a.credits || a.prefix.localeCompare(b.prefix));
}
