import {readFileSync} from 'node:fs';
import path from 'node:path';
import {themes as prismThemes} from 'prism-react-renderer';
import type {Config} from '@docusaurus/types';
import type * as Preset from '@docusaurus/preset-classic';
import {createInfoPageMD} from 'docusaurus-plugin-openapi-docs/lib/markdown';
import colourMode from './plugins/colour-mode';
import hydrationTransitions from './plugins/hydration-transitions';
import idlePrefetch from './plugins/idle-prefetch';
import llmsTxt from './plugins/llms-txt';
import openapiCodeTabIcons from './plugins/openapi-code-tab-icons';
import openapiDownloads from './plugins/openapi-downloads';
import openapiStorageUtils from './plugins/openapi-storage-utils';
import precompress from './plugins/precompress';
import prismOnDemand from './plugins/prism-on-demand';
import referenceChunks from './plugins/reference-chunks';
import referenceWithoutPako from './plugins/reference-without-pako';
import startupTasks from './plugins/startup-tasks';
import remarkScenarioCatalogue from './plugins/scenario-catalogue';
import tryItWithoutFaker from './plugins/try-it-without-faker';
import {readOpenApiDocument} from './reference/openapi';
import {operationIndex} from './reference/operation-index';

/** The provider's public website, linked from the navbar and footer: PROVIDER_WEBSITE at build time. */
const providerWebsite = process.env.PROVIDER_WEBSITE ?? 'https://www.shopapi-fulfilment.com/';
const openapiDir = path.resolve(__dirname, '../contract/openapi');
/** Where the references' pages are served: /specs/<id>/<operation>. */
const referencesRouteBasePath = 'specs';

/**
 * One API reference: generated from the contract's document into specs/<id>/, a page per operation under /specs/<id>/,
 * and an introduction that lists every operation by tag (reference/operation-index.ts).
 */
function reference(id: 'v3' | 'v2') {
  const specPath = path.join(openapiDir, `${id}.json`);
  return {
    specPath,
    outputDir: `specs/${id}`,
    infoTemplate: `reference/info-${id}.mdx.mustache`,
    markdownGenerators: {
      createInfoPageMD: (page: Parameters<typeof createInfoPageMD>[0]) =>
        `${createInfoPageMD(page)}\n\n${operationIndex(readOpenApiDocument(specPath), `/${referencesRouteBasePath}/${id}/`)}`,
    },
    downloadUrl: `/specs/${id}/openapi.json`,
    // Each operation page carries its operation (the try-it's input) as a JavaScript object, not as deflated base64:
    // the theme's page inflated and parsed that string with pako on every render, twice as a page hydrates, and pako
    // itself came with every reference page (plugins/reference-without-pako). Brotli sends the two forms at about the
    // same size.
    disableCompression: true,
    // One category per tag, collapsed but for the one holding the page: a collapsed category's links are not rendered
    // until it opens, and the v3 reference has over 70 operations, whose links every page rendered twice (the sidebar and
    // the phone menu) as it started: on a phone, the reference index's Lighthouse score went from 84-90 to 92-99 here.
    sidebarOptions: {groupPathsBy: 'tag', categoryLinkSource: 'tag', sidebarCollapsed: true},
  };
}

const config: Config = {
  title: 'Shop API',
  tagline: 'Connect your webshop to our fulfilment centre: send orders, sync products, track every shipment.',
  favicon: 'img/favicon.svg',
  url: 'http://127.0.0.1:8080',
  baseUrl: '/',
  titleDelimiter: '|',
  onBrokenLinks: 'throw',
  onBrokenAnchors: 'throw',
  markdown: {hooks: {onBrokenMarkdownLinks: 'throw'}},
  // Docusaurus's own page template (@docusaurus/core/lib/ssg/ssgTemplate.html.js), except that the app's scripts start
  // once the server-rendered page has painted instead of as deferred scripts. Deferred scripts run as soon as the HTML is
  // parsed, and a browser that already holds them (fast network, slow phone) paints nothing until the app has been
  // evaluated, a few hundred milliseconds of a phone's CPU. Preloaded, they still download from the start; they run in
  // order two frames after the first contentful paint (a first paint can show only the top of a page still being
  // parsed; the template's loader comes last, so the next frame has all of it), and after 3 s in a tab that does not
  // paint (opened in the background). Its <html> also starts dark, the colour mode of a page read without scripts.
  ssrTemplate: readFileSync(path.join(__dirname, 'ssr-template.html'), 'utf8'),
  i18n: {defaultLocale: 'en', locales: ['en']},

  presets: [
    [
      'classic',
      {
        docs: {
          routeBasePath: 'docs',
          sidebarPath: './sidebars.ts',
          tags: 'tags.yml',
          onInlineTags: 'throw',
          lastVersion: 'current',
          versions: {current: {label: 'v3 (current)'}},
          // Before Docusaurus' own: the catalogue's headings then get their ids and their place in the table of contents.
          beforeDefaultRemarkPlugins: [remarkScenarioCatalogue],
        },
        blog: false,
        theme: {customCss: './src/css/custom.css'},
      } satisfies Preset.Options,
    ],
  ],

  themes: [
    [
      '@easyops-cn/docusaurus-search-local',
      {
        hashed: true,
        indexBlog: false,
        docsRouteBasePath: ['/docs', '/specs'],
        docsDir: ['docs', 'specs'],
        highlightSearchTermsOnTargetPage: true,
        explicitSearchResultPath: true,
      },
    ],
    'docusaurus-theme-openapi-docs',
  ],

  plugins: [
    [
      '@docusaurus/plugin-content-docs',
      {
        id: 'specs',
        path: 'specs',
        routeBasePath: referencesRouteBasePath,
        sidebarPath: './sidebars-specs.ts',
        docItemComponent: '@theme/ApiItem',
      },
    ],
    [
      'docusaurus-plugin-openapi-docs',
      {
        id: 'openapi',
        docsPluginId: 'specs',
        config: {v3: reference('v3'), v2: reference('v2')},
      },
    ],
    [openapiDownloads, {documents: {v3: path.join(openapiDir, 'v3.json'), v2: path.join(openapiDir, 'v2.json')}}],
    [referenceChunks, {folders: ['specs']}],
    [llmsTxt, {guidesPluginId: 'default', referencesPluginId: 'openapi'}],
    colourMode,
    openapiStorageUtils,
    openapiCodeTabIcons,
    prismOnDemand,
    hydrationTransitions,
    idlePrefetch,
    startupTasks,
    tryItWithoutFaker,
    referenceWithoutPako,
    precompress,
  ],

  themeConfig: {
    // A choice made with the navbar switch (kept in localStorage) wins; else the system's light or dark; else dark
    // (plugins/colour-mode). The switch cycles light, dark and system.
    colorMode: {defaultMode: 'dark', respectPrefersColorScheme: true, disableSwitch: false},
    announcementBar: {
      id: 'sandbox-2025',
      content:
        'New: run the whole Shop API on your own machine. <a href="/docs/sandbox">Start the sandbox</a> and try every call.',
      isCloseable: true,
      backgroundColor: 'var(--portal-announcement-background)',
      textColor: 'var(--portal-announcement-color)',
    },
    docs: {sidebar: {hideable: false, autoCollapseCategories: false}},
    tableOfContents: {minHeadingLevel: 2, maxHeadingLevel: 3},
    navbar: {
      title: 'Shop API',
      hideOnScroll: true,
      logo: {alt: '', src: 'img/logo.svg'},
      items: [
        {
          type: 'dropdown',
          label: 'Documentation',
          position: 'left',
          items: [
            {label: 'Get started', to: '/docs/get-started/'},
            {label: 'Documentation', to: '/docs'},
          ],
        },
        {
          type: 'dropdown',
          label: 'Specifications',
          position: 'left',
          items: [
            {label: 'ShopApi v3', to: '/specs/v3/'},
            {label: 'ShopApi v2 legacy', to: '/specs/v2/'},
          ],
        },
        {
          type: 'docsVersionDropdown',
          docsPluginId: 'default',
          position: 'right',
          dropdownItemsAfter: [{label: 'v2 (legacy reference)', to: '/specs/v2/'}],
        },
        // The console is the sandbox's own app beside the site, not a page of it: pathname:// keeps Docusaurus from
        // routing to it or checking it as a page of the site.
        {href: 'pathname:///console/', label: 'Console', position: 'right'},
        {href: providerWebsite, label: 'Fulfilment website', position: 'right'},
        {type: 'search', position: 'right'},
      ],
    },
    footer: {
      style: 'dark',
      links: [
        {
          title: 'Support',
          items: [
            {label: 'Get started', to: '/docs/get-started/'},
            {label: 'Go-live checklist', to: '/docs/get-started/steps/checklist'},
            {label: 'Run the sandbox', to: '/docs/sandbox'},
          ],
        },
        {
          title: 'Specifications',
          items: [
            {label: 'ShopApi v3', to: '/specs/v3/'},
            {label: 'ShopApi v2 legacy', to: '/specs/v2/'},
            {label: 'From v2 to v3', to: '/docs/index-banner-2'},
          ],
        },
        {
          title: 'More',
          items: [
            {label: 'Tags', to: '/docs/tags'},
            {label: 'Fulfilment website', href: providerWebsite},
          ],
        },
      ],
      copyright: 'Copyright © 2025 Shop API fulfilment. Documentation built with Docusaurus.',
    },
    prism: {
      // Every token colour at 4.5:1 or more on the block's background: VS Code's light theme (its pure-red attribute
      // names darkened) and Oceanic Next; github and dracula fall to 2.6:1 and 3:1.
      theme: {
        ...prismThemes.vsLight,
        styles: prismThemes.vsLight.styles.map((style) => (style.types.includes('attr-name') ? {...style, style: {...style.style, color: '#c00000'}} : style)),
      },
      darkTheme: prismThemes.oceanicNext,
      additionalLanguages: ['bash', 'json', 'php'],
    },
    // The try-it keeps the bearer token for the tab's session, so a token requested on one operation page serves all.
    api: {authPersistence: 'sessionStorage'},
  } satisfies Preset.ThemeConfig,
};

export default config;
