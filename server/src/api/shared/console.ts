// The sandbox console (console/, a single-page app built by Vite) at /console/: its built files as they are, its
import fp from 'fastify-plugin';
// index.html for every other path under /console/ (the app's own routes, so deep links and reloads work), the build's
// progress while `npm start` builds it, and a page saying how to build it while it is not built.
import { existsSync, statSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { consoleSecurityHeaders, setSecurityHeaders } from './security-headers.ts';
import { sendBuildingPage } from './building-page.ts';
import { type BuildProgress, unfinished } from '../../platform/build-progress.ts';

const consolePath = '/console/';
/** Vite's hashed files: a new build names them anew, so they never change under their name. */
const assetsPath = `${consolePath}assets/`;
const hashedFileCache = 'public, max-age=31536000, immutable';
/** index.html names the current build's files, and the other files keep their names across builds: asked again each time. */
const unhashedFileCache = 'no-cache';

/** The built file a path under /console/ names, or undefined. Never leaves the build folder. */
function fileFor(root: string, pathname: string): string | undefined {
  const full = resolve(root, `.${pathname.slice(consolePath.length - 1)}`);
  if (!full.startsWith(root + sep)) return undefined;
  return existsSync(full) && statSync(full).isFile() ? relative(root, full) : undefined;
}

const notBuiltPage = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Sandbox console not built</title></head>
<body>
<h1>The sandbox console is not built</h1>
<p>Build it in the repository with <code>npm run build -w console</code>, then reload this page.
<code>npm start</code> and <code>npm run portal:build</code> build it for you.</p>
</body>
</html>
`;

/**
 * The console's headers, made from its build as found now and again when a new build has rewritten its index.html (its
 * inline script may change); undefined while console/dist/index.html does not exist. So building needs no restart.
 */
function builtConsoleHeaders(root: string) {
  let built: { at: number; headers: ReturnType<typeof consoleSecurityHeaders> } | undefined;
  return () => {
    const at = statSync(join(root, 'index.html'), { throwIfNoEntry: false })?.mtimeMs;
    if (at === undefined) return undefined;
    if (built?.at !== at) built = { at, headers: consoleSecurityHeaders(root) };
    return built.headers;
  };
}

async function consoleFiles(app: FastifyInstance, opts: { root: string; buildProgress: () => BuildProgress | undefined }) {
  const root = resolve(opts.root);
  const builtHeaders = builtConsoleHeaders(root);
  // The portal's plugin may already have given replies sendFile; this context adds it only where it is missing. Each
  // call names the root, so none is given here (and a console not yet built draws no warning at start).
  if (!app.hasReplyDecorator('sendFile')) await app.register(fastifyStatic, { serve: false });

  const send = (reply: FastifyReply, file: string, headers: ReturnType<typeof consoleSecurityHeaders>) => {
    setSecurityHeaders(reply, headers);
    reply.header('cache-control', file.startsWith(`assets${sep}`) ? hashedFileCache : unhashedFileCache);
    return reply.sendFile(file, root, { cacheControl: false });
  };

  app.get('/console', (request, reply) => {
    const [pathname, query] = request.url.split(/\?(.*)/s);
    // The router ignores the trailing slash; the app lives under /console/ (its build's base), so it gets one.
    if (!pathname.endsWith('/')) return reply.redirect(`${consolePath}${query === undefined ? '' : `?${query}`}`, 301);
    return answer(pathname, reply);
  });
  // The router has already refused a path that is not valid percent-encoding (400).
  app.get('/console/*', (request, reply) => answer(decodeURIComponent(request.url.split('?')[0]), reply));

  function answer(pathname: string, reply: FastifyReply) {
    const progress = opts.buildProgress();
    if (unfinished(progress, 'console')) return sendBuildingPage(reply, progress!, 'console');
    const headers = builtHeaders();
    if (!headers) return reply.code(503).header('cache-control', 'no-store').type('text/html; charset=utf-8').send(notBuiltPage);
    const file = fileFor(root, pathname);
    if (file) return send(reply, file, headers);
    // A missing asset is a stale page asking for an older build's file: HTML in its place would only break it further.
    if (pathname.toLowerCase().startsWith(assetsPath)) return reply.callNotFound();
    return send(reply, 'index.html', headers);
  }
}

export const consolePlugin = fp(consoleFiles, {
  name: 'shopapi-console',
  fastify: '5.x',
  encapsulate: true,
  dependencies: ['shopapi-security-headers'],
});
