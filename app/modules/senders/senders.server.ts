import { and, eq, inArray } from "drizzle-orm";
import { getDb } from "#app/db/client.server.ts";
import { senders } from "#app/db/schema/senders.ts";
import type { SenderKind } from "#app/modules/senders/senders.ts";

export type SenderIdentity = {
  id: number;
  address: string;
  kind: SenderKind;
  ton: number;
  npi: number;
  /** The owning account; null: not assigned. */
  userId: number | null;
};

const identityColumns = {
  id: senders.id,
  address: senders.address,
  kind: senders.kind,
  ton: senders.ton,
  npi: senders.npi,
  userId: senders.userId,
};

/**
 * The active sender with this address, as an SMSC writes it (a long number may come without its
 * "+"), or null: the address is the shared default sender or unknown.
 */
export function findSenderByAddress(address: string): SenderIdentity | null {
  const candidates = /^\d{7,15}$/.test(address) ? [address, `+${address}`] : [address];
  return (
    getDb()
      .select(identityColumns)
      .from(senders)
      .where(and(inArray(senders.address, candidates), eq(senders.status, "active")))
      .get() ?? null
  );
}
