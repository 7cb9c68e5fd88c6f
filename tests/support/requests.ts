import { randomUUID } from "node:crypto";
import { RouterContextProvider } from "react-router";
import { startSession } from "#app/modules/auth/session.server.ts";
import { createUser, type Role, type SessionUser } from "#app/modules/auth/users.server.ts";
import { CLIENT_IP_HEADER } from "#app/utils/http.server.ts";

export const BASE = "http://localhost";

export type TestUser = SessionUser & { password: string; cookie: string };

/** A user with a live session; `cookie` goes into a request's Cookie header. */
export async function createTestUser(role: Role = "customer"): Promise<TestUser> {
  const id = randomUUID().slice(0, 8);
  const password = `pw-${id}-secret`;
  const user = await createUser({ email: `${role}-${id}@example.com`, fullName: `Test ${id}`, password, role });
  const setCookie = await startSession(new Request(BASE), user.id);
  return { ...user, password, cookie: setCookie.split(";")[0] };
}

type RequestOptions = {
  method?: string;
  user?: { cookie: string } | null;
  form?: Record<string, string | string[] | Blob>;
  headers?: Record<string, string>;
  ip?: string;
};

export function makeRequest(path: string, options: RequestOptions = {}): Request {
  const headers = new Headers(options.headers);
  headers.set(CLIENT_IP_HEADER, options.ip ?? "127.0.0.1");
  if (options.user) headers.set("Cookie", options.user.cookie);
  let body: FormData | undefined;
  if (options.form) {
    body = new FormData();
    for (const [key, value] of Object.entries(options.form)) {
      for (const v of Array.isArray(value) ? value : [value]) body.append(key, v);
    }
  }
  return new Request(new URL(path, BASE), { method: options.method ?? (body ? "POST" : "GET"), headers, body });
}

/** Any route module's loader or action: React Router types each one with its own args. */
type RouteFn = (args: never) => unknown;

/** Calls a loader or action the way React Router does; thrown Responses and `data()` (e.g. a 404) come back as values. */
export async function call(
  fn: RouteFn,
  request: Request,
  params: Record<string, string | undefined> = {},
): Promise<unknown> {
  try {
    return await fn({ request, params, context: new RouterContextProvider() } as never);
  } catch (thrown) {
    if (thrown instanceof Response || isDataWithInit(thrown)) return thrown;
    throw thrown;
  }
}

function isDataWithInit(value: unknown): boolean {
  return Boolean(
    value &&
    typeof value === "object" &&
    "type" in value &&
    (value as { type: string }).type === "DataWithResponseInit",
  );
}

/** Unwraps React Router's `data()` result or a Response into status + body. */
export function statusOf(result: unknown): number {
  if (result instanceof Response) return result.status;
  if (isDataWithInit(result)) {
    return (result as { init?: { status?: number } }).init?.status ?? 200;
  }
  return 200;
}

export function dataOf<T = unknown>(result: unknown): T {
  if (isDataWithInit(result)) {
    return (result as unknown as { data: T }).data;
  }
  return result as T;
}

export function locationOf(result: unknown): string | null {
  return result instanceof Response ? result.headers.get("Location") : null;
}
