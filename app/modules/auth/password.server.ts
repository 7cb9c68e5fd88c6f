import { hash, verify } from "@node-rs/argon2";
import { getEnv } from "#app/utils/env.server.ts";

// OWASP Password Storage Cheat Sheet: Argon2id, 19 MiB, 2 iterations, 1 lane.
const options = { algorithm: 2 /* Argon2id */, memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

export class PasswordCheckBusyError extends Error {
  constructor() {
    super("The server is busy checking passwords. Please try again in a moment.");
    this.name = "PasswordCheckBusyError";
  }
}

// Each Argon2 run holds 19 MiB and a core for a moment: a burst of logins must not exhaust
// memory, so a few run at once, a queue waits behind them, and past that people are asked to retry.
let running = 0;
const waiting: (() => void)[] = [];

async function bounded<T>(work: () => Promise<T>): Promise<T> {
  if (running >= getEnv().PASSWORD_HASH_CONCURRENCY) {
    if (waiting.length >= getEnv().PASSWORD_HASH_QUEUE) throw new PasswordCheckBusyError();
    await new Promise<void>((start) => waiting.push(start));
  } else {
    running++;
  }
  try {
    return await work();
  } finally {
    // The slot passes straight to the next in line, so `running` counts it without a gap.
    const next = waiting.shift();
    if (next) next();
    else running--;
  }
}

export function hashPassword(password: string): Promise<string> {
  return bounded(() => hash(password, options));
}

// Verifying against a real hash when the account is unknown keeps the timing the same.
let dummyHash: Promise<string> | undefined;

export function verifyPassword(password: string, passwordHash: string | null): Promise<boolean> {
  return bounded(async () => {
    try {
      return await verify(
        passwordHash ?? (await (dummyHash ??= hash("not-a-real-password-for-timing", options))),
        password,
      );
    } catch {
      return false;
    }
  });
}
