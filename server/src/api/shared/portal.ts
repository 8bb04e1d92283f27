// The portal's built files on the same origin as the API, and the one not-found answer for both:
// unknown API paths answer in the API's error format, other unknown paths get the portal's 404 page.
// Pages are served as Docusaurus builds them (dir/index.html or page.html) with or without a trailing slash:
// the router ignores trailing slashes, so redirecting to add one would loop.
// While `npm start` builds the portal beside the server, its paths answer the building page; the build is taken up
// when it is done, without a restart.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import fp from 'fastify-plugin';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { sendFallbackError } from './jsonapi.ts';
import { portalSecurityHeaders, setSecurityHeaders } from './security-headers.ts';
import { sendBuildingPage } from './building-page.ts';
import { type BuildProgress, unfinished } from '../../platform/build-progress.ts';

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

/** The build as found now, read again when a new build has rewritten its index.html; undefined while there is none. */
function builtSite(root: string) {
  let site: { builtAt: number; notFoundPage?: Buffer; headers: ReturnType<typeof portalSecurityHeaders> } | undefined;
  return () => {
    const builtAt = statSync(join(root, 'index.html'), { throwIfNoEntry: false })?.mtimeMs;
    if (builtAt === undefined) return undefined;
    if (site?.builtAt !== builtAt) {
      const notFound = join(root, '404.html');
      // Every answer has the API's headers (securityHeadersPlugin); the portal's files replace its CSP with the portal's.
      site = { builtAt, notFoundPage: existsSync(notFound) ? readFileSync(notFound) : undefined, headers: portalSecurityHeaders(root) };
    }
    return site;
  };
}

export const portalPlugin = fp(
  async (app: FastifyInstance, opts: { root: string; buildProgress: () => BuildProgress | undefined }) => {
    const root = resolve(opts.root);
    const site = builtSite(root);
    const building = () => {
      const progress = opts.buildProgress();
      return unfinished(progress, 'portal') ? progress : undefined;
    };

    // The build writes a Brotli copy of its pages, scripts and stylesheets (name.br, at a quality too slow to compress
    // with on each request): those go out as they are, the rest through the compression plugin.
    // The build names its scripts and stylesheets after their content (assets/): a browser may keep them for good.
    // Set by setHeaders, with the file actually sent: @fastify/static 8.3 drops sendFile's own options when it falls back
    // from a missing Brotli copy to the file itself. Each call names the root, so none is given here (and a portal not yet
    // built draws no warning at start).
    const assets = join(root, 'assets') + sep;
    await app.register(fastifyStatic, {
      serve: false,
      preCompressed: true,
      cacheControl: false,
      setHeaders: (response, path) => response.setHeader('cache-control', path.startsWith(assets) ? hashedFileCache : revalidated),
    });
    app.get('/*', (request, reply) => {
      if (apiPrefixes.test(request.url)) return reply.callNotFound();
      const progress = building();
      if (progress) return sendBuildingPage(reply, progress, 'portal');
      const current = site();
      const file = current && fileFor(root, request.url);
      if (!file) return reply.callNotFound();
      setSecurityHeaders(reply, current.headers);
      reply.header('vary', 'accept-encoding');
      return reply.sendFile(file, root);
    });

    app.setNotFoundHandler((request, reply) => {
      const current = apiPrefixes.test(request.url) ? undefined : site();
      if (!current?.notFoundPage) {
        return sendFallbackError(request, reply, 404, [
          { code: '404', detail: `No such resource: ${request.method} ${request.url.split('?')[0]}.` },
        ]);
      }
      setSecurityHeaders(reply, current.headers);
      return reply.code(404).type('text/html; charset=utf-8').send(current.notFoundPage);
    });
  },
  { name: 'shopapi-portal', fastify: '5.x', dependencies: ['shopapi-security-headers'] },
);
