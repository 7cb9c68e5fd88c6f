// API keys as data: make, hash, encrypt, store and look up. Domain, not app/api: the token page, the seed and the API all use it.
import { hash, randomBytes } from "node:crypto";
import { crc32 } from "node:zlib";
import { and, asc, eq } from "drizzle-orm";
import { getDb, withTx, type Tx } from "#app/db/client.server.ts";
import { apiKeys } from "#app/db/schema/api.ts";
import { sqlText, statements } from "#app/db/statements.server.ts";
import { clock } from "#app/utils/clock.server.ts";
import { createSealer } from "#app/utils/sealed.server.ts";
import { assertQuota } from "#app/modules/quotas/quotas.server.ts";
import { API_SCOPES, type ApiScope, parseScopes } from "#app/modules/api-keys/scopes.ts";

/** Every key starts with this, so people, logs and secret scanners recognise one. */
export const API_KEY_PREFIX = "smsgw_live_";
const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const RANDOM_CHARS = 36; // 214 bits
const CHECK_CHARS = 6;
const KEY_PATTERN = new RegExp(`^${API_KEY_PREFIX}[0-9A-Za-z]{${RANDOM_CHARS + CHECK_CHARS}}$`);

function base62(value: number, width: number): string {
  let out = "";
  for (let i = 0; i < width; i++) {
    out = ALPHABET[value % 62] + out;
    value = Math.floor(value / 62);
  }
  return out;
}

function randomBase62(length: number): string {
  let out = "";
  while (out.length < length) {
    // 248 = 4 x 62: bytes above it are dropped so every character is equally likely.
    for (const byte of randomBytes(length)) if (byte < 248 && out.length < length) out += ALPHABET[byte % 62];
  }
  return out;
}

/** A checksum at the end lets a typo or a truncated copy be refused without a database look-up. */
function checksum(random: string): string {
  return base62(crc32(random), CHECK_CHARS);
}

export function generateApiKey(): string {
  const random = randomBase62(RANDOM_CHARS);
  return `${API_KEY_PREFIX}${random}${checksum(random)}`;
}

export function isWellFormedApiKey(key: string): boolean {
  if (!KEY_PATTERN.test(key)) return false;
  const body = key.slice(API_KEY_PREFIX.length);
  return checksum(body.slice(0, RANDOM_CHARS)) === body.slice(RANDOM_CHARS);
}

/** Plain SHA-256 is enough: the key has 214 random bits, so there is nothing to guess from the hash. */
export function hashApiKey(key: string): string {
  return hash("sha256", key, "base64url");
}

export function maskApiKey(key: string): string {
  return `${API_KEY_PREFIX}${"•".repeat(16)}${key.slice(-4)}`;
}

// The owner's id is authenticated data: a ciphertext copied onto another user's row does not open.
const sealer = createSealer("smsgw-api-key");
const encryptKey = (userId: number, key: string) => sealer.seal(key, `user:${userId}`);
const decryptKey = (userId: number, stored: string) => sealer.open(stored, `user:${userId}`);

export type OwnApiKey = {
  id: number;
  name: string;
  scopes: ApiScope[];
  /** Null when it cannot be opened (e.g. API_KEY_SECRET changed): the page says so and offers a new key. */
  key: string | null;
  createdAt: Date;
  lastUsedAt: Date | null;
};

function openRow(row: typeof apiKeys.$inferSelect): OwnApiKey {
  let key: string | null;
  try {
    key = decryptKey(row.userId, row.keyCiphertext);
  } catch {
    key = null;
  }
  const { id, name, createdAt, lastUsedAt } = row;
  return { id, name, scopes: parseScopes(row.scopes), key, createdAt, lastUsedAt };
}

/** The user's keys, oldest first. */
export async function listOwnApiKeys(userId: number): Promise<OwnApiKey[]> {
  return (await getDb().select().from(apiKeys).where(eq(apiKeys.userId, userId)).orderBy(asc(apiKeys.id)).all()).map(
    openRow,
  );
}

/**
 * The user's first key in clear, or null when they have none yet (the documentation's examples use
 * it). Throws when it cannot be opened.
 */
export async function getOwnApiKey(
  userId: number,
): Promise<{ key: string; createdAt: Date; lastUsedAt: Date | null } | null> {
  const row = await getDb().select().from(apiKeys).where(eq(apiKeys.userId, userId)).orderBy(asc(apiKeys.id)).get();
  if (!row) return null;
  return { key: decryptKey(userId, row.keyCiphertext), createdAt: row.createdAt, lastUsedAt: row.lastUsedAt };
}

export class ApiKeyNotFoundError extends Error {
  constructor() {
    super("No API key with this id in your account");
    this.name = "ApiKeyNotFoundError";
  }
}

export type NewApiKey = { name: string; scopes: readonly ApiScope[] };

/** A new key beside the user's others; QuotaExceededError when they hold QUOTA_API_KEYS already. */
export async function insertApiKey(userId: number, input: NewApiKey): Promise<{ id: number; key: string }> {
  const key = generateApiKey();
  return await withTx(async (tx) => {
    await assertQuota(tx, userId, "apiKeys");
    const { id } = await tx
      .insert(apiKeys)
      .values({
        userId,
        keyHash: hashApiKey(key),
        keyCiphertext: encryptKey(userId, key),
        name: input.name,
        scopes: input.scopes.join(" "),
        createdAt: clock.date(),
      })
      .returning({ id: apiKeys.id })
      .get();
    return { id, key };
  });
}

/**
 * Replaces key `keyId` (by default the user's first, or makes one with every scope) with a new
 * secret, keeping its name and scopes; the old hash no longer finds anyone.
 */
export async function storeNewApiKey(userId: number, keyId?: number): Promise<{ key: string; oldHash: string | null }> {
  const key = generateApiKey();
  const now = clock.date();
  return await withTx(async (tx) => {
    const old = await tx
      .select({ id: apiKeys.id, keyHash: apiKeys.keyHash })
      .from(apiKeys)
      .where(keyId === undefined ? eq(apiKeys.userId, userId) : and(eq(apiKeys.userId, userId), eq(apiKeys.id, keyId)))
      .orderBy(asc(apiKeys.id))
      .get();
    if (!old && keyId !== undefined) throw new ApiKeyNotFoundError();
    const values = {
      keyHash: hashApiKey(key),
      keyCiphertext: encryptKey(userId, key),
      createdAt: now,
      lastUsedAt: null,
    };
    if (old) await tx.update(apiKeys).set(values).where(eq(apiKeys.id, old.id)).run();
    else
      await tx
        .insert(apiKeys)
        .values({ userId, ...values, scopes: API_SCOPES.join(" ") })
        .run();
    return { key, oldHash: old?.keyHash ?? null };
  });
}

/** Deletes the user's key `keyId`; its hash, so callers can drop it from caches. */
export async function deleteApiKey(userId: number, keyId: number): Promise<string> {
  const deleted = await withTx((tx) =>
    tx
      .delete(apiKeys)
      .where(and(eq(apiKeys.userId, userId), eq(apiKeys.id, keyId)))
      .returning({ keyHash: apiKeys.keyHash })
      .get(),
  );
  if (!deleted) throw new ApiKeyNotFoundError();
  return deleted.keyHash;
}

/** Deletes every key of the user inside the caller's transaction; their hashes, so callers can drop them from caches. */
export async function deleteAllApiKeys(tx: Tx, userId: number): Promise<string[]> {
  return (await tx.delete(apiKeys).where(eq(apiKeys.userId, userId)).returning({ keyHash: apiKeys.keyHash }).all()).map(
    (row) => row.keyHash,
  );
}

/** `disabled`: 1 when an admin has disabled the owner's account (its keys are refused). */
export type KeyOwner = { keyId: number; userId: number; lastUsedAt: number | null; scopes: string; disabled: number };

const queries = statements({
  findByHash: sqlText<[string], KeyOwner>(
    `select k.id as keyId, k.user_id as userId, k.last_used_at as lastUsedAt, k.scopes,
     u.disabled_at is not null as disabled
   from api_keys k join users u on u.id = k.user_id where k.key_hash = ?`,
  ),
  touch: sqlText<[number, number, number]>(
    "update api_keys set last_used_at = ? where id = ? and (last_used_at is null or last_used_at < ?)",
  ),
});

export async function findKeyOwner(hash: string): Promise<KeyOwner | undefined> {
  return await queries.findByHash.get(hash);
}

/** Records a use; callers throttle it, so at most one small write a minute per key. */
export async function recordKeyUse(keyId: number, now: number): Promise<void> {
  await withTx(() => queries.touch.run(now, keyId, now));
}
