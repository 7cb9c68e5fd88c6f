// Secrets the server must read back (API keys, TOTP secrets) are stored sealed: AES-256-GCM under a
// key derived from API_KEY_SECRET, so a copy of the database alone reveals none of them.
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";
import { getSecrets } from "#app/utils/env.server.ts";

export type Sealer = {
  /** `context` is authenticated data (e.g. the owner's id): a sealed value moved elsewhere does not open. */
  seal: (text: string, context: string) => string;
  open: (stored: string, context: string) => string;
};

/** A sealer whose key is its own for `purpose`, so a value sealed for one use never opens as another. */
export function createSealer(purpose: string): Sealer {
  let aesKey: Buffer | undefined;
  const key = () => (aesKey ??= Buffer.from(hkdfSync("sha256", getSecrets().apiKey, purpose, "aes-256-gcm", 32)));
  return {
    seal(text, context) {
      const iv = randomBytes(12);
      const cipher = createCipheriv("aes-256-gcm", key(), iv);
      cipher.setAAD(Buffer.from(context));
      const sealed = Buffer.concat([cipher.update(text, "utf8"), cipher.final()]);
      return ["v1", iv, cipher.getAuthTag(), sealed]
        .map((part) => (typeof part === "string" ? part : part.toString("base64url")))
        .join(".");
    },
    open(stored, context) {
      const [version, iv, tag, sealed] = stored.split(".");
      if (version !== "v1" || !iv || !tag || !sealed) throw new Error("Unknown sealed value format");
      const decipher = createDecipheriv("aes-256-gcm", key(), Buffer.from(iv, "base64url"));
      decipher.setAAD(Buffer.from(context));
      decipher.setAuthTag(Buffer.from(tag, "base64url"));
      return Buffer.concat([decipher.update(Buffer.from(sealed, "base64url")), decipher.final()]).toString("utf8");
    },
  };
}
