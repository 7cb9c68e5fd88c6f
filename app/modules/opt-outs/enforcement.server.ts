// The check every send makes: which sender it goes out from, and whether its number opted out of it.
import { sqlText, statements } from "#app/db/statements.server.ts";

/** The scope of a keyword opt-out made through the gateway's shared default sender. */
const SHARED_SCOPE = "";

/** A keyword opt-out through this sender, or the shared default sender (null), covers a send from it. */
export const scopeOf = (fromAddress: string | null): string => fromAddress ?? SHARED_SCOPE;

const queries = statements({
  // One query each per batch, whatever its size. Run inside the send's transaction, they share its snapshot.
  sendersOf: sqlText<[number, string], { address: string; isDefault: number }>({
    sqlite: `select address, is_default as isDefault from senders
   where user_id = ? and status = 'active' and (is_default = 1 or address in (select value from jsonb_each(?)))`,
    postgres: `select address, is_default as "isDefault" from senders
   where user_id = $1 and status = 'active' and (is_default or address = any(array(select value from jsonb_array_elements_text($2::jsonb))))`,
  }),
  // Every account's and every scope's opt-outs of the numbers: a number has few, and blocks() picks.
  optOutsOfPhones: sqlText<[string], OptOutRow>({
    sqlite: `select phone, scope, user_id as userId from opt_outs where phone in (select value from jsonb_each(?))`,
    postgres: `select phone, scope, user_id as "userId" from opt_outs where phone = any(array(select value from jsonb_array_elements_text($1::jsonb)))`,
  }),
});

type OptOutRow = { phone: string; scope: string | null; userId: number | null };

/** Keyword rows have a scope and no user_id, the account's own rows a user_id and no scope. */
function blocks(optOut: OptOutRow, userId: number, fromAddress: string | null): boolean {
  return optOut.userId === userId || (optOut.userId === null && optOut.scope === scopeOf(fromAddress));
}

/** The opt-outs of the numbers, by number; the numbers without any are absent. */
async function optOutsByPhone(phones: string[]): Promise<Map<string, OptOutRow[]>> {
  const byPhone = new Map<string, OptOutRow[]>();
  for (const row of await queries.optOutsOfPhones.all(JSON.stringify([...new Set(phones)]))) {
    const rows = byPhone.get(row.phone);
    if (rows) rows.push(row);
    else byPhone.set(row.phone, [row]);
  }
  return byPhone;
}

export type ResolvedSend = {
  /** The sender it goes out from; null: the gateway's default (or `from` was not the account's). */
  fromAddress: string | null;
  optedOut: boolean;
};

/**
 * Resolves sends from `userId`, each to `to` from its `from` when given, else from the account's
 * default sender; a result per send, in order. Two queries for the whole list.
 */
export async function resolveSends(
  userId: number,
  sends: { to: string; from?: string | null }[],
): Promise<ResolvedSend[]> {
  if (sends.length === 0) return [];
  const asked = [...new Set(sends.flatMap((send) => (send.from ? [send.from] : [])))];
  let accountDefault: string | null = null;
  const own = new Set<string>();
  for (const sender of await queries.sendersOf.all(userId, JSON.stringify(asked))) {
    if (sender.isDefault) accountDefault = sender.address;
    own.add(sender.address);
  }
  const optOuts = await optOutsByPhone(sends.map((send) => send.to));
  return sends.map((send) => {
    // An account's default is one of its senders too, so `own` holds it when it is asked for by name.
    const fromAddress = send.from ? (own.has(send.from) ? send.from : null) : accountDefault;
    const optedOut = optOuts.get(send.to)?.some((optOut) => blocks(optOut, userId, fromAddress)) ?? false;
    return { fromAddress, optedOut };
  });
}

type Queued = { id: number; userId: number; toPhone: string; fromAddress: string | null };

/**
 * The messages among `rows` whose number has opted out since they were queued: the worker checks
 * again right before it submits, with one query for the batch.
 */
export async function optedOutSince(rows: Queued[]): Promise<Set<number>> {
  const blocked = new Set<number>();
  if (rows.length === 0) return blocked;
  const optOuts = await optOutsByPhone(rows.map((row) => row.toPhone));
  for (const row of rows) {
    if (optOuts.get(row.toPhone)?.some((optOut) => blocks(optOut, row.userId, row.fromAddress))) blocked.add(row.id);
  }
  return blocked;
}
