// Docusaurus prefetches the scripts of every page a visible link leads to: each link, as it scrolls into view, looks
// its route up among all the site's routes and then walks every route's chunk list comparing names (about 170 routes
// here). On a reference page the navbar, the sidebar and the pagination make dozens of links visible at once, so that
// work ran as one task of some 200 ms on a phone (Lighthouse's 4x CPU), right when the page had to become responsive.
// The module that does it is replaced by a copy (./docusaurus.ts) that finds a route's chunks in a map made once and
// runs the prefetches in idle time, a few at a time. Preloading (on hover, touch and navigation) is unchanged.
import path from 'node:path';
import type {Plugin} from '@docusaurus/types';

/** @docusaurus/core/lib/client/docusaurus.js, as clientEntry.js imports it. */
const importer = path.join('@docusaurus', 'core', 'lib', 'client');

export default function idlePrefetch(): Plugin {
  return {
    name: 'idle-prefetch',
    configureWebpack(_config, isServer, {currentBundler}) {
      if (isServer) return {};
      return {
        plugins: [
          new currentBundler.instance.NormalModuleReplacementPlugin(/^\.\/docusaurus$/, (resource: {context: string; request: string}) => {
            if (resource.context.endsWith(importer)) resource.request = path.join(__dirname, 'docusaurus.ts');
          }),
        ],
      };
    },
  };
}
