// Loads Prism with the code blocks that highlight (src/theme/CodeBlock/Content), not with every page. The classic theme
// registers the site's extra languages (themeConfig.prism.additionalLanguages) from a client module, which runs on every
// page at start-up and so puts prism-react-renderer (its Prism with a dozen grammars, about 100 kB) in the main bundle
// and builds all its grammars before the page can respond, guides without code included. Here that client module is
// left out, and every import of prism-react-renderer gets it through ./prism-react-renderer.ts, which registers the same
// languages first.
import path from 'node:path';
import type {Plugin} from '@docusaurus/types';

/** The classic theme's client module that registers the extra languages at start-up (imported by absolute path). */
const startupLanguages = path.join(path.dirname(require.resolve('@docusaurus/theme-classic/package.json')), 'lib', 'prism-include-languages');
const prismWithLanguages = path.join(__dirname, 'prism-react-renderer.ts');

export default function prismOnDemand(): Plugin {
  return {
    name: 'prism-on-demand',
    configureWebpack(_config, _isServer, {currentBundler}) {
      return {
        resolve: {alias: {[startupLanguages]: false}},
        plugins: [
          new currentBundler.instance.NormalModuleReplacementPlugin(/^prism-react-renderer$/, (resource: {request: string; contextInfo?: {issuer?: string}}) => {
            if (resource.contextInfo?.issuer !== prismWithLanguages) resource.request = prismWithLanguages;
          }),
        ],
      };
    },
  };
}
