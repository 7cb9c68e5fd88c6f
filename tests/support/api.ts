// Helpers for REST API tests: a customer with a key, the core called directly, and the core on a
// real loopback HTTP server.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { regenerateApiKey } from "#app/api/auth.server.ts";
import { type ApiRequest, type ApiResponse, handleApiRequest } from "#app/api/handler.server.ts";
import { apiExtension } from "#server/api.ts";
import { createTestUser, type TestUser } from "#tests/support/requests.ts";
import { grantCredits } from "#tests/support/sms.ts";

export type ApiCustomer = TestUser & { key: string };

export async function apiCustomer(credits = 0): Promise<ApiCustomer> {
  const user = await createTestUser();
  if (credits) await grantCredits(user.id, credits);
  const { key } = await regenerateApiKey(user.id);
  return { ...user, key };
}

type Handle = (request: ApiRequest) => Promise<ApiResponse>;
type CallOptions = { key?: string; json?: unknown; body?: string | Uint8Array; headers?: Record<string, string> };

/** The API core, called as the Node adapter would; `json` is sent as an application/json body. */
export async function callApi(
  method: string,
  path: string,
  options: CallOptions = {},
  handle: Handle = handleApiRequest,
) {
  const headers: Record<string, string> = { host: "api.test", ...options.headers };
  if (options.key) headers.authorization = `Bearer ${options.key}`;
  let body = options.body;
  if (options.json !== undefined) {
    headers["content-type"] ??= "application/json";
    body = JSON.stringify(options.json);
  }
  const response = await handle({ method, path, headers, body });
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read nested response fields without narrowing
  return { status: response.status, headers: response.headers, json: JSON.parse(response.body) as Record<string, any> };
}

/** The API core behind the real Node adapter on a loopback port. */
export async function startApiServer(handle: Handle = handleApiRequest) {
  const extension = apiExtension(handle);
  const server = createServer((req, res) => {
    void Promise.resolve(extension(req, res)).then((handled) => {
      if (!handled) res.writeHead(404).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
