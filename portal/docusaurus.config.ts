import path from 'node:path';
import {themes as prismThemes} from 'prism-react-renderer';
import type {Config} from '@docusaurus/types';
import type * as Preset from '@docusaurus/preset-classic';
import type {ThemeOptions as RedocThemeOptions} from 'docusaurus-theme-redoc';
import apiReference from './plugins/api-reference';

const providerWebsite = 'https://www.example.com/';
const openapiDir = path.resolve(__dirname, '../contract/openapi');

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
        docsRouteBasePath: '/docs',
        highlightSearchTermsOnTargetPage: true,
        explicitSearchResultPath: true,
      },
    ],
    [
      'docusaurus-theme-redoc',
      {
        primaryColor: '#17657f',
        options: {disableSearch: false, hideDownloadButton: false, jsonSampleExpandLevel: 3},
      } satisfies RedocThemeOptions,
    ],
  ],

  plugins: [
    [
      apiReference,
      {
        specs: [
          {id: 'v3', file: path.join(openapiDir, 'v3.json'), route: '/specs/v3/', title: 'ShopApi v3 reference'},
          {id: 'v2', file: path.join(openapiDir, 'v2.json'), route: '/specs/v2/', title: 'ShopApi v2 reference (legacy)'},
        ],
      },
    ],
  ],

  themeConfig: {
    colorMode: {defaultMode: 'dark', respectPrefersColorScheme: true, disableSwitch: false},
    announcementBar: {
      id: 'sandbox-2025',
      content:
        'New: run the whole Shop API on your own machine. <a href="/docs/index-banner-1">Start the sandbox</a> and try every call.',
      isCloseable: true,
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
            {label: 'Get Started', to: '/docs/get-started/'},
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
          position: 'right',
          dropdownItemsAfter: [{label: 'v2 (legacy reference)', to: '/specs/v2/'}],
        },
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
            {label: 'Get Started', to: '/docs/get-started/'},
            {label: 'Go-live checklist', to: '/docs/get-started/steps/checklist'},
            {label: 'Run the sandbox', to: '/docs/index-banner-1'},
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
      theme: prismThemes.github,
      darkTheme: prismThemes.dracula,
      additionalLanguages: ['bash', 'json', 'php'],
    },
  } satisfies Preset.ThemeConfig,
};

export default config;
