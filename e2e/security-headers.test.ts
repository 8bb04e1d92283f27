// The portal as the sandbox serves it, with its security headers, in Debian's Chromium: no page breaks its
// Content-Security-Policy (no violation, no console error), and on a fresh sandbox the reference's try-it works as
// sent from the operation pages: a token, a product, an order (with the demo client's products) and reading it back.
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import { launchChromium, searchAndOpen } from './browser.ts';
import { type LiveSandbox, startLiveSandbox } from './live-sandbox.ts';

const pages = [
  '/',
  '/docs',
  '/docs/get-started/steps/authenticating',
  '/specs/v3/',
  '/specs/v3/create-order',
  '/specs/v2/',
  '/docs/tags/pagination',
  '/docs/no-such-page',
];

let sandbox: LiveSandbox | undefined;
let baseUrl = '';
let browser: Browser;

beforeAll(async () => {
  [sandbox, browser] = await Promise.all([startLiveSandbox(), launchChromium()]);
  baseUrl = sandbox.baseUrl;
});

afterAll(async () => {
  await browser?.close();
  await sandbox?.stop();
});

/** A page that records CSP violations (the DOM event) and console errors (Chromium also reports violations there). */
async function watchedPage(): Promise<{ page: Page; problems: string[]; close: () => Promise<void> }> {
  const context = await browser.newContext();
  await context.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      console.error(
        `securitypolicyviolation: ${event.violatedDirective} blocked ${event.blockedURI || 'inline'} (${event.sourceFile}:${event.lineNumber})`,
      );
    });
  });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() !== 'error') return;
    // The not-found page's own 404 status is reported as a failed load: that one is expected.
    if (message.location().url === page.url() && /status of 404/.test(message.text())) return;
    problems.push(`${page.url()}: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`${page.url()}: ${error.message}`));
  return { page, problems, close: () => context.close() };
}

test("the portal's pages load under their Content-Security-Policy without a violation", async () => {
  const { page, problems, close } = await watchedPage();
  for (const route of pages) {
    const response = await page.goto(baseUrl + route);
    expect(response?.status(), route).toBe(route.includes('no-such-page') ? 404 : 200);
    const headers = response!.headers();
    expect(headers['content-security-policy'], route).toMatch(/script-src 'self' 'sha256-/);
    expect(headers['content-security-policy'], route).toMatch(/frame-ancestors 'none'/);
    expect(headers['x-content-type-options'], route).toBe('nosniff');
    await page.locator('html[data-has-hydrated="true"]').waitFor({ state: 'attached' });
    // The colour-mode bootstrap ran (an inline script, allowed by its hash).
    expect(await page.locator('html').getAttribute('data-theme'), route).toMatch(/^(light|dark)$/);
  }
  // Client-side navigation loads further chunks and styles (the reference's theme) after the first page.
  await page.goto(`${baseUrl}/docs`);
  await page.locator('html[data-has-hydrated="true"]').waitFor({ state: 'attached' });
  await page.evaluate(() => (document.querySelector('a[href="/specs/v3/"]') as HTMLAnchorElement).click());
  await expect.poll(() => page.locator('h1').first().textContent()).toMatch('Shop API v3');
  await page.waitForTimeout(1000);
  await close();
  expect(problems).toEqual([]);
}, 120_000);

test('site search works under the CSP', async () => {
  const { page, problems, close } = await watchedPage();
  await page.goto(`${baseUrl}/docs`);
  await page.locator('html[data-has-hydrated="true"]').waitFor({ state: 'attached' });
  await searchAndOpen(page, 'pagination', 'Pagination', /\/docs\/shopapi\/v3\/general-concepts\/pagination/);
  await close();
  expect(problems).toEqual([]);
}, 60_000);

/** Opens an operation page and returns its try-it panel once the explorer is there. */
async function operationPage(page: Page, route: string) {
  await page.goto(baseUrl + route);
  await page.locator('html[data-has-hydrated="true"]').waitFor({ state: 'attached' });
  const panel = page.locator('.openapi-right-panel__container');
  await panel.getByRole('button', { name: 'Send API Request' }).waitFor();
  return panel;
}

/** Sends the panel's request as it stands and returns the status and body of the answer. */
async function send(panel: Locator): Promise<{ status: number; body: string }> {
  const response = panel
    .page()
    .waitForResponse((answer) => answer.request().resourceType() === 'fetch' && new URL(answer.url()).origin === baseUrl);
  await panel.getByRole('button', { name: 'Send API Request' }).click();
  const answer = await response;
  return { status: answer.status(), body: await answer.text() };
}

test('on a fresh sandbox the try-it gets a token, creates a product and an order, and reads the order back', async () => {
  const password = /password: (\S+)/.exec(sandbox?.output() ?? '')?.[1];
  expect(password, "npm start prints the demo client's password").toBeTruthy();
  const { page, problems, close } = await watchedPage();
  const remote: string[] = [];
  page.on('request', (request) => {
    if (new URL(request.url()).hostname !== '127.0.0.1') remote.push(request.url());
  });

  let panel = await operationPage(page, '/specs/v3/request-token');
  await panel.locator('input[name="grant_type"]').fill('password');
  await panel.locator('input[name="username"]').fill('demo');
  await panel.locator('input[name="password"]').fill(password!);
  expect((await send(panel)).status).toBe(200);

  // The token carries to the other operation pages.
  panel = await operationPage(page, '/specs/v3/create-product');
  expect(await panel.locator('input[type="password"]').inputValue()).not.toBe('');
  expect((await send(panel)).status).toBe(201);

  panel = await operationPage(page, '/specs/v3/create-order');
  const created = await send(panel);
  expect(created.status, created.body).toBe(201);
  const order = JSON.parse(created.body) as { data: { id: number; attributes: { externalOrderNumber: string } } };
  // A second send works too: the example's externalOrderNumber is fresh after each created order.
  await page.waitForTimeout(500);
  expect((await send(panel)).status).toBe(201);

  panel = await operationPage(page, '/specs/v3/get-order');
  await panel.locator('input[name="id"]').fill(String(order.data.id));
  const read = await send(panel);
  expect(read.status).toBe(200);
  expect(JSON.parse(read.body).data.attributes.externalOrderNumber).toBe(order.data.attributes.externalOrderNumber);

  await close();
  expect(problems).toEqual([]);
  expect(remote).toEqual([]);
}, 90_000);
