// The check every send makes: which sender it goes out from, and whether its number opted out of it.
import { statement } from "#app/db/statements.server.ts";

/** The scope of a keyword opt-out made through the gateway's shared default sender. */
export const SHARED_SCOPE = "";

/** A keyword opt-out through this sender, or the shared default sender (null), covers a send from it. */
export const scopeOf = (fromAddress: string | null): string => fromAddress ?? SHARED_SCOPE;

// One statement, two index probes: the account's sender (the one asked for, else its default) and an
// opt-out of the number, either the account's own or a keyword one through that sender.
const resolveStatement = statement<
  [{ user: number; from: string | null; phone: string }],
  { fromAddress: string | null; optedOut: 0 | 1 }
>(
  `with chosen as (
     select address from senders where user_id = @user and status = 'active'
       and (case when @from is null then is_default = 1 else address = @from end)
     limit 1)
   select (select address from chosen) as fromAddress,
     exists(select 1 from opt_outs where phone = @phone
       and (user_id = @user or (source = 'keyword' and scope = coalesce((select address from chosen), '')))) as optedOut`,
);

export type ResolvedSend = {
  /** The sender it goes out from; null: the gateway's default (or `from` was not the account's). */
  fromAddress: string | null;
  optedOut: boolean;
};

/** Resolves a send from `userId` to `phone`, from `from` when given, else from the account's default sender. */
export function resolveSend(userId: number, phone: string, from: string | null | undefined): ResolvedSend {
  const row = resolveStatement().get({ user: userId, from: from ?? null, phone })!;
  return { fromAddress: row.fromAddress, optedOut: row.optedOut === 1 };
}

type Queued = { id: number; userId: number; toPhone: string; fromAddress: string | null };

const optOutsOfPhones = statement<[string], { phone: string; scope: string | null; userId: number | null }>(
  `select phone, scope, user_id as userId from opt_outs where phone in (select value from json_each(?))`,
);

/**
 * The messages among `rows` whose number has opted out since they were queued: the worker checks
 * again right before it submits, with one query for the batch.
 */
export function optedOutSince(rows: Queued[]): Set<number> {
  const blocked = new Set<number>();
  if (rows.length === 0) return blocked;
  const found = optOutsOfPhones().all(JSON.stringify([...new Set(rows.map((row) => row.toPhone))]));
  if (found.length === 0) return blocked;
  for (const row of rows) {
    const scope = scopeOf(row.fromAddress);
    const hit = found.some(
      (o) => o.phone === row.toPhone && (o.userId === row.userId || (o.userId === null && o.scope === scope)),
    );
    if (hit) blocked.add(row.id);
  }
  return blocked;
}
