// API keys as data: make, hash, encrypt, store and look up. Domain, not app/api: the token page, the seed and the API all use it.
import { createCipheriv, createDecipheriv, hash, hkdfSync, randomBytes } from "node:crypto";
import { crc32 } from "node:zlib";
import { eq } from "drizzle-orm";
import { getDb, inTransaction } from "#app/db/client.server.ts";
import { apiKeys } from "#app/db/schema/api.ts";
import { statement } from "#app/db/statements.server.ts";
import { clock } from "#app/utils/clock.server.ts";
import { getSecrets } from "#app/utils/env.server.ts";

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

let aesKey: Buffer | undefined;
function encryptionKey(): Buffer {
  aesKey ??= Buffer.from(hkdfSync("sha256", getSecrets().apiKey, "smsgw-api-key", "aes-256-gcm", 32));
  return aesKey;
}

// The owner's id is authenticated data: a ciphertext copied onto another user's row does not open.
function encryptKey(userId: number, key: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", encryptionKey(), iv);
  cipher.setAAD(Buffer.from(`user:${userId}`));
  const sealed = Buffer.concat([cipher.update(key, "utf8"), cipher.final()]);
  return ["v1", iv, cipher.getAuthTag(), sealed]
    .map((part) => (typeof part === "string" ? part : part.toString("base64url")))
    .join(".");
}

function decryptKey(userId: number, stored: string): string {
  const [version, iv, tag, sealed] = stored.split(".");
  if (version !== "v1" || !iv || !tag || !sealed) throw new Error("Unknown API key ciphertext format");
  const decipher = createDecipheriv("aes-256-gcm", encryptionKey(), Buffer.from(iv, "base64url"));
  decipher.setAAD(Buffer.from(`user:${userId}`));
  decipher.setAuthTag(Buffer.from(tag, "base64url"));
  return Buffer.concat([decipher.update(Buffer.from(sealed, "base64url")), decipher.final()]).toString("utf8");
}

export type OwnApiKey = { key: string; createdAt: Date; lastUsedAt: Date | null };

/**
 * The user's key in clear, or null when they have none yet. Throws when it cannot be opened (e.g.
 * API_KEY_SECRET changed): the page then says so and offers a new key.
 */
export function getOwnApiKey(userId: number): OwnApiKey | null {
  const row = getDb().select().from(apiKeys).where(eq(apiKeys.userId, userId)).get();
  if (!row) return null;
  return { key: decryptKey(userId, row.keyCiphertext), createdAt: row.createdAt, lastUsedAt: row.lastUsedAt };
}

/** Replaces the user's key (or makes the first one); the old hash no longer finds anyone. */
export function storeNewApiKey(userId: number): { key: string; oldHash: string | null } {
  const key = generateApiKey();
  const now = clock.date();
  return inTransaction((tx) => {
    const old = tx.select({ keyHash: apiKeys.keyHash }).from(apiKeys).where(eq(apiKeys.userId, userId)).get();
    const values = {
      keyHash: hashApiKey(key),
      keyCiphertext: encryptKey(userId, key),
      createdAt: now,
      lastUsedAt: null,
    };
    tx.insert(apiKeys)
      .values({ userId, ...values })
      .onConflictDoUpdate({ target: apiKeys.userId, set: values })
      .run();
    return { key, oldHash: old?.keyHash ?? null };
  });
}

export type KeyOwner = { keyId: number; userId: number; lastUsedAt: number | null };

const findByHash = statement<[string], KeyOwner>(
  "select id as keyId, user_id as userId, last_used_at as lastUsedAt from api_keys where key_hash = ?",
);

export function findKeyOwner(hash: string): KeyOwner | undefined {
  return findByHash().get(hash);
}

const touch = statement(
  "update api_keys set last_used_at = ? where id = ? and (last_used_at is null or last_used_at < ?)",
);

/** Records a use; callers throttle it, so at most one small write a minute per key. */
export function recordKeyUse(keyId: number, now: number): void {
  inTransaction(() => touch().run(now, keyId, now));
}
