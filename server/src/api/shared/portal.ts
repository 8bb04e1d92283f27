// The portal's built files on the same origin as the API, and the one not-found answer for both:
// unknown API paths answer in the API's error format, other unknown paths get the portal's 404 page.
// Pages are served as Docusaurus builds them (dir/index.html or page.html) with or without a trailing slash:
// the router ignores trailing slashes, so redirecting to add one would loop.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import fp from 'fastify-plugin';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { sendFallbackError } from './jsonapi.ts';
import { portalSecurityHeaders } from './security-headers.ts';

const hashedFileCache = 'public, max-age=31536000, immutable';
/** Pages and files with fixed names: a browser asks again each time (a 304 when they did not change). */
const revalidated = 'public, max-age=0';

/** Paths that belong to the API. */
export const apiPrefixes =
  /^\/(v2|v3|sandbox|token|status|settings|order|shipment|stock|product|purchaseorder|rma|returnlabel|returnitem)(\/|$|\?)/i;

/** The file a URL path names inside the build, or undefined. Never leaves the build folder. */
function fileFor(root: string, urlPath: string): string | undefined {
  let pathname: string;
  try {
    pathname = decodeURIComponent(urlPath.split('?')[0]);
  } catch {
    return undefined;
  }
  const full = resolve(root, `.${pathname}`);
  if (full !== root && !full.startsWith(root + sep)) return undefined;
  for (const candidate of [full, join(full, 'index.html'), `${full}.html`]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return relative(root, candidate);
  }
  return undefined;
}

export const portalPlugin = fp(async (app: FastifyInstance, opts: { root: string }) => {
  const root = resolve(opts.root);
  const available = existsSync(join(root, 'index.html'));
  const notFoundPage = available && existsSync(join(root, '404.html')) ? readFileSync(join(root, '404.html')) : undefined;
  // Every answer has the API's headers (securityHeadersPlugin); the portal's files replace its CSP with the portal's.
  const portalHeaders = available ? portalSecurityHeaders(root) : undefined;

  if (available) {
    // The build writes a Brotli copy of its pages, scripts and stylesheets (name.br, at a quality too slow to compress
    // with on each request): those go out as they are, the rest through the compression plugin.
    // The build names its scripts and stylesheets after their content (assets/): a browser may keep them for good.
    // Set by setHeaders, with the file actually sent: @fastify/static 8.3 drops sendFile's own options when it falls back
    // from a missing Brotli copy to the file itself.
    const assets = join(root, 'assets') + sep;
    await app.register(fastifyStatic, {
      root,
      serve: false,
      preCompressed: true,
      cacheControl: false,
      setHeaders: (response, path) => response.setHeader('cache-control', path.startsWith(assets) ? hashedFileCache : revalidated),
    });
    app.get('/*', (request, reply) => {
      const file = apiPrefixes.test(request.url) ? undefined : fileFor(root, request.url);
      if (!file) return reply.callNotFound();
      reply.helmet(portalHeaders);
      reply.header('vary', 'accept-encoding');
      return reply.sendFile(file);
    });
  }

  app.setNotFoundHandler((request, reply) => {
    if (apiPrefixes.test(request.url) || !notFoundPage) {
      return sendFallbackError(request, reply, 404, [
        { code: '404', detail: `No such resource: ${request.method} ${request.url.split('?')[0]}.` },
      ]);
    }
    reply.helmet(portalHeaders);
    return reply.code(404).type('text/html; charset=utf-8').send(notFoundPage);
  });
});
