import { href, redirect } from "react-router";
import { isRecentSignIn } from "#app/modules/auth/recent-sign-in.server.ts";
import { getSessionUser, lastPasswordAt } from "#app/modules/auth/session.server.ts";
import { isTwoFactorEnabled } from "#app/modules/auth/two-factor.server.ts";
import type { SessionUser } from "#app/modules/auth/users.server.ts";
import { getEnv } from "#app/utils/env.server.ts";

/** Where to come back to after login: the page itself for GETs, the page's path for posts. */
function returnPath(request: Request): string {
  const url = new URL(request.url);
  url.searchParams.delete("index");
  url.searchParams.delete("_data");
  const search = request.method === "GET" ? url.search : "";
  return url.pathname.replace(/\.data$/, "") + search;
}

export async function requireUser(request: Request): Promise<SessionUser> {
  const user = await getSessionUser(request);
  if (!user) throw redirect(`${href("/login")}?redirectTo=${encodeURIComponent(returnPath(request))}`);
  if (user.role === "admin" && getEnv().ADMIN_REQUIRE_2FA && !(await isTwoFactorEnabled(user.id))) {
    const path = new URL(request.url).pathname.replace(/\.data$/, "");
    // The confirm page too: turning two-factor on needs a recent sign-in.
    const allowed: string[] = [href("/account/two-factor"), href("/account/confirm-password")];
    if (!allowed.includes(path)) throw redirect(href("/account/two-factor"));
  }
  return user;
}

/**
 * For sensitive actions: the password typed in this session within RECENT_SIGN_IN_MINUTES, or off
 * to the confirm page, which comes back here.
 */
export async function requireRecentSignIn(request: Request): Promise<SessionUser> {
  const user = await requireUser(request);
  if (!isRecentSignIn(await lastPasswordAt(request)))
    throw redirect(`${href("/account/confirm-password")}?returnTo=${encodeURIComponent(returnPath(request))}`);
  return user;
}

export async function requireAdmin(request: Request): Promise<SessionUser> {
  const user = await requireUser(request);
  if (user.role !== "admin") throw redirect(href("/accessDenied"));
  return user;
}

/** For login and register: a signed-in user has nothing to do there. */
export async function requireAnonymous(request: Request): Promise<void> {
  if (await getSessionUser(request)) throw redirect(href("/sms/sendSms"));
}
