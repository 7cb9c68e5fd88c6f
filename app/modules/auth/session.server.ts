import { hash, randomBytes } from "node:crypto";
import { and, eq, isNull, ne } from "drizzle-orm";
import { createCookie } from "react-router";
import { getDb, withTx } from "#app/db/client.server.ts";
import { sessions, users } from "#app/db/schema/core.ts";
import { clock } from "#app/utils/clock.server.ts";
import { getEnv, getSecrets } from "#app/utils/env.server.ts";
import { clientIp } from "#app/utils/http.server.ts";
import { type Role, type SessionUser, sessionUserColumns } from "#app/modules/auth/users.server.ts";

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
// Writing the last request's time once a minute at most keeps reads from becoming writes.
const LAST_SEEN_EVERY_MS = MINUTE;

/** How long a session lives without a request (idle) and since sign-in (max): admins' are shorter. */
function sessionLifetimes(role: Role): { idleMs: number; maxMs: number } {
  const env = getEnv();
  return role === "admin"
    ? { idleMs: env.ADMIN_SESSION_IDLE_MINUTES * MINUTE, maxMs: env.ADMIN_SESSION_MAX_HOURS * HOUR }
    : { idleMs: env.SESSION_IDLE_HOURS * HOUR, maxMs: env.SESSION_MAX_DAYS * 24 * HOUR };
}

// The cookie carries only a random id; the row (stored by its hash) is the session. `__Host-`:
// browsers keep it only if Secure, Path=/ and without Domain, so no subdomain can plant one.
function sessionCookie() {
  const { cookieSecure } = getEnv();
  return createCookie(cookieSecure ? "__Host-session" : "__session", {
    httpOnly: true,
    sameSite: "lax",
    secure: cookieSecure,
    path: "/",
    secrets: getSecrets().session,
  });
}

const hashId = (id: string) => hash("sha256", id, "base64url");

async function readSessionId(request: Request): Promise<string | null> {
  const value = await sessionCookie().parse(request.headers.get("Cookie"));
  return typeof value === "string" && value.length > 0 ? value : null;
}

async function findSessionUser(id: string): Promise<SessionUser | null> {
  const row = await getDb()
    .select({
      ...sessionUserColumns,
      createdAt: sessions.createdAt,
      expiresAt: sessions.expiresAt,
      lastSeenAt: sessions.lastSeenAt,
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    // A disabled account's sessions are deleted with it; this covers one started meanwhile.
    .where(and(eq(sessions.id, hashId(id)), isNull(users.disabledAt)))
    .get();
  if (!row) return null;
  const { createdAt, expiresAt, lastSeenAt, ...user } = row;
  const now = clock.now();
  const lastSeen = (lastSeenAt ?? createdAt).getTime();
  if (now >= expiresAt.getTime() || now - lastSeen >= sessionLifetimes(user.role).idleMs) {
    await withTx((tx) =>
      tx
        .delete(sessions)
        .where(eq(sessions.id, hashId(id)))
        .run(),
    );
    return null;
  }
  if (now - lastSeen >= LAST_SEEN_EVERY_MS) {
    await withTx((tx) =>
      tx
        .update(sessions)
        .set({ lastSeenAt: new Date(now) })
        .where(eq(sessions.id, hashId(id)))
        .run(),
    );
  }
  return user;
}

const cache = new WeakMap<Request, Promise<SessionUser | null>>();

/** The signed-in user of this request, or null. Looked up once per request. */
export function getSessionUser(request: Request): Promise<SessionUser | null> {
  let pending = cache.get(request);
  if (!pending) {
    pending = readSessionId(request).then(async (id) => (id ? await findSessionUser(id) : null));
    cache.set(request, pending);
  }
  return pending;
}

/** Starts a fresh session (ending the one the request came with) and returns its Set-Cookie. */
export async function startSession(request: Request, userId: number): Promise<string> {
  const previous = await readSessionId(request);
  if (previous)
    await withTx((tx) =>
      tx
        .delete(sessions)
        .where(eq(sessions.id, hashId(previous)))
        .run(),
    );
  const { role } = (await getDb().select({ role: users.role }).from(users).where(eq(users.id, userId)).get())!;
  const { maxMs } = sessionLifetimes(role);
  const id = randomBytes(32).toString("base64url");
  await withTx((tx) =>
    tx
      .insert(sessions)
      .values({
        id: hashId(id),
        userId,
        createdAt: clock.date(),
        lastSeenAt: clock.date(),
        expiresAt: new Date(clock.now() + maxMs),
        ip: clientIp(request),
        userAgent: request.headers.get("user-agent")?.slice(0, 300) ?? null,
      })
      .run(),
  );
  return sessionCookie().serialize(id, { maxAge: Math.floor(maxMs / 1000) });
}

/** Ends the request's session on the server and returns the Set-Cookie that clears it. */
export async function endSession(request: Request): Promise<string> {
  const id = await readSessionId(request);
  if (id)
    await withTx((tx) =>
      tx
        .delete(sessions)
        .where(eq(sessions.id, hashId(id)))
        .run(),
    );
  return sessionCookie().serialize("", { maxAge: 0 });
}

export type SessionSummary = {
  /** Names the session on the page without revealing its stored id (a hash of that id). */
  handle: string;
  current: boolean;
  userAgent: string | null;
  ip: string | null;
  createdAt: Date;
  lastSeenAt: Date;
};

const handleOf = (storedId: string) => hash("sha256", storedId, "base64url").slice(0, 22);

async function ownSessionRows(userId: number) {
  return await getDb().select().from(sessions).where(eq(sessions.userId, userId)).all();
}

/** The user's sessions, the request's own first, then the most recently used. */
export async function listOwnSessions(request: Request, userId: number): Promise<SessionSummary[]> {
  const id = await readSessionId(request);
  const currentId = id ? hashId(id) : null;
  return (await ownSessionRows(userId))
    .map((row) => ({
      handle: handleOf(row.id),
      current: row.id === currentId,
      userAgent: row.userAgent,
      ip: row.ip,
      createdAt: row.createdAt,
      lastSeenAt: row.lastSeenAt ?? row.createdAt,
    }))
    .sort((a, b) => Number(b.current) - Number(a.current) || b.lastSeenAt.getTime() - a.lastSeenAt.getTime());
}

/** Ends the user's session named by `handle`; false when they have none by that name. */
export async function endOwnSession(userId: number, handle: string): Promise<boolean> {
  const row = (await ownSessionRows(userId)).find((candidate) => handleOf(candidate.id) === handle);
  if (!row) return false;
  await withTx((tx) =>
    tx
      .delete(sessions)
      .where(and(eq(sessions.userId, userId), eq(sessions.id, row.id)))
      .run(),
  );
  return true;
}

/** Ends every session of the user but the request's own; how many ended. */
export async function endOtherSessions(request: Request, userId: number): Promise<number> {
  const id = await readSessionId(request);
  const keep = id ? hashId(id) : "";
  return await withTx(
    async (tx) =>
      (
        await tx
          .delete(sessions)
          .where(and(eq(sessions.userId, userId), ne(sessions.id, keep)))
          .run()
      ).changes,
  );
}

/** When the request's session last proved its password: its sign-in, or a later confirmation. */
export async function lastPasswordAt(request: Request): Promise<number | null> {
  const id = await readSessionId(request);
  if (!id) return null;
  const row = await getDb()
    .select({ createdAt: sessions.createdAt, reauthenticatedAt: sessions.reauthenticatedAt })
    .from(sessions)
    .where(eq(sessions.id, hashId(id)))
    .get();
  if (!row) return null;
  return Math.max(row.createdAt.getTime(), row.reauthenticatedAt?.getTime() ?? 0);
}

/** Records that the password was just typed again in the request's session. */
export async function markPasswordConfirmed(request: Request): Promise<void> {
  const id = await readSessionId(request);
  if (!id) return;
  await withTx((tx) =>
    tx
      .update(sessions)
      .set({ reauthenticatedAt: clock.date() })
      .where(eq(sessions.id, hashId(id)))
      .run(),
  );
}
