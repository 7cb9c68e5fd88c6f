// What an API key may do. Browser-safe: the API Token form lists them, the route table declares one
// per route, and the API core checks it (docs/decisions/070-api-key-scopes.md).
export const API_SCOPES = ["messages:send", "messages:read", "contacts:manage", "webhooks:manage"] as const;
export type ApiScope = (typeof API_SCOPES)[number];

export const SCOPE_LABELS: Record<ApiScope, string> = {
  "messages:send": "Send messages",
  "messages:read": "Read messages and balance",
  "contacts:manage": "Manage contacts and groups",
  "webhooks:manage": "Manage webhook endpoints",
};

/** Stored space-separated, as OAuth writes scopes; unknown words are dropped. */
export function parseScopes(stored: string): ApiScope[] {
  return API_SCOPES.filter((scope) => stored.split(" ").includes(scope));
}
