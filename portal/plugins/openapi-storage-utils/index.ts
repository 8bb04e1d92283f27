// Points the OpenAPI theme's own relative imports of its storage helpers at the portal's override
// (src/theme/ApiExplorer/storage-utils.ts, which says why): its persistence middleware imports them as
// "./storage-utils", a path that swizzling does not reach, and would keep all of crypto-js on every reference page.
import path from 'node:path';
import type {LoadContext, Plugin} from '@docusaurus/types';

const themeFolder = `${path.sep}docusaurus-theme-openapi-docs${path.sep}`;

export default function openapiStorageUtils(context: LoadContext): Plugin {
  const override = path.join(context.siteDir, 'src', 'theme', 'ApiExplorer', 'storage-utils.ts');
  return {
    name: 'openapi-storage-utils',
    configureWebpack(_config, _isServer, {currentBundler}) {
      return {
        plugins: [
          new currentBundler.instance.NormalModuleReplacementPlugin(/^\.\/storage-utils$/, (resource: {context: string; request: string}) => {
            if (resource.context.includes(themeFolder)) resource.request = override;
          }),
        ],
      };
    },
  };
}
