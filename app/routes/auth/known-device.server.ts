// A browser that has signed in to an account before is "known" to it (OWASP's device cookie): the
// account-wide wait after failed sign-ins does not hold it back, so guesses from elsewhere never
// lock the owner out (docs/decisions/108-login-waits-per-account.md).
import { hash } from "node:crypto";
import { createCookie } from "react-router";
import { getEnv, getSecrets } from "#app/utils/env.server.ts";

/** Accounts one browser is remembered for; the oldest is forgotten first. */
const MAX_ACCOUNTS = 5;
const YEAR_SECONDS = 365 * 24 * 3600;

function knownDeviceCookie() {
  const { cookieSecure } = getEnv();
  return createCookie(cookieSecure ? "__Host-known-device" : "known_device", {
    httpOnly: true,
    sameSite: "lax",
    secure: cookieSecure,
    path: "/",
    maxAge: YEAR_SECONDS,
    secrets: getSecrets().session,
  });
}

// The address itself is not kept in the cookie, only a tag of it.
const tagOf = (email: string) => hash("sha256", email, "base64url").slice(0, 22);

async function knownTags(request: Request): Promise<string[]> {
  const value: unknown = await knownDeviceCookie().parse(request.headers.get("Cookie"));
  return Array.isArray(value) ? value.filter((tag): tag is string => typeof tag === "string") : [];
}

/** Whether this browser signed in to `email`'s account before (a signed cookie, so it cannot be made up). */
export async function isKnownDevice(request: Request, email: string): Promise<boolean> {
  return (await knownTags(request)).includes(tagOf(email));
}

/** The Set-Cookie that remembers this browser for `email`'s account (after a sign-in with its password). */
export async function rememberDevice(request: Request, email: string): Promise<string> {
  const tag = tagOf(email);
  const tags = [tag, ...(await knownTags(request)).filter((known) => known !== tag)].slice(0, MAX_ACCOUNTS);
  return knownDeviceCookie().serialize(tags);
}
