// Leaves pako (45 kB of zlib in JavaScript) out of the reference pages' scripts. The theme's operation page imports it to
// inflate the operation that docusaurus-plugin-openapi-docs deflates into the page's front matter; the portal turns
// that compression off (docusaurus.config.ts, disableCompression), so the page finds an object where it expects base64
// text, its decoding fails before pako is called, and it uses the object as it is. ./pako-stub.js answers for pako
// there; were the compression turned on again, its ungzip would fail and the try-it would lose its operation, which the
// end-to-end suite's try-it test would notice.
import path from 'node:path';
import type {Plugin} from '@docusaurus/types';

/** The theme's operation page, the one module that imports pako. */
const operationPage = path.join('docusaurus-theme-openapi-docs', 'lib', 'theme', 'ApiItem');

export default function referenceWithoutPako(): Plugin {
  return {
    name: 'reference-without-pako',
    configureWebpack(_config, isServer, {currentBundler}) {
      if (isServer) return {};
      return {
        plugins: [
          new currentBundler.instance.NormalModuleReplacementPlugin(/^pako$/, (resource: {context: string; request: string}) => {
            if (resource.context.endsWith(operationPage)) resource.request = path.join(__dirname, 'pako-stub.js');
          }),
        ],
      };
    },
  };
}
