// Where a webhook may go (docs/decisions/095-webhook-targets-ssrf.md): https (http in test mode), and
// never an address inside the gateway's own network unless WEBHOOK_ALLOW_PRIVATE=1. The address is
// checked when the connection is made, by the lookup the request itself uses, so a host that
// resolves elsewhere on the second look-up (DNS rebinding) still reaches only a checked address.
import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import { BlockList, isIP, type LookupFunction } from "node:net";
import { getEnv } from "#app/utils/env.server.ts";
import { UnsafeWebhookUrlError } from "#app/modules/webhooks/errors.ts";

const refusedIpv4 = [
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
] as const;

/** IPv6 prefixes that carry an IPv4 address in their next 32 bits: a refused IPv4 range is refused inside them too. */
const ipv4Carriers = [
  ["::ffff:", 96], // IPv4-mapped
  ["64:ff9b::", 96], // NAT64, well-known prefix
  ["2002:", 16], // 6to4
] as const;

const refused = new BlockList();
for (const [network, prefix] of refusedIpv4) {
  refused.addSubnet(network, prefix, "ipv4");
  const [a, b, c, d] = network.split(".").map(Number);
  const groups = `${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  for (const [carrier, bits] of ipv4Carriers)
    refused.addSubnet(carrier === "2002:" ? `2002:${groups}::` : `${carrier}${groups}`, bits + prefix, "ipv6");
}
for (const [network, prefix] of [
  ["::", 96], // unspecified, loopback and the deprecated IPv4-compatible addresses
  ["64:ff9b:1::", 48], // NAT64 for local use: a translator inside some network
  ["fc00::", 7], // unique local, with AWS's metadata address fd00:ec2::254
  ["fe80::", 10], // link-local
  ["fec0::", 10], // site-local (deprecated, still routed inside some networks)
  ["ff00::", 8], // multicast
  ["2001:db8::", 32], // documentation
] as const)
  refused.addSubnet(network, prefix, "ipv6");

/** Whether the gateway refuses to connect to `address` (an IP literal). */
export function isRefusedAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return true;
  return refused.check(address, family === 4 ? "ipv4" : "ipv6");
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

// A host name's answer is never named: it would show the customer the gateway's internal DNS.
const refusedMessage = (host: string) =>
  `${isIP(host) ? `${host} is` : `${host} resolves to`} a private, loopback or link-local address; webhooks go to public addresses only`;

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
    if (isRefusedAddress(host)) throw new UnsafeWebhookUrlError(refusedMessage(host));
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
  if (addresses.some((a) => isRefusedAddress(a.address))) throw new UnsafeWebhookUrlError(refusedMessage(host));
  return url;
}

/** The address check for a URL whose host is an IP literal (Node does not call `lookup` for those). */
export function refusedLiteral(url: URL): string | null {
  const host = hostOf(url);
  if (allowPrivate() || !isIP(host) || !isRefusedAddress(host)) return null;
  return refusedMessage(host);
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
      const refusal = new UnsafeWebhookUrlError(refusedMessage(hostname));
      return callback(refusal as NodeJS.ErrnoException, "", 0);
    }
    if (options.all) (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, allowed);
    else callback(null, allowed[0].address, allowed[0].family);
  });
};
