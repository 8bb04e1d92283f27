import type {SidebarsConfig} from '@docusaurus/plugin-content-docs';

// The references' sidebars, as `npm run gen-api-docs` generates them from the OpenAPI documents (grouped by tag).
const sidebars: SidebarsConfig = {
  v3: require('./specs/v3/sidebar.ts').default,
  v2: require('./specs/v2/sidebar.ts').default,
};

export default sidebars;
