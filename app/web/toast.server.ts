import { randomUUID } from "node:crypto";
import { createCookieSessionStorage, redirect } from "react-router";
import { getEnv, getSecrets } from "#app/utils/env.server.ts";
import { combineHeaders } from "#app/utils/http.server.ts";
import { type Toast, type ToastInput, ToastSchema } from "#app/web/toast.ts";

// Toasts ride in their own short-lived cookie, so they survive a redirect with JavaScript off.
// `__Host-` when Secure, like the session cookie: no subdomain can plant a toast.
function toastStorage() {
  const { cookieSecure } = getEnv();
  return createCookieSessionStorage({
    cookie: {
      name: cookieSecure ? "__Host-toast" : "en_toast",
      sameSite: "lax",
      path: "/",
      httpOnly: true,
      secure: cookieSecure,
      secrets: getSecrets().session,
    },
  });
}

async function createToastHeaders(input: ToastInput): Promise<Headers> {
  const storage = toastStorage();
  const session = await storage.getSession();
  const toast = ToastSchema.parse({ id: randomUUID(), ...input });
  session.flash("toast", toast);
  return new Headers({ "Set-Cookie": await storage.commitSession(session) });
}

export async function redirectWithToast(url: string, toast: ToastInput, init?: ResponseInit): Promise<Response> {
  return redirect(url, { ...init, headers: combineHeaders(init?.headers, await createToastHeaders(toast)) });
}

export async function getToast(request: Request): Promise<{ toast: Toast | null; headers: Headers | null }> {
  const storage = toastStorage();
  const session = await storage.getSession(request.headers.get("Cookie"));
  const parsed = ToastSchema.safeParse(session.get("toast"));
  if (!parsed.success) return { toast: null, headers: null };
  return {
    toast: parsed.data,
    headers: new Headers({ "Set-Cookie": await storage.destroySession(session) }),
  };
}
