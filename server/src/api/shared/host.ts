// Refuses a malformed Host (or, behind a trusted proxy, X-Forwarded-Host / X-Forwarded-Proto) with 400 before any
// other work: links in answers are built from it when PUBLIC_URL is unset, and a bad one must never reach a URL.
//
// The syntax check is written by hand: Node's parser lets any header text through, and the WHATWG URL parser accepts
// more than a Host header may hold (and is the thing that throws later). Node's isIPv4/isIPv6 check the addresses.
import { isIPv4, isIPv6 } from 'node:net';
import fp from 'fastify-plugin';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { domainError } from '../../platform/errors.ts';
import { apiPrefixes } from './portal.ts';

/** A DNS name with its port is at most 253 + 6 characters; a bracketed IPv6 address with a port, 47 + 6. */
const hostMaxLength = 260;
const label = '[A-Za-z0-9_](?:[A-Za-z0-9_-]{0,61}[A-Za-z0-9_])?';
const hostnamePattern = new RegExp(`^${label}(?:\\.${label})*\\.?$`);
/** A last label that URL parsers read as a number makes the whole name an IPv4 address, which must then be valid. */
const numericLabel = /(?:^|\.)(?:[0-9]+|0x[0-9a-f]*)\.?$/i;

/** hostname, IPv4 or [IPv6], with an optional port 1-65535. */
export function isValidHost(host: string): boolean {
  if (host.length === 0 || host.length > hostMaxLength) return false;
  const match = /^(\[[0-9A-Fa-f:.]+\]|[^:[\]]+)(?::([0-9]{1,5}))?$/.exec(host);
  if (!match) return false;
  const [, name, port] = match;
  if (port !== undefined && (Number(port) < 1 || Number(port) > 65535)) return false;
  const valid = name.startsWith('[')
    ? isIPv6(name.slice(1, -1))
    : name.length <= 254 && hostnamePattern.test(name) && (!numericLabel.test(name) || isIPv4(name.replace(/\.$/, '')));
  // The links are built with the URL parser: whatever passes here must parse there too.
  return valid && URL.canParse(`http://${host}/`);
}

/** How many host names that passed the check hostPlugin keeps: a client sends the same Host with every call. */
const knownHostsMax = 64;

function problem(request: FastifyRequest, valid: (host: string) => boolean): string | undefined {
  const header = request.headers.host;
  // No Host at all (HTTP/1.0, some health checkers) is allowed: links then use PUBLIC_URL or the listening address.
  if (header !== undefined && !valid(header)) return 'The Host header is malformed.';
  // request.host and request.protocol read the X-Forwarded- headers only when TRUST_PROXY trusts the sender.
  if (request.host !== (header ?? '') && !valid(request.host)) return 'The X-Forwarded-Host header is malformed.';
  if (request.protocol !== 'http' && request.protocol !== 'https') return 'The X-Forwarded-Proto header must be http or https.';
  return undefined;
}

export const hostPlugin = fp(
  async (app: FastifyInstance) => {
    // The check's regular expressions and URL parse cost about 1 % of the server's time on a create; the names that
    // passed are kept, at most knownHostsMax of them (all are forgotten when that is reached: a client sending ever
    // new names only makes its own checks slower).
    const known = new Set<string>();
    const valid = (host: string) => {
      if (known.has(host)) return true;
      if (!isValidHost(host)) return false;
      if (known.size >= knownHostsMax) known.clear();
      known.add(host);
      return true;
    };
    app.addHook('onRequest', async (request, reply) => {
      const detail = problem(request, valid);
      if (!detail) return;
      // API paths answer in their API's error format (its plugin's error handler, or the fallback for unknown paths); the
      // portal's pages in plain text.
      if (apiPrefixes.test(request.url)) throw domainError('400', detail);
      return reply.code(400).type('text/plain; charset=utf-8').send(detail);
    });
  },
  { name: 'shopapi-host', fastify: '5.x' },
);
