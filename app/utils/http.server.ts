/** Header the HTTP server sets on every request it hands over (any client-sent copy is dropped). */
export const CLIENT_IP_HEADER = "x-smsgw-client-ip";

export function clientIp(request: Request): string {
  return request.headers.get(CLIENT_IP_HEADER) ?? "unknown";
}

export function combineHeaders(...sources: (HeadersInit | null | undefined)[]): Headers {
  const combined = new Headers();
  for (const source of sources) {
    if (!source) continue;
    new Headers(source).forEach((value, key) => combined.append(key, value));
  }
  return combined;
}

/** Only same-site paths: `//evil.com` and absolute URLs fall back. */
export function safeRedirect(to: FormDataEntryValue | string | null | undefined, fallback = "/"): string {
  if (typeof to !== "string" || !to.startsWith("/") || to.startsWith("//") || to.startsWith("/\\")) return fallback;
  return to;
}
