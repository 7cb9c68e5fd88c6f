import { hash, randomBytes } from "node:crypto";
import { and, eq, gt } from "drizzle-orm";
import { createCookie } from "react-router";
import { db } from "../../db/client.server.ts";
import { sessions, users } from "../../db/schema/core.ts";
import { clock } from "../../utils/clock.server.ts";
import { env } from "../../utils/env.server.ts";
import { clientIp } from "../../utils/http.server.ts";
import { type SessionUser, sessionUserColumns } from "./users.server.ts";

const SESSION_TTL_MS = 30 * 24 * 60 * 60 * 1000;

// The cookie carries only a random id; the row (stored by its hash) is the session.
const sessionCookie = createCookie("__session", {
  httpOnly: true,
  sameSite: "lax",
  secure: env.cookieSecure,
  path: "/",
  secrets: env.SESSION_SECRETS,
  maxAge: SESSION_TTL_MS / 1000,
});

const hashId = (id: string) => hash("sha256", id, "base64url");

async function readSessionId(request: Request): Promise<string | null> {
  const value = await sessionCookie.parse(request.headers.get("Cookie"));
  return typeof value === "string" && value.length > 0 ? value : null;
}

const cache = new WeakMap<Request, Promise<SessionUser | null>>();

/** The signed-in user of this request, or null. Looked up once per request. */
export function getSessionUser(request: Request): Promise<SessionUser | null> {
  let pending = cache.get(request);
  if (!pending) {
    pending = readSessionId(request).then((id) => {
      if (!id) return null;
      const row = db
        .select(sessionUserColumns)
        .from(sessions)
        .innerJoin(users, eq(users.id, sessions.userId))
        .where(and(eq(sessions.id, hashId(id)), gt(sessions.expiresAt, clock.date())))
        .get();
      return row ?? null;
    });
    cache.set(request, pending);
  }
  return pending;
}

/** Starts a fresh session (ending the one the request came with) and returns its Set-Cookie. */
export async function startSession(request: Request, userId: number): Promise<string> {
  const previous = await readSessionId(request);
  if (previous) db.delete(sessions).where(eq(sessions.id, hashId(previous))).run();
  const id = randomBytes(32).toString("base64url");
  db.insert(sessions)
    .values({
      id: hashId(id),
      userId,
      createdAt: clock.date(),
      expiresAt: new Date(clock.now() + SESSION_TTL_MS),
      ip: clientIp(request),
      userAgent: request.headers.get("user-agent")?.slice(0, 300) ?? null,
    })
    .run();
  return sessionCookie.serialize(id);
}

/** Ends the request's session on the server and returns the Set-Cookie that clears it. */
export async function endSession(request: Request): Promise<string> {
  const id = await readSessionId(request);
  if (id) db.delete(sessions).where(eq(sessions.id, hashId(id))).run();
  return sessionCookie.serialize("", { maxAge: 0 });
}
