import { isIPv4, isIPv6 } from "node:net";
import { getEnv } from "#app/utils/env.server.ts";

/** Header the HTTP server sets on every request it hands over (any client-sent copy is dropped). */
export const CLIENT_IP_HEADER = "x-smsgw-client-ip";

export function clientIp(request: Request): string {
  return request.headers.get(CLIENT_IP_HEADER) ?? "unknown";
}

/** The eight 16-bit groups of an IPv6 address (a zone id dropped, an embedded IPv4 tail read as two). */
function ipv6Groups(address: string): number[] {
  const plain = address.replace(/%.*$/, "");
  const [head, tail] = plain.includes("::") ? plain.split("::") : [plain, undefined];
  const words = (part: string | undefined) =>
    !part
      ? []
      : part.split(":").flatMap((word) => {
          if (!isIPv4(word)) return [parseInt(word, 16)];
          const [a, b, c, d] = word.split(".").map(Number);
          return [(a << 8) | b, (c << 8) | d];
        });
  const front = words(head);
  const back = words(tail);
  return [...front, ...Array<number>(8 - front.length - back.length).fill(0), ...back];
}

/**
 * What a per-address limit counts: an IPv4 address as it is, an IPv6 address by its /64 network
 * (the smallest block a subscriber is given, so every address of one client shares the limit).
 * An IPv4-mapped IPv6 address counts as its IPv4 address.
 */
export function limitKeyOfAddress(address: string): string {
  if (!isIPv6(address.replace(/%.*$/, ""))) return address;
  const groups = ipv6Groups(address);
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff)
    return [groups[6] >> 8, groups[6] & 255, groups[7] >> 8, groups[7] & 255].join(".");
  return `${groups
    .slice(0, 4)
    .map((g) => g.toString(16))
    .join(":")}::/64`;
}

/** The client's address as the per-address limits count it (see limitKeyOfAddress). */
export function clientNetwork(request: Request): string {
  return limitKeyOfAddress(clientIp(request));
}

export function combineHeaders(...sources: (HeadersInit | null | undefined)[]): Headers {
  const combined = new Headers();
  for (const source of sources) {
    if (!source) continue;
    new Headers(source).forEach((value, key) => combined.append(key, value));
  }
  return combined;
}

const CHECK_ORIGIN = "http://redirect.invalid";
// Browsers drop tabs and line breaks from URLs and read `\` as `/`: `/<TAB>/evil.example` is `//evil.example` to them.
// eslint-disable-next-line no-control-regex -- the control characters are what this rejects
const NORMALISED_BY_BROWSERS = /[\u0000-\u001F\u007F\\]/;

/**
 * A path on this site to send the browser to after login, or `fallback`. Parsed as a browser would
 * resolve it: anything that leaves the origin (`//evil`, `/\\evil`, `/<TAB>/evil`, `https://...`) falls back.
 */
export function safeRedirect(to: FormDataEntryValue | string | null | undefined, fallback = "/"): string {
  if (typeof to !== "string" || !to.startsWith("/") || NORMALISED_BY_BROWSERS.test(to)) return fallback;
  const url = URL.parse(to, CHECK_ORIGIN);
  if (!url || url.origin !== CHECK_ORIGIN) return fallback;
  const path = `${url.pathname}${url.search}${url.hash}`;
  // The resolved path itself must not read as another host (`/.//evil` resolves to `//evil`).
  return path.startsWith("//") ? fallback : path;
}

const HOST = /^[A-Za-z0-9.-]+(:\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](:\d{1,5})?$/;

/**
 * Scheme, host and port the client used to reach us, for the same-origin check of form posts;
 * never for a link (those start with APP_URL).
 * X-Forwarded-Proto/Host count only with TRUST_PROXY; anything that is not a plain host is ignored.
 */
export function publicOrigin(
  header: (name: string) => string | null | undefined,
  protocol: string,
  host: string | undefined,
): string {
  let scheme = protocol.replace(/:$/, "");
  let authority = host;
  if (getEnv().TRUST_PROXY) {
    const first = (name: string) => header(name)?.split(",")[0]?.trim().toLowerCase();
    const forwardedProto = first("x-forwarded-proto");
    if (forwardedProto === "http" || forwardedProto === "https") scheme = forwardedProto;
    authority = first("x-forwarded-host") || authority;
  }
  return `${scheme}://${authority && HOST.test(authority) ? authority.toLowerCase() : "localhost"}`;
}
