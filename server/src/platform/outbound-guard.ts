// Where the sandbox may send requests of its own (webhook deliveries): public unicast addresses only, unless the
// configuration allows private targets. One check, used by the webhooks service when a target is registered and by
// the dispatcher when it connects (DNS answers can change in between).
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { lookup } from 'node:dns/promises';
import type { LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * Global unicast (RFC 4291 2.5.4, IANA's IPv6 address space): every public IPv6 address lies in 2000::/3. ipaddr.js
 * calls anything outside its named special ranges 'unicast', including ::a.b.c.d (IPv4-compatible, deprecated by
 * RFC 4291, which embeds any IPv4 address such as 127.0.0.1) and the rest of ::/8, so those are refused here.
 */
const globalUnicast = ipaddr.IPv6.parseCIDR('2000::/3');

/**
 * Why an IP address is not public, or undefined when it is. Anything ipaddr.js does not call 'unicast' is refused:
 * private, loopback, link-local, unique-local, carrier-grade NAT, unspecified, broadcast, multicast, reserved, and
 * the IPv6 transition forms that embed an IPv4 address (NAT64 64:ff9b::/96 and /48, 6to4 2002::/16, Teredo 2001::/32).
 */
function nonPublicRange(address: string): string | undefined {
  // process() turns an IPv4-mapped address (::ffff:a.b.c.d) into its IPv4 address, so it is judged as that address.
  const ip = ipaddr.process(address);
  const range = ip.range();
  if (range !== 'unicast') return range;
  if (ip.kind() === 'ipv6' && !(ip as ipaddr.IPv6).match(globalUnicast)) return 'outside global unicast 2000::/3';
  return undefined;
}

/** Refusal of an address actually resolved or connected to: `address (range) is not a public address`, or undefined. */
export function refusedAddress(address: string): string | undefined {
  if (!ipaddr.isValid(address)) return `${address} is not an IP address`;
  const range = nonPublicRange(address);
  return range ? `${address} (${range}) is not a public address` : undefined;
}

export const isPublicAddress = (address: string) => refusedAddress(address) === undefined;

/** A URL's hostname without the brackets of an IPv6 literal and without trailing dots (`localhost.` is `localhost`). */
const bareHost = (hostname: string) =>
  hostname
    .replace(/^\[(.*)\]$/, '$1')
    .replace(/\.+$/, '')
    .toLowerCase();

/**
 * Refusal of a URL's host as written, or undefined; a name that passes still needs its addresses checked (refusedTarget,
 * guardedLookup). WHATWG URL parsing has already turned decimal, octal and hex IPv4 forms (http://2130706433/,
 * http://0x7f.1/, http://0177.0.0.1/) into dotted decimal; ipaddr.isValid also reads those forms, like inet_aton does.
 */
export function refusedHost(hostname: string): string | undefined {
  const host = bareHost(hostname);
  if (!host) return `${hostname} is not a host name`;
  if (ipaddr.isValid(host)) return refusedAddress(host);
  // RFC 6761: localhost and its subdomains are loopback, whatever a resolver answers for them.
  if (host === 'localhost' || host.endsWith('.localhost')) return `${hostname} (localhost) is not a public address`;
  return undefined;
}

/** Refusal of a URL's host, resolving a name to every address it has (each must be public), or undefined. */
export async function refusedTarget(hostname: string): Promise<string | undefined> {
  const byName = refusedHost(hostname);
  if (byName) return byName;
  const host = bareHost(hostname);
  let addresses: string[];
  try {
    addresses = (await lookup(host, { all: true, verbatim: true })).map((a) => a.address);
  } catch {
    return `${host} cannot be resolved`;
  }
  for (const address of addresses) {
    const refused = refusedAddress(address);
    if (refused) return `${host} resolves to ${refused}`;
  }
  return undefined;
}

export class RefusedTargetError extends Error {}

/**
 * A socket `lookup` that refuses names resolving to a non-public address, so the check holds for the address actually
 * connected to. Node connects to IP literals without a lookup: check those with refusedHost before connecting.
 */
export const guardedLookup: LookupFunction = (hostname, options, callback) => {
  dnsLookup(hostname, options, (error, address: string | LookupAddress[], family?: number) => {
    if (!error) {
      const list = typeof address === 'string' ? [address] : address.map((a) => a.address);
      for (const each of list) {
        const refused = refusedAddress(each);
        if (refused) return callback(new RefusedTargetError(`${hostname} resolves to ${refused}`), address as string, family);
      }
    }
    callback(error, address as string, family);
  });
};
