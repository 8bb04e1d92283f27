// Once a page has hydrated, Docusaurus renders again all that differs in the browser: useIsBrowser turns true (code
// blocks, the references' schemas and parameters, the colour-mode switch) and useWindowSize learns the window's width
// (on a phone the sidebar moves into the navbar's menu and the table of contents into a collapsible). Both are ordinary
// updates from an effect, which React renders in one go with the page unresponsive meanwhile: on a phone, most of a
// second on a reference page. The two modules that make those updates are replaced here by copies that make the first
// ones transitions, which React renders in slices that input can interrupt. Later resizes stay ordinary updates.
import path from 'node:path';
import type {Plugin} from '@docusaurus/types';

/** The module that each request resolves to, by the folder it is imported from: @docusaurus/<package>/lib/... */
const replacements = [
  {request: /^\.\.?\/browserContext$/, importer: path.join('@docusaurus', 'core', 'lib', 'client'), module: 'browser-context.tsx'},
  {request: /^\.\.?\/hooks\/useWindowSize$/, importer: path.join('@docusaurus', 'theme-common', 'lib'), module: 'use-window-size.ts'},
];

export default function hydrationTransitions(): Plugin {
  return {
    name: 'hydration-transitions',
    configureWebpack(_config, _isServer, {currentBundler}) {
      return {
        plugins: [
          new currentBundler.instance.NormalModuleReplacementPlugin(/browserContext$|useWindowSize$/, (resource: {context: string; request: string}) => {
            const replacement = replacements.find(({request, importer}) => request.test(resource.request) && resource.context.includes(importer));
            if (replacement) resource.request = path.join(__dirname, replacement.module);
          }),
        ],
      };
    },
  };
}
