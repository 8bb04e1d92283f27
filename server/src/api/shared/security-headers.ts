// Security headers on every answer: nosniff, no referrer, no framing, and a Content-Security-Policy that allows nothing
// for the API's JSON; the portal's and the console's files get one that allows their own files and nothing remote.
//
// Helmet writes them. Its middleware is built from its options on each call (@fastify/helmet called it for every
// request: about 3 % of the server's CPU under the create load), and with options that name no function its headers are
// the same for every request: so each set of options is run through it once, when the set is made (headersOf), and an
// answer gets the headers as they came out.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import fp from 'fastify-plugin';
import helmet, { type HelmetOptions } from 'helmet';
import type { FastifyInstance, FastifyReply } from 'fastify';

/** Header names and values, in the order helmet sets them. */
export type SecurityHeaders = readonly (readonly [name: string, value: string])[];

/** The API's answers are data, never documents: they may load nothing and be framed nowhere. */
const apiContentSecurityPolicy = { useDefaults: false, directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] } } as const;

/** What every answer has; the portal's and the console's files, and the building page, replace the CSP. */
const baseOptions: HelmetOptions = {
  contentSecurityPolicy: apiContentSecurityPolicy,
  // HSTS is for the TLS terminator in front (docs/OPERATIONS.md): the sandbox itself speaks plain HTTP, often on a
  // developer's machine, where pinning HTTPS for the host name would break other local services.
  strictTransportSecurity: false,
  referrerPolicy: { policy: 'no-referrer' },
  xFrameOptions: { action: 'deny' },
};

/**
 * The headers helmet sets for the base options with `options` over them, found by running its middleware once against
 * a response that only records them. Helmet calls a directive given as a function per request, so none may be given.
 */
export function headersOf(options: Pick<HelmetOptions, 'contentSecurityPolicy'> = {}): SecurityHeaders {
  const headers: [string, string][] = [];
  const recorder = {
    setHeader(name: string, value: unknown) {
      if (typeof value !== 'string') throw new Error(`helmet set ${name} to something other than text`);
      headers.push([name, value]);
    },
    removeHeader() {},
  };
  helmet({ ...baseOptions, ...options })({} as IncomingMessage, recorder as unknown as ServerResponse, (error?: unknown) => {
    if (error) throw error;
  });
  return headers;
}

/** Sets the headers on the answer, where helmet set them: on the raw response, so every way of answering keeps them. */
export function setSecurityHeaders(reply: FastifyReply, headers: SecurityHeaders): void {
  for (const [name, value] of headers) reply.raw.setHeader(name, value);
}

export const securityHeadersPlugin = fp(
  async (app: FastifyInstance) => {
    const apiHeaders = headersOf();
    app.addHook('onRequest', (_request, reply, done) => {
      setSecurityHeaders(reply, apiHeaders);
      done();
    });
  },
  { name: 'shopapi-security-headers', fastify: '5.x' },
);

/**
 * The SHA-256 sources of the executable inline scripts in the built HTML (Docusaurus's colour-mode bootstrap and
 * base-URL banner), so the CSP can allow exactly those instead of 'unsafe-inline'. A regular expression is enough,
 * without an HTML parser: React's server renderer writes these tags and escapes `</script` inside them, and the hash
 * is over the exact text between the tags, as the browser computes it.
 */
export function inlineScriptHashes(root: string): string[] {
  const hashes = new Set<string>();
  for (const entry of readdirSync(root, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.html')) continue;
    const html = readFileSync(join(entry.parentPath, entry.name), 'utf8');
    for (const [, attributes, text] of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)) {
      const type = /\btype=["']?([^"'\s>]+)/i.exec(attributes)?.[1].toLowerCase();
      // Data blocks (application/ld+json) are not run, so CSP does not apply to them; external scripts are 'self'.
      const runs = !type || type === 'module' || type.endsWith('javascript');
      if (runs && text && !/\bsrc=/i.test(attributes)) hashes.add(`'sha256-${createHash('sha256').update(text).digest('base64')}'`);
    }
  }
  return [...hashes].sort();
}

/** The headers of the portal's files, made once per build from its folder. */
export function portalSecurityHeaders(root: string): SecurityHeaders {
  return headersOf({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'", ...inlineScriptHashes(root)],
        // The pre-rendered pages carry style attributes (Docusaurus, the reference's theme) that cannot be hashed ahead
        // of time. Styles cannot run code, so 'unsafe-inline' costs little.
        styleSrc: ["'self'", "'unsafe-inline'"],
        // Docusaurus's CSS and the reference's theme draw icons as data: SVG images.
        imgSrc: ["'self'", 'data:'],
        // Workers a page's own scripts start from blob: URLs of their bundled code (the former Redoc reference's search
        // did); still no remote origin.
        workerSrc: ["'self'", 'blob:'],
        // The try-it form sends its requests to this server, and search fetches its index from here.
        connectSrc: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
      },
    },
  });
}

/**
 * The headers of the console's files, made once per build: a single-page app that loads only its own files and calls
 * only this server.
 */
export function consoleSecurityHeaders(root: string): SecurityHeaders {
  return headersOf({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        // Vite writes no inline script; should the page ever carry one, its hash allows exactly it.
        scriptSrc: ["'self'", ...inlineScriptHashes(root)],
        // Radix's dialog locks page scrolling with a <style> element it writes at run time, which no hash can name ahead
        // of time. Styles cannot run code, so 'unsafe-inline' costs little.
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:'],
        // The console is a client of this server's API, and of nothing else.
        connectSrc: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
      },
    },
  });
}
