import { hash, verify } from "@node-rs/argon2";

// OWASP Password Storage Cheat Sheet: Argon2id, 19 MiB, 2 iterations, 1 lane.
const options = { algorithm: 2 /* Argon2id */, memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

export function hashPassword(password: string): Promise<string> {
  return hash(password, options);
}

// Verifying against a real hash when the account is unknown keeps the timing the same.
const dummyHash = hash("not-a-real-password-for-timing", options);

export async function verifyPassword(password: string, passwordHash: string | null): Promise<boolean> {
  try {
    return await verify(passwordHash ?? (await dummyHash), password);
  } catch {
    return false;
  }
}
