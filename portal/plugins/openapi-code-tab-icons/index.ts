// Drops the OpenAPI theme's styles for its own code-sample tabs: a language logo per snippet generator, 60 kB of inline
// SVG in the one stylesheet that every page, guides included, loads before it can paint. The portal shows the contract's
// samples in Docusaurus tabs instead (src/theme/ApiExplorer/CodeSnippets), which never carry these classes.
import type {Plugin} from '@docusaurus/types';
import type {Plugin as PostCssPlugin, Rule} from 'postcss';

/** The class of the theme's code-sample tabs (ApiExplorer/CodeTabs and CodeSnippets), and of nothing else. */
const codeTabItem = 'openapi-tabs__code-item';

const dropCodeTabItemRules: PostCssPlugin = {
  postcssPlugin: 'drop-openapi-code-tab-items',
  Rule(rule: Rule) {
    if (rule.selectors.every((selector) => selector.includes(codeTabItem))) rule.remove();
  },
};

export default function openapiCodeTabIcons(): Plugin {
  return {
    name: 'openapi-code-tab-icons',
    configurePostCss(options) {
      options.plugins.push(dropCodeTabItemRules);
      return options;
    },
  };
}
