// Two-factor authentication: a TOTP secret per user (RFC 6238, 30-second codes of 6 digits, as
// every authenticator app makes them) and ten single-use recovery codes kept as hashes.
import { hash, randomInt } from "node:crypto";
import { and, eq, isNull, lt, or } from "drizzle-orm";
import { Secret, TOTP } from "otpauth";
import { getDb, withTx, type Tx } from "#app/db/client.server.ts";
import { recoveryCodes, twoFactor } from "#app/db/schema/account-security.ts";
import { clock } from "#app/utils/clock.server.ts";
import { type Limit, hit, reset } from "#app/utils/rate-limit.server.ts";
import { createSealer } from "#app/utils/sealed.server.ts";

const ISSUER = "SMS Gateway";
const PERIOD_SECONDS = 30;
const RECOVERY_CODE_COUNT = 10;
// No 0/o, 1/l/i: a code copied from paper is read back right.
const RECOVERY_ALPHABET = "23456789abcdefghjkmnpqrstuvwxyz";

/** Five wrong codes per account in 15 minutes, then a wait: 10^6 codes leave nothing to guess. */
const TWO_FACTOR_LIMIT: Limit = { name: "two-factor", limit: 5, windowMs: 15 * 60_000 };

const sealer = createSealer("smsgw-totp");
const context = (userId: number) => `user:${userId}`;

function totpFor(secret: string, label: string): TOTP {
  return new TOTP({ issuer: ISSUER, label, period: PERIOD_SECONDS, secret: Secret.fromBase32(secret) });
}

export type TwoFactorStatus = { enabled: boolean; recoveryCodesLeft: number };

export async function twoFactorStatus(userId: number): Promise<TwoFactorStatus> {
  const row = await getDb()
    .select({ enabledAt: twoFactor.enabledAt })
    .from(twoFactor)
    .where(eq(twoFactor.userId, userId))
    .get();
  const left = (
    await getDb()
      .select({ id: recoveryCodes.id })
      .from(recoveryCodes)
      .where(and(eq(recoveryCodes.userId, userId), isNull(recoveryCodes.usedAt)))
      .all()
  ).length;
  return { enabled: Boolean(row?.enabledAt), recoveryCodesLeft: left };
}

export async function isTwoFactorEnabled(userId: number): Promise<boolean> {
  const row = await getDb()
    .select({ enabledAt: twoFactor.enabledAt })
    .from(twoFactor)
    .where(eq(twoFactor.userId, userId))
    .get();
  return Boolean(row?.enabledAt);
}

export type Enrolment = { secret: string; uri: string };

/** The enrolment waiting for its first code, or null (none started, or two-factor is already on). */
export async function pendingEnrolment(userId: number, email: string): Promise<Enrolment | null> {
  const row = await getDb().select().from(twoFactor).where(eq(twoFactor.userId, userId)).get();
  if (!row || row.enabledAt) return null;
  const secret = sealer.open(row.secretCiphertext, context(userId));
  return { secret, uri: totpFor(secret, email).toString() };
}

/** A fresh secret for an enrolment (replacing one not finished); nothing changes when two-factor is on. */
export async function startEnrolment(userId: number, email: string): Promise<Enrolment | null> {
  const secret = new Secret({ size: 20 }).base32;
  const values = { secretCiphertext: sealer.seal(secret, context(userId)), enabledAt: null, lastStep: null };
  const started = await withTx(
    async (tx) =>
      (
        await tx
          .insert(twoFactor)
          .values({ userId, ...values, createdAt: clock.date() })
          .onConflictDoUpdate({ target: twoFactor.userId, set: values, where: isNull(twoFactor.enabledAt) })
          .run()
      ).changes,
  );
  return started ? { secret, uri: totpFor(secret, email).toString() } : null;
}

/** The 30-second step `code` belongs to (one step of clock drift either way), or null. */
function matchingStep(secret: string, code: string): number | null {
  const token = code.replace(/\s+/g, "");
  if (!/^\d{6}$/.test(token)) return null;
  const now = clock.now();
  const delta = totpFor(secret, "").validate({ token, timestamp: now, window: 1 });
  return delta === null ? null : Math.floor(now / 1000 / PERIOD_SECONDS) + delta;
}

/**
 * Checks a TOTP code and uses it up: a code (or an older one) that was accepted once is refused,
 * so a code seen over a shoulder does not sign in a second time. `enabled: false` checks the
 * enrolment's pending secret instead.
 */
async function spendTotpCode(userId: number, code: string, enabled: boolean): Promise<boolean> {
  const row = await getDb().select().from(twoFactor).where(eq(twoFactor.userId, userId)).get();
  if (!row || Boolean(row.enabledAt) !== enabled) return false;
  const step = matchingStep(sealer.open(row.secretCiphertext, context(userId)), code);
  if (step === null || (row.lastStep !== null && step <= row.lastStep)) return false;
  return await withTx(
    async (tx) =>
      (
        await tx
          .update(twoFactor)
          .set({ lastStep: step, ...(enabled ? {} : { enabledAt: clock.date() }) })
          // Conditional: of two requests with the same code at once, one wins.
          .where(
            and(
              eq(twoFactor.userId, userId),
              eq(twoFactor.secretCiphertext, row.secretCiphertext),
              or(isNull(twoFactor.lastStep), lt(twoFactor.lastStep, step)),
            ),
          )
          .run()
      ).changes === 1,
  );
}

const normaliseRecoveryCode = (code: string) => code.toLowerCase().replace(/[^0-9a-z]/g, "");
// The user's id is hashed in: the same code of two users is two different rows.
const hashRecoveryCode = (userId: number, code: string) =>
  hash("sha256", `${userId}:${normaliseRecoveryCode(code)}`, "base64url");

function newRecoveryCode(): string {
  const chars = Array.from({ length: 10 }, () => RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)]);
  return `${chars.slice(0, 5).join("")}-${chars.slice(5).join("")}`;
}

/** Ten new recovery codes in clear (shown once); the old ones stop working. */
export async function replaceRecoveryCodes(userId: number): Promise<string[]> {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
  await withTx(async (tx) => {
    await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId)).run();
    await tx
      .insert(recoveryCodes)
      .values(codes.map((code) => ({ userId, codeHash: hashRecoveryCode(userId, code) })))
      .run();
  });
  return codes;
}

/** Turns two-factor on when `code` matches the pending secret; the recovery codes, or null. */
export async function finishEnrolment(userId: number, code: string): Promise<string[] | null> {
  if (!(await spendTotpCode(userId, code, false))) return null;
  return await replaceRecoveryCodes(userId);
}

export type SecondFactorResult = "ok" | "wrong" | "recovery-code-used";

/** A sign-in's second step: a current TOTP code, or a recovery code not used before (then used up). */
export async function checkSecondFactor(userId: number, code: string): Promise<SecondFactorResult> {
  if (await spendTotpCode(userId, code, true)) return "ok";
  if (normaliseRecoveryCode(code).length !== 10) return "wrong";
  const codeHash = hashRecoveryCode(userId, code);
  const used = await withTx(
    async (tx) =>
      (
        await tx
          .update(recoveryCodes)
          .set({ usedAt: clock.date() })
          .where(
            and(eq(recoveryCodes.userId, userId), eq(recoveryCodes.codeHash, codeHash), isNull(recoveryCodes.usedAt)),
          )
          .run()
      ).changes,
  );
  if (used) return "ok";
  const spent = await getDb()
    .select({ id: recoveryCodes.id })
    .from(recoveryCodes)
    .where(and(eq(recoveryCodes.userId, userId), eq(recoveryCodes.codeHash, codeHash)))
    .get();
  return spent ? "recovery-code-used" : "wrong";
}

/** Counts a second-factor attempt of the account; a right code forgets the wrong ones. */
export async function countTwoFactorAttempt(userId: number) {
  return hit(TWO_FACTOR_LIMIT, String(userId));
}

export async function forgetTwoFactorAttempts(userId: number): Promise<void> {
  await reset(TWO_FACTOR_LIMIT, String(userId));
}

/** Removes the secret and the recovery codes, inside the caller's transaction. */
export async function removeTwoFactor(tx: Tx, userId: number): Promise<void> {
  await tx.delete(twoFactor).where(eq(twoFactor.userId, userId)).run();
  await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId)).run();
}

/** Turns two-factor off: the secret and the recovery codes go. */
export async function disableTwoFactor(userId: number): Promise<void> {
  await withTx((tx) => removeTwoFactor(tx, userId));
}
