// Security headers on every answer (@fastify/helmet): nosniff, no referrer, no framing, and a Content-Security-Policy
// that allows nothing for the API's JSON; the portal's and the console's files get one that allows their own files and
// nothing remote.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fp from 'fastify-plugin';
import helmet from '@fastify/helmet';
import type { FastifyInstance, FastifyReply } from 'fastify';

type HelmetOptions = NonNullable<Parameters<FastifyReply['helmet']>[0]>;

/** The API's answers are data, never documents: they may load nothing and be framed nowhere. */
const apiContentSecurityPolicy = { useDefaults: false, directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] } };

export const securityHeadersPlugin = fp(
  async (app: FastifyInstance) => {
    await app.register(helmet, {
      contentSecurityPolicy: apiContentSecurityPolicy,
      // HSTS is for the TLS terminator in front (docs/OPERATIONS.md): the sandbox itself speaks plain HTTP, often on a
      // developer's machine, where pinning HTTPS for the host name would break other local services.
      strictTransportSecurity: false,
      referrerPolicy: { policy: 'no-referrer' },
      xFrameOptions: { action: 'deny' },
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

/** Helmet options for the portal's files (reply.helmet), built once from the build folder at start. */
export function portalSecurityHeaders(root: string): HelmetOptions {
  return {
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
  };
}

/** Helmet options for the console's files: a single-page app that loads only its own files and calls only this server. */
export function consoleSecurityHeaders(root: string): HelmetOptions {
  return {
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
  };
}
