// Where a webhook may go (docs/decisions/095-webhook-targets-ssrf.md): https (http in test mode), and
// never an address inside the gateway's own network unless WEBHOOK_ALLOW_PRIVATE=1. The address is
// checked when the connection is made, by the lookup the request itself uses, so a host that
// resolves elsewhere on the second look-up (DNS rebinding) still reaches only a checked address.
import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import { BlockList, isIP, type LookupFunction } from "node:net";
import { getEnv } from "#app/utils/env.server.ts";
import { UnsafeWebhookUrlError } from "#app/modules/webhooks/errors.ts";

const refused = new BlockList();
for (const [network, prefix] of [
  ["0.0.0.0", 8], // "this" network
  ["10.0.0.0", 8],
  ["100.64.0.0", 10], // carrier-grade NAT
  ["127.0.0.0", 8],
  ["169.254.0.0", 16], // link-local, with the cloud metadata address 169.254.169.254
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15], // benchmarking
  ["224.0.0.0", 4], // multicast
  ["240.0.0.0", 4], // reserved, and broadcast
] as const)
  refused.addSubnet(network, prefix, "ipv4");
for (const [network, prefix] of [
  ["::", 128],
  ["::1", 128],
  ["fc00::", 7], // unique local, with AWS's metadata address fd00:ec2::254
  ["fe80::", 10], // link-local
  ["ff00::", 8], // multicast
  ["2001:db8::", 32], // documentation
] as const)
  refused.addSubnet(network, prefix, "ipv6");

/** The IPv4 address an IPv4-mapped or NAT64 IPv6 address carries, if any. */
function embeddedIpv4(address: string): string | null {
  const match = /^(?:::ffff:|64:ff9b::)(?:(\d+\.\d+\.\d+\.\d+)|([0-9a-f]{1,4}):([0-9a-f]{1,4}))$/i.exec(address);
  if (!match) return null;
  if (match[1]) return match[1];
  const high = parseInt(match[2], 16);
  const low = parseInt(match[3], 16);
  return [high >> 8, high & 255, low >> 8, low & 255].join(".");
}

/** Whether the gateway refuses to connect to `address` (an IP literal). */
export function isRefusedAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return refused.check(address, "ipv4");
  if (family !== 6) return true;
  const inner = embeddedIpv4(address);
  return inner ? refused.check(inner, "ipv4") : refused.check(address, "ipv6");
}

const allowPrivate = () => getEnv().WEBHOOK_ALLOW_PRIVATE;

/**
 * http is for test mode (SMS to the simulator), development, and receivers on the gateway's own
 * network (WEBHOOK_ALLOW_PRIVATE=1: such a receiver rarely has a certificate); otherwise https only.
 */
export const allowsHttp = () => !getEnv().isProduction || getEnv().testMode.sms || getEnv().WEBHOOK_ALLOW_PRIVATE;

/** The URL's form: an absolute http(s) URL without credentials. Throws UnsafeWebhookUrlError. */
export function parseWebhookUrl(text: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new UnsafeWebhookUrlError("Enter a full URL, e.g. https://example.com/webhooks/sms");
  }
  if (url.protocol !== "https:" && !(url.protocol === "http:" && allowsHttp()))
    throw new UnsafeWebhookUrlError(
      allowsHttp() ? "The URL must start with https:// or http://" : "The URL must start with https://",
    );
  if (url.username || url.password) throw new UnsafeWebhookUrlError("The URL must not contain a user name or password");
  if (url.hash) throw new UnsafeWebhookUrlError("The URL must not contain a #fragment");
  return url;
}

const refusedMessage = (host: string, address: string) =>
  `${host === address ? address : `${host} resolves to ${address}, which`} is a private, loopback or link-local address; webhooks go to public addresses only`;

const hostOf = (url: URL) => url.hostname.replace(/^\[(.*)\]$/, "$1");

/**
 * Checks a URL when it is saved: its form, and every address its host resolves to now (a host that
 * does not resolve yet passes). Delivery checks again when it connects (safeLookup). Throws UnsafeWebhookUrlError.
 */
export async function checkWebhookUrl(text: string): Promise<URL> {
  const url = parseWebhookUrl(text);
  if (allowPrivate()) return url;
  const host = hostOf(url);
  if (isIP(host)) {
    if (isRefusedAddress(host)) throw new UnsafeWebhookUrlError(refusedMessage(host, host));
    return url;
  }
  let addresses: LookupAddress[];
  try {
    addresses = await new Promise((resolve, reject) =>
      dnsLookup(host, { all: true }, (error, found) => (error ? reject(error) : resolve(found))),
    );
  } catch {
    // Not resolvable yet (a receiver being set up): each delivery checks the address it connects to.
    return url;
  }
  const bad = addresses.find((a) => isRefusedAddress(a.address));
  if (bad) throw new UnsafeWebhookUrlError(refusedMessage(host, bad.address));
  return url;
}

/** The address check for a URL whose host is an IP literal (Node does not call `lookup` for those). */
export function refusedLiteral(url: URL): string | null {
  const host = hostOf(url);
  if (allowPrivate() || !isIP(host) || !isRefusedAddress(host)) return null;
  return refusedMessage(host, host);
}

/**
 * The `lookup` of a webhook's request: resolves like Node, then refuses a refused address, so the
 * socket connects only to an address that passed the check.
 */
export const safeLookup: LookupFunction = (hostname, options, callback) => {
  dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error, "", 0);
    const allowed = allowPrivate() ? addresses : addresses.filter((a) => !isRefusedAddress(a.address));
    if (allowed.length === 0) {
      const refusal = new UnsafeWebhookUrlError(refusedMessage(hostname, addresses[0]?.address ?? "nothing"));
      return callback(refusal as NodeJS.ErrnoException, "", 0);
    }
    if (options.all) (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, allowed);
    else callback(null, allowed[0].address, allowed[0].family);
  });
};
