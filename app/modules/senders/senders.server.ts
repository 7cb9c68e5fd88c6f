import { and, asc, desc, eq, inArray, sql } from "drizzle-orm";
import { getDb, withTx, type Tx } from "#app/db/client.server.ts";
import { users } from "#app/db/schema/core.ts";
import { sqlText, statements } from "#app/db/statements.server.ts";
import { senders } from "#app/db/schema/senders.ts";
import { clock } from "#app/utils/clock.server.ts";
import { getEnv } from "#app/utils/env.server.ts";
import {
  DuplicateSenderError,
  SenderNotFoundError,
  SharedSenderAddressError,
  UnknownSenderError,
} from "#app/modules/senders/errors.ts";
import { DEFAULT_TON_NPI, kindOfAddress, type SenderKind, type SenderStatus } from "#app/modules/senders/senders.ts";
import type { SenderSource } from "#app/modules/messaging/transport-types.ts";

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

const queries = statements({
  // Prepared once: every inbound message and keyword looks its sender up (Drizzle would build and
  // prepare this query on each call, about 100 µs).
  activeSender: sqlText<[string, string], SenderIdentity>(
    `select id, address, kind, ton, npi, user_id as userId from senders
   where address in (?, ?) and status = 'active' limit 1`,
  ),
});

/**
 * The active sender with this address, as an SMSC writes it (a long number may come without its
 * "+"), or null: the address is the shared default sender or unknown.
 */
export async function findSenderByAddress(address: string): Promise<SenderIdentity | null> {
  const withPlus = /^\d{7,15}$/.test(address) ? `+${address}` : address;
  return (await queries.activeSender.get(address, withPlus)) ?? null;
}

/** Whether `address` is the gateway's shared default sender, as an SMSC or a customer may write it ("+", case). */
export function isSharedSenderAddress(address: string): boolean {
  const bare = (value: string) => value.trim().replace(/^\+/, "").toLowerCase();
  return bare(address) === bare(getEnv().SMPP_SOURCE_ADDR);
}

/**
 * How each address goes out over SMPP: its sender's TON/NPI, or its kind's defaults when the sender
 * has since been removed (the message keeps the address it was queued with).
 */
export async function senderSources(addresses: string[]): Promise<Map<string, SenderSource>> {
  const sources = new Map<string, SenderSource>();
  if (addresses.length === 0) return sources;
  const rows = await getDb()
    .select({ address: senders.address, ton: senders.ton, npi: senders.npi })
    .from(senders)
    .where(and(inArray(senders.address, addresses), eq(senders.status, "active")))
    .all();
  for (const row of rows) sources.set(row.address, row);
  for (const address of addresses) {
    if (!sources.has(address)) sources.set(address, { address, ...DEFAULT_TON_NPI[kindOfAddress(address)] });
  }
  return sources;
}

export type Sender = SenderIdentity & {
  isDefault: boolean;
  status: SenderStatus;
  rejectionReason: string | null;
  createdAt: Date;
  decidedAt: Date | null;
};

export type AdminSender = Sender & { ownerEmail: string | null };

export type SenderInput = { address: string; kind: SenderKind; ton: number; npi: number; userId: number | null };

const senderColumns = {
  ...identityColumns,
  isDefault: senders.isDefault,
  status: senders.status,
  rejectionReason: senders.rejectionReason,
  createdAt: senders.createdAt,
  decidedAt: senders.decidedAt,
};

/** Every sender and request, requests waiting for a decision first. */
export async function listAllSenders(): Promise<AdminSender[]> {
  return await getDb()
    .select({ ...senderColumns, ownerEmail: users.email })
    .from(senders)
    .leftJoin(users, eq(users.id, senders.userId))
    .orderBy(sql`${senders.status} = 'pending' desc`, asc(senders.address), asc(senders.id))
    .all();
}

export async function getSender(id: number): Promise<AdminSender> {
  const row = await getDb()
    .select({ ...senderColumns, ownerEmail: users.email })
    .from(senders)
    .leftJoin(users, eq(users.id, senders.userId))
    .where(eq(senders.id, id))
    .get();
  if (!row) throw new SenderNotFoundError();
  return row;
}

/** The account's senders and requests: active ones first, the default at the top. */
export async function listOwnSenders(userId: number): Promise<Sender[]> {
  return await getDb()
    .select(senderColumns)
    .from(senders)
    .where(eq(senders.userId, userId))
    .orderBy(sql`${senders.status} = 'active' desc`, desc(senders.isDefault), asc(senders.address), asc(senders.id))
    .all();
}

/** The senders the account may send from (the From choice), the default first. */
export async function sendingSenders(userId: number): Promise<{ address: string; isDefault: boolean }[]> {
  return await getDb()
    .select({ address: senders.address, isDefault: senders.isDefault })
    .from(senders)
    .where(and(eq(senders.userId, userId), eq(senders.status, "active")))
    .orderBy(desc(senders.isDefault), asc(senders.address))
    .all();
}

async function assertAddressFree(tx: Tx, address: string, exceptId?: number): Promise<void> {
  // A sender with the shared sender's address would take every reply meant for the accounts sending from it.
  if (isSharedSenderAddress(address)) throw new SharedSenderAddressError(address);
  const other = await tx
    .select({ id: senders.id })
    .from(senders)
    .where(and(eq(senders.address, address), eq(senders.status, "active")))
    .get();
  if (other && other.id !== exceptId) throw new DuplicateSenderError(address);
}

/** An account with active senders but no default gets its oldest one as default. */
async function ensureDefault(tx: Tx, userId: number | null): Promise<void> {
  if (userId === null) return;
  const active = and(eq(senders.userId, userId), eq(senders.status, "active"));
  const current = await tx
    .select({ id: senders.id })
    .from(senders)
    .where(and(active, eq(senders.isDefault, true)))
    .get();
  if (current) return;
  const first = await tx.select({ id: senders.id }).from(senders).where(active).orderBy(asc(senders.id)).get();
  if (first) await tx.update(senders).set({ isDefault: true }).where(eq(senders.id, first.id)).run();
}

/** An admin's new active sender (assigned or not). DuplicateSenderError when the address is taken. */
export async function createSender(input: SenderInput): Promise<Sender> {
  const now = clock.date();
  return await withTx(async (tx) => {
    await assertAddressFree(tx, input.address);
    const row = await tx
      .insert(senders)
      .values({ ...input, status: "active", createdAt: now, updatedAt: now, decidedAt: now })
      .returning({ id: senders.id })
      .get();
    await ensureDefault(tx, input.userId);
    return (await tx.select(senderColumns).from(senders).where(eq(senders.id, row.id)).get())!;
  });
}

/** An admin's edit of a sender (address, kind, TON/NPI, the account it is assigned to). */
export async function updateSender(id: number, input: SenderInput): Promise<Sender> {
  const now = clock.date();
  return await withTx(async (tx) => {
    const before = await tx
      .select({ userId: senders.userId, status: senders.status })
      .from(senders)
      .where(eq(senders.id, id))
      .get();
    if (!before) throw new SenderNotFoundError();
    if (before.status === "active") await assertAddressFree(tx, input.address, id);
    const moved = before.userId !== input.userId;
    await tx
      .update(senders)
      .set({ ...input, updatedAt: now, ...(moved && { isDefault: false }) })
      .where(eq(senders.id, id))
      .run();
    await ensureDefault(tx, before.userId);
    await ensureDefault(tx, input.userId);
    return (await tx.select(senderColumns).from(senders).where(eq(senders.id, id)).get())!;
  });
}

export async function deleteSender(id: number): Promise<void> {
  await withTx(async (tx) => {
    const row = await tx.delete(senders).where(eq(senders.id, id)).returning({ userId: senders.userId }).get();
    if (!row) throw new SenderNotFoundError();
    await ensureDefault(tx, row.userId);
  });
}

async function pendingRequest(tx: Tx, id: number) {
  const row = await tx
    .select({ address: senders.address, userId: senders.userId })
    .from(senders)
    .where(and(eq(senders.id, id), eq(senders.status, "pending")))
    .get();
  if (!row) throw new SenderNotFoundError();
  return row;
}

/** Approves a customer's request: the sender becomes active on their account. */
export async function approveSenderRequest(id: number): Promise<void> {
  const now = clock.date();
  await withTx(async (tx) => {
    const request = await pendingRequest(tx, id);
    await assertAddressFree(tx, request.address);
    await tx.update(senders).set({ status: "active", decidedAt: now, updatedAt: now }).where(eq(senders.id, id)).run();
    await ensureDefault(tx, request.userId);
  });
}

/** Rejects a customer's request with the reason they will see. */
export async function rejectSenderRequest(id: number, reason: string): Promise<void> {
  const now = clock.date();
  await withTx(async (tx) => {
    await pendingRequest(tx, id);
    await tx
      .update(senders)
      .set({ status: "rejected", rejectionReason: reason, decidedAt: now, updatedAt: now })
      .where(eq(senders.id, id))
      .run();
  });
}

/**
 * A customer's request for an alphanumeric sender ID. DuplicateSenderError when it is already in use
 * or they already asked for it and wait for the decision.
 */
export async function requestSender(userId: number, address: string): Promise<Sender> {
  const now = clock.date();
  return await withTx(async (tx) => {
    await assertAddressFree(tx, address);
    const waiting = await tx
      .select({ id: senders.id })
      .from(senders)
      .where(and(eq(senders.userId, userId), eq(senders.address, address), eq(senders.status, "pending")))
      .get();
    if (waiting) throw new DuplicateSenderError(address);
    const row = await tx
      .insert(senders)
      .values({
        address,
        kind: "alphanumeric",
        ...DEFAULT_TON_NPI.alphanumeric,
        userId,
        status: "pending",
        createdAt: now,
        updatedAt: now,
      })
      .returning({ id: senders.id })
      .get();
    return (await tx.select(senderColumns).from(senders).where(eq(senders.id, row.id)).get())!;
  });
}

/** Withdraws the account's sender requests still waiting for a decision, inside the caller's transaction. */
export async function withdrawPendingSenderRequests(tx: Tx, userId: number): Promise<number> {
  return (
    await tx
      .delete(senders)
      .where(and(eq(senders.userId, userId), eq(senders.status, "pending")))
      .run()
  ).changes;
}

/** Makes one of the account's active senders its default. SenderNotFoundError for any other id. */
export async function setDefaultSender(userId: number, id: number): Promise<void> {
  await withTx(async (tx) => {
    const own = await tx
      .select({ id: senders.id })
      .from(senders)
      .where(and(eq(senders.id, id), eq(senders.userId, userId), eq(senders.status, "active")))
      .get();
    if (!own) throw new SenderNotFoundError();
    await tx.update(senders).set({ isDefault: false }).where(eq(senders.userId, userId)).run();
    await tx.update(senders).set({ isDefault: true }).where(eq(senders.id, id)).run();
  });
}

/** `from` when it is one of the account's active senders, else UnknownSenderError; undefined stays undefined. */
export async function assertOwnSender(userId: number, from: string | null | undefined): Promise<string | undefined> {
  if (!from) return undefined;
  const own = await getDb()
    .select({ address: senders.address })
    .from(senders)
    .where(and(eq(senders.userId, userId), eq(senders.address, from), eq(senders.status, "active")))
    .get();
  if (!own) throw new UnknownSenderError(from);
  return own.address;
}
