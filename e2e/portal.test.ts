// The built portal in Debian's Chromium: routes, page chrome, colour mode, search, references and their try-it.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import { createClient } from '../server/src/modules/clients/service.ts';
import { scenarios } from '../contract/src/scenarios.ts';
import { launchChromium, searchAndOpen } from './browser.ts';
import { axeViolations } from './console-axe.ts';
import { startPortalSandbox, type PortalSandbox } from './portal-sandbox.ts';
import { servePortal } from './static-server.ts';

const repository = path.resolve(import.meta.dirname, '..');
const tags = ['authentication', 'design-principles', 'general-concepts', 'json-api', 'pagination', 'shopapi-v-2', 'shopapi-v-3'];

/** Every route of issue 3 with the heading it must show. */
const routes: [string, string | RegExp][] = [
  ['/', 'Shop API'],
  ['/docs', 'Shop API documentation'],
  ['/docs/tags', 'Tags'],
  ...tags.map((tag): [string, RegExp] => [`/docs/tags/${tag}`, /tagged with/]),
  ['/docs/category/step-by-step', 'Step by step'],
  ['/docs/get-started/', 'Get started'],
  ['/docs/get-started/steps/authenticating', 'Authenticating'],
  ['/docs/get-started/steps/checklist', 'Checklist before going live'],
  ['/docs/get-started/steps/getting-settings', 'Getting settings'],
  ['/docs/get-started/steps/synchronizing-products', 'Synchronizing products'],
  ['/docs/index-banner-1', 'Run the sandbox'],
  ['/docs/sandbox', 'Run the sandbox'],
  ['/docs/test-scenarios', 'Test scenarios'],
  ['/docs/test-every-road', 'Test every road'],
  ['/docs/index-banner-2', 'From v2 to v3'],
  ['/docs/shopapi/v3/', 'Shop API v3'],
  ['/docs/shopapi/v3/authenticating', 'Authenticating in v3'],
  ['/docs/shopapi/v3/general-concepts/', 'General concepts'],
  ['/docs/shopapi/v3/general-concepts/jsonapi', 'JSON:API in the Shop API'],
  ['/docs/shopapi/v3/general-concepts/pagination', 'Pagination'],
  ['/specs/v3/', 'Shop API v3'],
  ['/specs/v3/create-order', 'Create an order'],
  ['/specs/v3/orders', 'Orders'],
  ['/specs/v2/', 'Shop API v2 (legacy)'],
];

let browser: Browser;
let site: { url: string; close: () => Promise<void> };

beforeAll(async () => {
  site = await servePortal(path.join(repository, 'portal', 'build'));
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await site?.close();
});

/** A fresh context (own storage) whose system colour scheme is dark unless told otherwise. */
async function open(route: string, options: BrowserContextOptions = {}): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ colorScheme: 'dark', viewport: { width: 1280, height: 900 }, ...options });
  const page = await context.newPage();
  await page.goto(site.url + route);
  // Interactions before React has hydrated reach no handler (the navbar's scroll listener, toggles).
  await page.locator('html[data-has-hydrated="true"]').waitFor({ state: 'attached' });
  return { context, page };
}

describe('routes', () => {
  test('every route renders its heading, and no request leaves 127.0.0.1', async () => {
    const context = await browser.newContext({ colorScheme: 'dark' });
    const remote: string[] = [];
    context.on('request', (request) => {
      const { protocol, hostname } = new URL(request.url());
      if (['http:', 'https:', 'ws:', 'wss:'].includes(protocol) && hostname !== '127.0.0.1') remote.push(request.url());
    });
    const page = await context.newPage();
    for (const [route, heading] of routes) {
      const response = await page.goto(site.url + route);
      expect(response?.status(), route).toBe(200);
      await expect.poll(() => page.locator('h1').first().textContent(), { message: route }).toMatch(heading);
    }
    await page.waitForTimeout(1000);
    expect(remote).toEqual([]);
    await context.close();
  }, 120_000);

  test('an unknown path shows the not-found page', async () => {
    const { context, page } = await open('/docs/no-such-page');
    await expect.poll(() => page.locator('h1').first().textContent()).toBe('Page Not Found');
    const response = await page.request.get(`${site.url}/no/such/page`);
    expect(response.status()).toBe(404);
    await context.close();
  });

  test('each reference has a page per operation of its OpenAPI document and offers the document for download', async () => {
    for (const version of ['v3', 'v2']) {
      const document = JSON.parse(readFileSync(path.join(repository, 'contract', 'openapi', `${version}.json`), 'utf8')) as {
        paths: Record<string, Record<string, { summary: string }>>;
      };
      const summaries = Object.values(document.paths).flatMap((item) => Object.values(item).map((operation) => operation.summary));
      const { context, page } = await open(`/specs/${version}/`);
      const sidebar = page.locator('.theme-doc-sidebar-menu');
      // Each tag's category starts collapsed: open them all, as a reader would.
      const collapsed = sidebar.locator('button.menu__caret[aria-expanded="false"]');
      expect(await collapsed.count()).toBeGreaterThan(0);
      while ((await collapsed.count()) > 0) await collapsed.first().click();
      const labels = await sidebar.locator('a.menu__link').allTextContents();
      for (const summary of summaries) expect(labels, `${version}: ${summary}`).toContain(summary);
      const hrefs = await sidebar
        .locator('.api-method > a.menu__link')
        .evaluateAll((links) => links.map((link) => (link as HTMLAnchorElement).pathname));
      expect(new Set(hrefs).size).toBe(summaries.length);
      const download = page.locator(`a[href="/specs/${version}/openapi.json"]`).first();
      const served = await page.request.get(new URL((await download.getAttribute('href')) ?? '', site.url).toString());
      expect(await served.json()).toEqual(document);
      await context.close();
    }
  });

  test("each reference's index lists every operation by tag, with its method, path and summary, linking to its page", async () => {
    for (const version of ['v3', 'v2']) {
      const document = JSON.parse(readFileSync(path.join(repository, 'contract', 'openapi', `${version}.json`), 'utf8')) as {
        tags: { name: string }[];
        paths: Record<string, Record<string, { summary: string; tags: string[] }>>;
      };
      const { context, page } = await open(`/specs/${version}/`);
      const listed = await page.locator('.operation-index').evaluateAll((lists) =>
        lists.flatMap((list) => {
          let heading = list.previousElementSibling;
          while (heading && heading.tagName !== 'H3') heading = heading.previousElementSibling;
          return [...list.querySelectorAll('a')].map((link) => ({
            tag: heading?.textContent?.replace(/\u200b/g, '').trim(),
            method: link.querySelector('[class*="operation-index__method"]')?.textContent,
            path: link.querySelector('code')?.textContent,
            summary: link.querySelector('.operation-index__summary')?.textContent,
            href: link.pathname,
          }));
        }),
      );
      const operations = Object.entries(document.paths).flatMap(([operationPath, item]) =>
        Object.entries(item).map(([method, operation]) => ({
          tag: operation.tags[0],
          method: method.toUpperCase(),
          path: operationPath,
          summary: operation.summary,
        })),
      );
      expect(listed.map(({ href: _, ...entry }) => entry)).toEqual(
        expect.arrayContaining(operations.map((operation) => expect.objectContaining(operation))),
      );
      expect(listed).toHaveLength(operations.length);
      expect([...new Set(listed.map((entry) => entry.tag))]).toEqual(
        document.tags.map((tag) => tag.name).filter((name) => operations.some((operation) => operation.tag === name)),
      );
      // Each links to the page of its operation, titled with its summary.
      for (const entry of listed) {
        const html = await (await page.request.get(site.url + entry.href)).text();
        // Read by the browser's own HTML parser: entities (an apostrophe is &#x27;) decoded as a reader sees them.
        const title = await page.evaluate(
          (text) => new DOMParser().parseFromString(text, 'text/html').querySelector('h1')?.textContent,
          html,
        );
        expect(title, entry.href).toBe(entry.summary);
      }
      // A click moves within the site, as the sidebar's links do: the page is not loaded again.
      const first = listed[0];
      await page.evaluate(() => Object.assign(window, { sameDocument: true }));
      await page.locator('.operation-index a').first().click();
      await page.waitForURL((url) => url.pathname === first.href);
      await expect.poll(() => page.locator('h1').first().textContent()).toBe(first.summary);
      expect(await page.evaluate(() => 'sameDocument' in window)).toBe(true);
      await context.close();
    }
  });

  test('a deep link opens its own operation and stays there', async () => {
    const { context, page } = await open('/specs/v3/create-order');
    await page.waitForTimeout(1500);
    expect(page.url()).toBe(`${site.url}/specs/v3/create-order`);
    expect(await page.locator('h1').first().textContent()).toBe('Create an order');
    expect(await page.locator('.theme-doc-sidebar-menu .menu__link--active').last().textContent()).toBe('Create an order');
    await context.close();
  });

  test('code samples address the origin that serves the page, in curl, JavaScript, PHP and Python', async () => {
    const { context, page } = await open('/specs/v3/create-order');
    const panel = page.locator('.openapi-right-panel__container');
    const tabs = panel.getByRole('tab');
    await tabs.first().waitFor();
    expect(await tabs.allTextContents()).toEqual(expect.arrayContaining(['curl', 'JavaScript (fetch)', 'PHP (curl)', 'Python (requests)']));
    for (const label of ['curl', 'JavaScript (fetch)', 'PHP (curl)', 'Python (requests)']) {
      await panel.getByRole('tab', { name: label, exact: true }).click();
      const code = await panel.locator('[role="tabpanel"]:not([hidden]) pre').first().innerText();
      expect(code, label).toContain(`${site.url}/v3/orders`);
      expect(code, label).not.toContain('127.0.0.1:8080');
    }
    await context.close();
  });

  test("an operation page's lists hold list items and its response codes wrap instead of scrolling behind unnamed arrows", async () => {
    const { context, page } = await open('/specs/v3/create-order', { viewport: { width: 412, height: 823 } });
    const reference = page.locator('.theme-api-markdown');
    await reference.locator('.openapi-tabs__response-code-item').first().waitFor();
    expect(await reference.locator('ul:not([role]) > :not(li)').count()).toBe(0);
    const codes = reference.locator('.openapi-tabs__response-list-container');
    expect(await codes.evaluate((list) => list.scrollWidth <= list.clientWidth)).toBe(true);
    expect(await reference.locator('.openapi-tabs__arrow:visible').count()).toBe(0);
    await context.close();
  });

  test("the try-it's modules load once its panel comes into view: never on a guide, not before scrolling on a phone", async () => {
    const context = await browser.newContext({ viewport: { width: 412, height: 823 } });
    // The try-it's chunk is the one that carries postman-collection (request building), known by one of its classes: an
    // operation page's own script holds the word "postman" too, in the operation the try-it starts from.
    const tryItScripts: string[] = [];
    context.on('response', async (response) => {
      if (response.request().resourceType() === 'script' && (await response.text()).includes('VariableScope'))
        tryItScripts.push(response.url());
    });
    const page = await context.newPage();
    for (const route of ['/docs', '/specs/v3/create-order']) {
      await page.goto(site.url + route);
      await page.locator('html[data-has-hydrated="true"]').waitFor({ state: 'attached' });
      await page.waitForTimeout(1500);
      expect(tryItScripts, route).toEqual([]);
    }
    const panel = page.locator('.openapi-right-panel__container');
    expect(await panel.getByRole('button', { name: 'Send API Request' }).count()).toBe(0);
    await panel.scrollIntoViewIfNeeded();
    await panel.getByRole('button', { name: 'Send API Request' }).waitFor();
    expect(tryItScripts.length).toBeGreaterThan(0);
    await context.close();
  });

  test('the scripts of pages that visible links lead to are prefetched once the page is idle, so following one needs nothing more', async () => {
    const { context, page } = await open('/specs/v3/create-order');
    const next = page.locator('.pagination-nav__link--next');
    const target = new URL(String(await next.getAttribute('href')), site.url).pathname;
    // Prefetching waits for idle time after the page has started; the next page's own chunk comes with it.
    await page.waitForFunction(() => document.querySelectorAll('link[rel="prefetch"]').length > 0, undefined, { timeout: 15_000 });
    await page.waitForTimeout(1000);
    const prefetched = await page.$$eval('link[rel="prefetch"]', (links) => links.map((link) => (link as HTMLLinkElement).href));
    expect(
      prefetched.every((href) => /\/assets\/js\/[^/]+\.js$/.test(href)),
      prefetched.join('\n'),
    ).toBe(true);
    const requested: string[] = [];
    page.on('request', (request) => {
      if (request.resourceType() === 'script') requested.push(request.url());
    });
    await next.click();
    await page.waitForURL((url) => url.pathname === target);
    await page.locator('article h1').waitFor();
    expect(requested.length).toBeGreaterThan(0);
    expect(requested.filter((url) => !prefetched.includes(url))).toEqual([]);
    await context.close();
  });

  test('nothing is prefetched on a 2g or data-saver connection', async () => {
    for (const connection of [
      { effectiveType: '2g', saveData: false },
      { effectiveType: '4g', saveData: true },
    ]) {
      const context = await browser.newContext({ colorScheme: 'dark', viewport: { width: 1280, height: 900 } });
      await context.addInitScript((value) => Object.defineProperty(navigator, 'connection', { value, configurable: true }), connection);
      const page = await context.newPage();
      await page.goto(`${site.url}/specs/v3/create-order`);
      await page.locator('html[data-has-hydrated="true"]').waitFor({ state: 'attached' });
      // Past the links' coming into view and two idle periods: when prefetching would have run (the test above needs
      // 1 s). The idle waits are bounded, as every other wait here is: once, in a full run, this test ran into its 30 s.
      await page.waitForTimeout(1000);
      await page.evaluate(
        () => new Promise((resolve) => requestIdleCallback(() => requestIdleCallback(resolve, { timeout: 5000 }), { timeout: 5000 })),
      );
      expect(await page.locator('link[rel="prefetch"]').count(), JSON.stringify(connection)).toBe(0);
      await context.close();
    }
  });

  test('the main pages log no console error', async () => {
    const { context, page } = await open('/');
    const errors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(`${page.url()}: ${message.text()}`);
    });
    page.on('pageerror', (error) => errors.push(`${page.url()}: ${error.message}`));
    for (const route of [
      '/',
      '/docs',
      '/specs/v3/',
      '/specs/v3/create-order',
      '/specs/v3/orders',
      '/specs/v2/',
      '/specs/v2/add-order-v-2',
    ]) {
      await page.goto(site.url + route);
      await page.locator('html[data-has-hydrated="true"]').waitFor({ state: 'attached' });
      await page.waitForTimeout(500);
    }
    expect(errors).toEqual([]);
    await context.close();
  });
});

/** Elements under `selector` whose content is wider than their box: cut off, or behind a scroll bar. */
async function clipped(page: Page, selector: string): Promise<string[]> {
  return page
    .locator(selector)
    .evaluateAll((elements) =>
      elements.filter((element) => element.scrollWidth > element.clientWidth + 1).map((element) => element.outerHTML.slice(0, 120)),
    );
}

describe.each(['light', 'dark'] as const)('the Test scenarios page in %s mode', (colorScheme) => {
  test("at 390 px: a table of every scenario and one per road, built from the contract's catalogue, each scrolling in its own box", async () => {
    const { context, page } = await open('/docs/test-scenarios', { colorScheme, viewport: { width: 390, height: 844 } });
    expect(await page.locator('html').getAttribute('data-theme')).toBe(colorScheme);
    const tables = page.locator('article table');
    expect(await tables.count()).toBe(scenarios.length + 1);
    const summary = tables.first();
    expect(await summary.getAttribute('aria-label')).toBe('Test scenarios');
    expect(await summary.locator('tbody th[scope="row"]').allTextContents()).toEqual(scenarios.map((scenario) => scenario.title));
    for (const [index, scenario] of scenarios.entries()) {
      const road = tables.nth(index + 1);
      expect(await road.getAttribute('aria-label')).toBe(`The road of ${scenario.title}`);
      expect(await road.locator('tbody tr').count(), scenario.name).toBe(scenario.steps.length);
      expect(await road.locator('thead th[scope="col"]').first().textContent()).toBe('Step');
      // Its heading is the scenario's anchor, which the summary links to (the heading ends in the theme's hash link).
      expect((await page.locator(`h3#${scenario.name}`).textContent())?.replace(/\u200b/g, '')).toBe(scenario.title);
    }
    // Only the tables scroll sideways, and a keyboard can reach them to do so.
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth)).toBe(true);
    expect(await tables.evaluateAll((found) => found.filter((table) => table.tabIndex !== 0).length)).toBe(0);
    expect(await axeViolations(page, 'article')).toEqual([]);
    await context.close();
  });
});

describe.each([390, 996, 1280])('an operation page at %i px', (width) => {
  test('shows its code samples and try-it in full, stacked under the text below 997 px and beside it above', async () => {
    const { context, page } = await open('/specs/v3/create-order', { viewport: { width, height: 800 } });
    const text = page.locator('.openapi-left-panel__container');
    const panel = page.locator('.openapi-right-panel__container');
    // A reader reaches them by scrolling the page.
    await panel.scrollIntoViewIfNeeded();
    const tabs = panel.locator('.portal-code-samples').getByRole('tab');
    await tabs.first().waitFor();
    const [textBox, panelBox] = [await text.boundingBox(), await panel.boundingBox()];
    if (!textBox || !panelBox) throw new Error('no layout');
    if (width < 997) {
      expect(Math.round(panelBox.x)).toBe(Math.round(textBox.x));
      expect(panelBox.y).toBeGreaterThanOrEqual(textBox.y + textBox.height - 1);
    } else {
      expect(panelBox.x).toBeGreaterThanOrEqual(textBox.x + textBox.width - 1);
    }
    expect(panelBox.x + panelBox.width).toBeLessThanOrEqual(width);
    // Every tab label and every line of every sample is in view: nothing is cut at the panel's edge.
    expect(await tabs.allTextContents()).toEqual(['curl', 'JavaScript (fetch)', 'PHP (curl)', 'Python (requests)']);
    expect(await clipped(page, '.openapi-right-panel__container [role="tablist"], .openapi-right-panel__container [role="tab"]')).toEqual(
      [],
    );
    for (const label of ['curl', 'JavaScript (fetch)', 'PHP (curl)', 'Python (requests)']) {
      await panel.getByRole('tab', { name: label, exact: true }).click();
      await panel.locator('[role="tabpanel"]:not([hidden]) pre').first().waitFor();
      expect(await clipped(page, '.openapi-right-panel__container [role="tabpanel"]:not([hidden]) pre'), label).toEqual([]);
    }
    // The try-it's send button is reached by scrolling the page, not a box of its own.
    const send = panel.getByRole('button', { name: 'Send API Request' });
    await send.waitFor();
    await send.scrollIntoViewIfNeeded();
    const scrollingBoxes = await send.evaluate((button) => {
      const boxes: string[] = [];
      for (let element = button.parentElement; element && element !== document.body; element = element.parentElement) {
        const { overflowY } = getComputedStyle(element);
        if (/auto|scroll/.test(overflowY) && element.scrollHeight > element.clientHeight + 1) boxes.push(element.className);
      }
      return boxes;
    });
    expect(scrollingBoxes).toEqual([]);
    const sendBox = await send.boundingBox();
    expect(sendBox && sendBox.y >= 0 && sendBox.y + sendBox.height <= 800).toBe(true);
    // Nor does the page itself run wider than the screen.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    await context.close();
  });
});

describe('the try-it, served by a sandbox', () => {
  let sandbox: PortalSandbox;

  beforeAll(async () => {
    sandbox = await startPortalSandbox();
    await createClient(sandbox.database.db, { username: 'try-it-shop', password: 'try-it-password' });
  });

  afterAll(async () => {
    await sandbox?.close();
  });

  test('the token form starts with grant_type=password, as its default says, and answers a token once signed in', async () => {
    const context = await browser.newContext({ colorScheme: 'dark', viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await page.goto(`${sandbox.url}/specs/v3/request-token`);
    const panel = page.locator('.openapi-right-panel__container');
    await panel.scrollIntoViewIfNeeded();
    const field = (name: string) => panel.getByRole('textbox', { name, exact: true });
    await field('grant_type').waitFor();
    expect(await field('grant_type').inputValue()).toBe('password');
    await field('username').fill('try-it-shop');
    await field('password').fill('try-it-password');
    await panel.getByRole('button', { name: 'Send API Request' }).click();
    await expect
      .poll(() => panel.locator('.openapi-explorer__response-container').innerText(), { timeout: 15_000 })
      .toContain('access_token');
    await context.close();
  });
});

describe('front door', () => {
  test("the home page shows a copyable first call with the page's origin, and task cards", async () => {
    const { context, page } = await open('/');
    const firstCall = page.locator('pre').first();
    await expect.poll(() => firstCall.innerText()).toContain(`${site.url}/token`);
    // The copy button is the app's: it appears once the app has started after the first paint.
    await page.getByRole('button', { name: /copy/i }).first().waitFor();
    await page.getByRole('link', { name: /Send an order/ }).click();
    await page.waitForURL(`${site.url}/specs/v3/create-order`);
    await context.close();
  });

  test.each([
    [390, 1],
    [996, 2],
    [1280, 3],
  ])('at %i px the home page shows its first call uncut and its six cards in full rows of %i', async (width, perRow) => {
    const { context, page } = await open('/', { viewport: { width, height: 900 } });
    const firstCall = page.locator('pre').first();
    await expect.poll(() => firstCall.innerText()).toContain(`${site.url}/token`);
    expect(await clipped(page, 'main pre')).toEqual([]);
    const cards = await page
      .locator('main ul > li')
      .evaluateAll((items) => items.map((item) => Math.round(item.getBoundingClientRect().top)));
    expect(cards).toHaveLength(6);
    const rows = [...new Set(cards)].map((top) => cards.filter((card) => card === top).length);
    expect(rows).toEqual(Array(6 / perRow).fill(perRow));
    await context.close();
  });

  test("labels are the specification's in the navigation and for tags, and spelt one way everywhere else", async () => {
    const { context, page } = await open('/');
    const navigation = await page.locator('.navbar__items:not(.navbar__items--right) .dropdown__menu a').allTextContents();
    expect(navigation).toEqual(['Get started', 'Documentation', 'ShopApi v3', 'ShopApi v2 legacy']);
    expect(await page.locator('.footer a').allTextContents()).toEqual(
      expect.arrayContaining(['Get started', 'ShopApi v3', 'ShopApi v2 legacy']),
    );
    // Outside the navbar, the footer and the tags, the product is the Shop API and the guide is "Get started".
    for (const route of [
      '/',
      '/docs',
      '/docs/get-started/',
      '/docs/shopapi/v3/',
      '/specs/v3/',
      '/specs/v2/',
      '/specs/v3/create-order',
      '/no/such/page',
    ]) {
      await page.goto(site.url + route);
      const text = await page.locator('body').evaluate((body) => {
        const copy = body.cloneNode(true) as HTMLElement;
        for (const element of copy.querySelectorAll('.navbar, .footer, a[href^="/docs/tags/"]')) element.remove();
        return copy.textContent ?? '';
      });
      expect(text, route).not.toMatch(/ShopApi|Shop Api|ShopAPI|Get Started/);
    }
    await context.close();
  });

  test('the not-found page offers search and the main links', async () => {
    const { context, page } = await open('/no/such/page');
    expect(await page.locator('main input.navbar__search-input').count()).toBe(1);
    for (const target of ['/docs', '/docs/get-started/', '/specs/v3/', '/specs/v2/'])
      expect(await page.locator(`main a[href="${target}"]`).count(), target).toBe(1);
    await context.close();
  });

  test('the provider link is no placeholder and the references carry no placeholder licence', async () => {
    const { context, page } = await open('/specs/v3/');
    const provider = page.locator('.navbar a', { hasText: 'Fulfilment website' });
    expect(await provider.getAttribute('href')).not.toMatch(/example\.com/);
    expect(await page.locator('main').innerText()).not.toMatch(/LicenseRef|License:/);
    await context.close();
  });
});

describe('page chrome', () => {
  test('skip link, footer groups, copyright 2025 and the docs version dropdown are there', async () => {
    const { context, page } = await open('/docs');
    await expect.poll(() => page.locator('a[href="#__docusaurus_skipToContent_fallback"]').count()).toBe(1);
    const footerTitles = await page.locator('.footer__title').allTextContents();
    expect(footerTitles).toEqual(['Support', 'Specifications', 'More']);
    expect(await page.locator('.footer__copyright').textContent()).toContain('2025');
    expect(await page.locator('.navbar__items--right .dropdown > .navbar__link').textContent()).toBe('v3 (current)');
    expect(await page.title()).toBe('Shop API documentation | Shop API');
    await context.close();
  });

  test('each navbar dropdown opens and leads where it should', async () => {
    const { context, page } = await open('/');
    const cases: [string, string, string][] = [
      ['Documentation', 'Get started', '/docs/get-started/'],
      ['Documentation', 'Documentation', '/docs'],
      ['Specifications', 'ShopApi v3', '/specs/v3/'],
      ['Specifications', 'ShopApi v2 legacy', '/specs/v2/'],
    ];
    for (const [dropdown, item, target] of cases) {
      await page.goto(`${site.url}/`);
      const container = page.locator('.navbar__item.dropdown', { has: page.getByRole('button', { name: dropdown, exact: true }) });
      await container.hover();
      const link = container.locator('.dropdown__menu').getByRole('link', { name: item, exact: true });
      await link.waitFor({ state: 'visible' });
      await link.click();
      await page.waitForURL(site.url + target);
    }
    await context.close();
  });

  test('the navbar hides on scrolling down and returns on scrolling up', async () => {
    const { context, page } = await open('/docs/shopapi/v3/general-concepts/jsonapi');
    const navbarTop = async () => (await page.locator('nav.navbar').boundingBox())?.y ?? 0;
    await page.mouse.move(640, 450);
    // Keep scrolling while waiting: the navbar reacts to scroll events, and one burst may land before it listens.
    await expect
      .poll(async () => {
        await page.mouse.wheel(0, 300);
        return navbarTop();
      })
      .toBeLessThan(0);
    // Back in view: at the top of the viewport, or below the announcement bar once the page top is reached.
    await expect
      .poll(async () => {
        await page.mouse.wheel(0, -200);
        return navbarTop();
      })
      .toBeGreaterThanOrEqual(0);
    await context.close();
  });

  test('at 800 px the sidebar is a slide-in menu', async () => {
    const { context, page } = await open('/docs/get-started/', { viewport: { width: 800, height: 900 } });
    expect(await page.locator('.theme-doc-sidebar-container').isVisible()).toBe(false);
    await page.getByRole('button', { name: 'Toggle navigation bar' }).click();
    const menu = page.locator('.navbar-sidebar');
    const link = menu.getByRole('link', { name: 'Run the sandbox' });
    await link.waitFor({ state: 'visible' });
    await link.click();
    await page.waitForURL(`${site.url}/docs/sandbox`);
    await expect.poll(() => menu.isVisible()).toBe(false);
    await context.close();
  });

  test("with no stored choice, the colour mode is the system's: light for light, dark for dark", async () => {
    for (const colorScheme of ['light', 'dark'] as const) {
      const { context, page } = await open('/docs', { colorScheme });
      const html = page.locator('html');
      expect([await html.getAttribute('data-theme'), await html.getAttribute('data-theme-choice')], colorScheme).toEqual([
        colorScheme,
        'system',
      ]);
      await context.close();
    }
  });

  test('a system that states no preference, or a page read without scripts, is dark', async () => {
    const context = await browser.newContext({ colorScheme: 'light', viewport: { width: 1280, height: 900 } });
    // Browsers answer light when the reader has no preference; this one answers neither light nor dark.
    await context.addInitScript(() => {
      const matchMedia = window.matchMedia.bind(window);
      window.matchMedia = (query: string) => matchMedia(query.includes('prefers-color-scheme') ? 'not all' : query);
    });
    const page = await context.newPage();
    await page.goto(`${site.url}/docs`);
    expect(await page.locator('html').getAttribute('data-theme')).toBe('dark');
    await context.close();
    const withoutScripts = await browser.newContext({ colorScheme: 'light', javaScriptEnabled: false });
    const plain = await withoutScripts.newPage();
    await plain.goto(`${site.url}/docs`);
    expect(await plain.locator('html').getAttribute('data-theme')).toBe('dark');
    await withoutScripts.close();
  });

  test('a choice made with the switch wins over the system and survives a reload; the switch cycles light, dark, system', async () => {
    const { context, page } = await open('/docs', { colorScheme: 'dark' });
    const html = page.locator('html');
    const mode = async () => [await html.getAttribute('data-theme'), await html.getAttribute('data-theme-choice')];
    const toggle = page.locator('.navbar button[class*="toggleButton"]');
    await toggle.click();
    expect(await mode()).toEqual(['light', 'light']);
    await page.reload();
    expect(await mode()).toEqual(['light', 'light']);
    await page.locator('html[data-has-hydrated="true"]').waitFor({ state: 'attached' });
    await toggle.click();
    expect(await mode()).toEqual(['dark', 'dark']);
    await page.emulateMedia({ colorScheme: 'light' });
    await page.reload();
    expect(await mode()).toEqual(['dark', 'dark']);
    await page.locator('html[data-has-hydrated="true"]').waitFor({ state: 'attached' });
    await toggle.click();
    expect(await mode()).toEqual(['light', 'system']);
    await context.close();
  });

  test('the announcement bar stays dismissed after a reload', async () => {
    const { context, page } = await open('/docs');
    const bar = page.locator('.theme-announcement-bar');
    await bar.waitFor({ state: 'visible' });
    await bar.getByRole('button', { name: 'Close' }).click();
    await bar.waitFor({ state: 'detached' });
    await page.reload();
    await page.locator('h1').first().waitFor();
    // The server-rendered page still holds the bar, hidden from the first paint by the theme's inline script; the app
    // removes it once it has started.
    expect(await bar.isVisible()).toBe(false);
    await bar.waitFor({ state: 'detached' });
    await context.close();
  });
});

describe('search', () => {
  test('finds the pagination guide', async () => {
    const { context, page } = await open('/docs');
    await searchAndOpen(page, 'pagination', 'Pagination', /\/docs\/shopapi\/v3\/general-concepts\/pagination/);
    await context.close();
  });

  test('finds an operation page of the reference', async () => {
    const { context, page } = await open('/specs/v3/');
    // The result link carries the search terms to highlight (?_highlight=...).
    await searchAndOpen(page, 'Create an order', 'Create an order', (url) => url.pathname === '/specs/v3/create-order');
    await context.close();
  });
});
