// @docusaurus/core/lib/client/docusaurus.js (3.10) with prefetching done in idle time from a map made once
// (./index.ts says why). window.docusaurus keeps its two functions and their answers.
import {matchRoutes} from 'react-router-config';
import routesChunkNames from '@generated/routesChunkNames';
import routes from '@generated/routes';
import prefetchHelper from '@docusaurus/core/lib/client/prefetch';
import preloadHelper from '@docusaurus/core/lib/client/preload';
import flat from '@docusaurus/core/lib/client/flat';

declare const __webpack_require__: {gca(chunkName: string): string | undefined};

const fetched = new Set<string>();
const loaded = new Set<string>();

type Connection = {effectiveType?: string; saveData?: boolean};
const isSlowConnection = () => {
  const connection = (navigator as Navigator & {connection?: Connection}).connection;
  return Boolean(connection?.effectiveType?.includes('2g') || connection?.saveData);
};
const canPrefetch = (routePath: string) => !isSlowConnection() && !loaded.has(routePath) && !fetched.has(routePath);
const canPreload = (routePath: string) => !isSlowConnection() && !loaded.has(routePath);

/** Route path → the chunk names of its routes (a route's key is its path and a hash: /docs/intro-3f2). */
let chunkNamesByPath: Map<string, string[]> | undefined;
function chunkNamesOf(path: string): string[] {
  if (!chunkNamesByPath) {
    chunkNamesByPath = new Map();
    for (const [routeNameWithHash, routeChunks] of Object.entries(routesChunkNames)) {
      const routePath = routeNameWithHash.replace(/-[^-]+$/, '');
      const names = Object.values(flat(routeChunks)) as string[];
      chunkNamesByPath.set(routePath, [...(chunkNamesByPath.get(routePath) ?? []), ...names]);
    }
  }
  return chunkNamesByPath.get(path) ?? [];
}

function fetchChunksOf(routePath: string): Promise<unknown> {
  const chunkNamesNeeded = matchRoutes(routes, routePath).flatMap((match) => chunkNamesOf(match.route.path as string));
  return Promise.all(
    chunkNamesNeeded.map((chunkName) => {
      // The chunk may have been merged into another one by webpack: then there is nothing of its own to fetch.
      const chunkAsset = __webpack_require__.gca(chunkName);
      return chunkAsset && !chunkAsset.includes('undefined') ? prefetchHelper(chunkAsset) : Promise.resolve();
    }),
  );
}

/** Route paths waiting for idle time, each with the resolver of the promise its prefetch call returned. */
const queue: {routePath: string; done: () => void}[] = [];
let scheduled = false;
const whenIdle: (run: (deadline?: IdleDeadline) => void) => void =
  typeof window !== 'undefined' && 'requestIdleCallback' in window
    ? (run) => window.requestIdleCallback(run, {timeout: 5000})
    : (run) => setTimeout(run, 200);

/**
 * The most work one idle callback does, in milliseconds. An idle period can last 50 ms, and filling it made tasks of 15
 * to 35 ms here, which a phone four times slower runs as long tasks (Lighthouse counts them so): a fixed few
 * milliseconds keep each well under 50 ms there too.
 */
const sliceMilliseconds = 4;

function drain(deadline?: IdleDeadline) {
  const end = performance.now() + Math.min(sliceMilliseconds, deadline?.timeRemaining() ?? 0);
  do {
    const next = queue.shift();
    if (!next) break;
    void fetchChunksOf(next.routePath).then(next.done, next.done);
  } while (deadline && !deadline.didTimeout && performance.now() < end);
  scheduled = queue.length > 0;
  if (scheduled) whenIdle(drain);
}

const prefetch = (routePath: string): false | Promise<void> => {
  if (!canPrefetch(routePath)) return false;
  fetched.add(routePath);
  return new Promise<void>((done) => {
    queue.push({routePath, done});
    if (!scheduled) {
      scheduled = true;
      whenIdle(drain);
    }
  });
};

const preload = (routePath: string): false | Promise<unknown> => {
  if (!canPreload(routePath)) return false;
  loaded.add(routePath);
  return preloadHelper(routePath);
};

export default Object.freeze({prefetch, preload});
