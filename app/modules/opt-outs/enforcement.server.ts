// The check every send makes: which sender it goes out from, and whether its number opted out of it.
import { statement } from "#app/db/statements.server.ts";

/** The scope of a keyword opt-out made through the gateway's shared default sender. */
export const SHARED_SCOPE = "";

/** A keyword opt-out through this sender, or the shared default sender (null), covers a send from it. */
export const scopeOf = (fromAddress: string | null): string => fromAddress ?? SHARED_SCOPE;

// Two index probes with positional parameters: measured, a joined single statement (or named
// parameters) cost ten times as much. Run inside the send's transaction, they share its snapshot.
const accountSender = statement<[number], { address: string }>(
  "select address from senders where user_id = ? and status = 'active' and is_default = 1",
);
const ownSender = statement<[number, string], { address: string }>(
  "select address from senders where user_id = ? and status = 'active' and address = ?",
);
// Keyword rows have a scope and no user_id; the account's own rows a user_id and no scope.
const optOutOf = statement<[string, number, string], { hit: 1 }>(
  "select 1 as hit from opt_outs where phone = ? and (user_id = ? or scope = ?) limit 1",
);

export type ResolvedSend = {
  /** The sender it goes out from; null: the gateway's default (or `from` was not the account's). */
  fromAddress: string | null;
  optedOut: boolean;
};

/** Resolves a send from `userId` to `phone`, from `from` when given, else from the account's default sender. */
export function resolveSend(userId: number, phone: string, from: string | null | undefined): ResolvedSend {
  const sender = from ? ownSender().get(userId, from) : accountSender().get(userId);
  const fromAddress = sender?.address ?? null;
  return { fromAddress, optedOut: optOutOf().get(phone, userId, scopeOf(fromAddress)) !== undefined };
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
