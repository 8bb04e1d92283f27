// Lighthouse over the built portal's /docs, the v3 reference's index and an operation page (mobile and desktop, dark and
// light), and over every screen of the sandbox console signed in (dark and light), served as `npm start` serves them
// (the sandbox's server, compression on); recorded in bench/RESULTS.md between this benchmark's markers. Run with
// `npm run bench:lighthouse`; LIGHTHOUSE_ONLY=portal or LIGHTHOUSE_ONLY=console runs one part and leaves the other's
// table as it was; LIGHTHOUSE_REPEAT (default 3) is how many times each portal page is measured.
import { execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import lighthouse from 'lighthouse';
import puppeteer from 'puppeteer-core';
import { buildApp } from '../server/src/app.ts';
import { loadConfig } from '../server/src/config.ts';
import { openDatabase } from '../server/src/platform/db/index.ts';
import { chromiumFlags } from '../e2e/browser.ts';
import { JSONAPI, orderDocument, seedClient, seedOrders } from './lib.ts';
import { writeSection } from './results-file.ts';

const repository = path.resolve(import.meta.dirname, '..');
const only = process.env.LIGHTHOUSE_ONLY;
const repeat = Number(process.env.LIGHTHOUSE_REPEAT ?? 3);
const chromium = process.env.CHROME_PATH ?? '/usr/bin/chromium';

const portalRoutes = ['/docs', '/specs/v3/', '/specs/v3/create-order'];
// The portal follows the system's colour mode, and Lighthouse's Chromium says light: the query string sets the mode, as
// the navbar switch would.
const portalRuns = [
  { formFactor: 'mobile', mode: 'dark' },
  { formFactor: 'mobile', mode: 'light' },
  { formFactor: 'desktop', mode: 'dark' },
] as const;
const portalCategories = ['performance', 'accessibility', 'best-practices', 'seo'];
const consoleCategories = ['accessibility', 'best-practices'];

interface Report {
  categories: Record<string, { score: number | null }>;
  audits: Record<string, { numericValue?: number; score?: number | null; title?: string }>;
}
const score = (report: Report, category: string) => Math.round((report.categories[category].score ?? 0) * 100);
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
/** The audits of a category that did not pass, for a table's last column. */
const failing = (report: Report, ids: string[]) =>
  ids
    .map((id) => report.audits[id])
    .filter((audit) => audit && audit.score !== null && audit.score !== undefined && audit.score < 1)
    .map((audit) => audit.title);

execFileSync('node', [path.join(repository, 'scripts', 'ensure-portal-build.mjs')], { stdio: 'inherit' });
const database = await openDatabase({ inMemory: true });
const app = await buildApp({ db: database.db, config: loadConfig({ logLevel: 'silent' }), logger: false });
await app.listen({ host: '127.0.0.1', port: 0 });
const site = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
const work = mkdtempSync(path.join(tmpdir(), 'lighthouse-'));
const environment = `${new Date().toISOString().slice(0, 10)}, Node ${process.version}, ${cpus().length} cores, Chromium ${execFileSync(
  chromium,
  ['--version'],
  { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] },
)
  .trim()
  .replace(/^Chromium /, '')}`;

/** Runs Lighthouse could not record and made again, for the table. */
let retries = 0;

/**
 * One Lighthouse run of the CLI over `url`, in a new browser profile. Asynchronous, so that this process keeps serving
 * the pages it asks for. Lighthouse now and then fails to record the trace of a load ("NO_NAVSTART ... run Lighthouse
 * again"); such a run is made again, at most twice, and the retries are counted in the table.
 */
async function cliRun(url: string, formFactor: 'mobile' | 'desktop', attempt = 1): Promise<Report> {
  const report = path.join(work, 'report.json');
  const profile = path.join(work, `profile-${attempt}`);
  rmSync(profile, { recursive: true, force: true });
  try {
    await promisify(execFile)(
      'npx',
      [
        'lighthouse',
        url,
        '--quiet',
        '--output=json',
        `--output-path=${report}`,
        `--only-categories=${portalCategories.join(',')}`,
        `--chrome-flags=${chromiumFlags.join(' ')} --user-data-dir=${profile}`,
        ...(formFactor === 'desktop' ? ['--preset=desktop'] : []),
      ],
      { cwd: repository, env: { ...process.env, CHROME_PATH: chromium } },
    );
  } catch (error) {
    const message = String((error as { stderr?: string }).stderr ?? error);
    if (attempt >= 3 || !/run Lighthouse again/i.test(message)) throw error;
    console.log(`  Lighthouse asked to be run again (${message.trim().split('\n')[0]})`);
    retries++;
    return cliRun(url, formFactor, attempt + 1);
  }
  return JSON.parse(readFileSync(report, 'utf8')) as Report;
}

async function portalSection(): Promise<string> {
  const rows: string[] = [];
  for (const route of portalRoutes) {
    for (const { formFactor, mode } of portalRuns) {
      const reports: Report[] = [];
      for (let run = 0; run < repeat; run++) {
        console.log(`Lighthouse ${formFactor} ${mode} ${route} (${run + 1} of ${repeat})`);
        reports.push(await cliRun(`${site}${route}?docusaurus-theme=${mode}`, formFactor));
      }
      // The run with the median performance score stands for the page: its other scores and timings are its own.
      const performances = reports.map((r) => score(r, 'performance'));
      const chosen = reports[performances.indexOf(median(performances))];
      const lcp = ((chosen.audits['largest-contentful-paint'].numericValue ?? 0) / 1000).toFixed(1);
      const tbt = Math.round(chosen.audits['total-blocking-time'].numericValue ?? 0);
      rows.push(
        `| \`${route}\` | ${formFactor} | ${mode} | **${score(chosen, 'performance')}** (${performances.join(', ')}) | ${portalCategories
          .slice(1)
          .map((category) => score(chosen, category))
          .join(' | ')} | ${lcp} s | ${tbt} ms |`,
      );
    }
  }
  return [
    '<!-- lighthouse:begin -->',
    '## Portal: Lighthouse',
    '',
    `\`npm run bench:lighthouse\`: Lighthouse 12 with Debian's Chromium (headless) against the built portal as \`npm start\` serves it (the sandbox's server: pages, scripts and stylesheets precompressed with Brotli at build time, the rest compressed as sent); ${environment}. Mobile uses Lighthouse's default throttling (simulated slow 4G, 4x CPU slowdown); desktop its desktop preset. The colour mode is set with \`?docusaurus-theme=dark\` or \`=light\`. Each row is measured ${repeat} times: the performance column gives the median and, in brackets, every run; the other columns are those of the median run. Runs Lighthouse could not record and made again: ${retries}.`,
    '',
    '| Page | Form factor | Mode | Performance (runs) | Accessibility | Best practices | SEO | LCP | TBT |',
    '|---|---|---|---|---|---|---|---|---|',
    ...rows,
    '<!-- lighthouse:end -->',
  ].join('\n');
}

/** A client with orders and their shipments, a packing slip, a webhook and some requests in its log; its session. */
async function consoleClient() {
  const client = await seedClient(database.db, `lighthouse_${Date.now().toString(36)}`);
  await seedOrders(database.db, client, 12, { shipments: true });
  const token = await app.inject({
    method: 'POST',
    url: '/token',
    payload: { grant_type: 'password', username: client.username, password: client.password },
  });
  if (token.statusCode !== 200) throw new Error(`POST /token: ${token.statusCode} ${token.body}`);
  const { access_token: accessToken, expires_in: expiresIn } = token.json() as { access_token: string; expires_in: number };
  const call = async (method: 'GET' | 'POST', url: string, body?: unknown) => {
    const answer = await app.inject({
      method,
      url,
      headers: { authorization: `Bearer ${accessToken}`, accept: JSONAPI, ...(body ? { 'content-type': JSONAPI } : {}) },
      ...(body ? { payload: JSON.stringify(body) } : {}),
    });
    if (answer.statusCode >= 300) throw new Error(`${method} ${url}: ${answer.statusCode} ${answer.body}`);
    return answer.json() as { data: { id: number } };
  };
  const order = await call('POST', '/v3/orders', orderDocument(client, `LIGHTHOUSE-${Date.now().toString(36)}`));
  const slip = await call('POST', '/v3/inboundPackingSlips', {
    data: { type: 'inboundPackingSlip', attributes: { expectedIn: client.warehouse, reference: 'LIGHTHOUSE-SLIP' } },
    included: [{ type: 'inboundPackingSlipItem', attributes: { sku: client.skus[0], quantity: 10 } }],
  });
  const webhook = await call('POST', '/v3/webhooks', {
    data: { type: 'webhook', attributes: { entity: 'shipment', event: 'shipment.shipped.3', targetUrl: 'https://shop.example.com/hooks' } },
  });
  // A failed call, so the request log holds an error to open.
  await app.inject({ method: 'GET', url: '/v3/orders/999999999', headers: { authorization: `Bearer ${accessToken}`, accept: JSONAPI } });
  const session = { token: accessToken, username: client.username, expiresAt: Date.now() + expiresIn * 1000 };
  return { session, orderId: order.data.id, slipId: slip.data.id, webhookId: webhook.data.id };
}

/** Runs of console screens that lost their tab or browser and were made again, for the section's text. */
let consoleRetries = 0;

/**
 * How puppeteer and Lighthouse say that a run lost its tab or its browser: a command sent to a tab whose DevTools
 * session is gone ("Session closed. Most likely the page has been closed", "Target closed", "Connection closed"), a
 * crashed tab, or a page Lighthouse could not load or that stopped answering (a run then returns no scores at all).
 */
const lostTab = /Session closed|Target closed|Connection closed|TARGET_CRASHED|PAGE_HUNG|NO_FCP|NO_NAVSTART/;

/**
 * One Lighthouse run over a console screen, in a browser of its own, with the console's storage set before its scripts
 * run: the tab's session (`stored`; none on the sign-in screen) and the colour mode it shares with the portal. All the
 * screens once shared one browser, so that a tab or browser lost once (Lighthouse's protocol error "Session closed. Most
 * likely the page has been closed") ended the whole table. Such a run is made again in a new browser, at most twice, and
 * counted in the text. That error need not even reach the caller: Lighthouse's target manager sends its first commands to
 * a newly attached target from an event listener and rethrows there every error but "Target closed", while puppeteer 24
 * words a command to a target already gone "Session closed"; a rejection no caller holds is taken as the run's own.
 */
async function consoleRun(
  url: string,
  stored: string | null,
  colourMode: 'dark' | 'light',
): Promise<Report & { finalDisplayedUrl: string }> {
  for (let attempt = 1; ; attempt++) {
    const browser = await puppeteer.launch({
      executablePath: chromium,
      headless: true,
      args: chromiumFlags.filter((flag) => flag !== '--headless'),
    });
    let escaped: (reason: unknown) => void = () => undefined;
    const lost = new Promise<never>((_, reject) => {
      escaped = reject;
    });
    process.on('unhandledRejection', escaped);
    try {
      const page = await browser.newPage();
      await page.evaluateOnNewDocument(
        (session: string | null, mode: string) => {
          if (location.protocol !== 'http:') return;
          if (session) sessionStorage.setItem('shopapi-console-session', session);
          localStorage.setItem('theme', mode);
        },
        stored,
        colourMode,
      );
      const result = await Promise.race([
        lighthouse(
          url,
          { output: 'json', onlyCategories: consoleCategories, disableStorageReset: true, logLevel: 'error' },
          undefined,
          page,
        ),
        lost,
      ]);
      if (!result) throw new Error(`Lighthouse gave no result for ${url}`);
      const runtimeError = (result.lhr as { runtimeError?: { code: string; message: string } }).runtimeError;
      if (runtimeError) throw new Error(`${runtimeError.code}: ${runtimeError.message}`);
      return result.lhr as unknown as Report & { finalDisplayedUrl: string };
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      if (attempt >= 3 || !lostTab.test(message)) throw error;
      console.log(`  the run lost its tab or browser (${message.split('\n')[0]}); made again in a new browser`);
      consoleRetries++;
    } finally {
      process.off('unhandledRejection', escaped);
      await browser.close().catch(() => undefined);
    }
  }
}

async function consoleSection(): Promise<string> {
  const { session, orderId, slipId, webhookId } = await consoleClient();
  const screens = [
    '/console/sign-in',
    '/console/orders',
    `/console/orders/${orderId}`,
    '/console/shipments',
    '/console/requests',
    '/console/inbound',
    `/console/inbound/packing-slips/${slipId}`,
    '/console/stock',
    '/console/webhooks',
    `/console/webhooks/${webhookId}`,
    '/console/clock',
    '/console/settings',
  ];
  const rows: string[] = [];
  for (const screen of screens) {
    for (const mode of ['dark', 'light'] as const) {
      console.log(`Lighthouse console ${mode} ${screen}`);
      const report = await consoleRun(`${site}${screen}`, screen.endsWith('/sign-in') ? null : JSON.stringify(session), mode);
      // A signed-in screen that sent the browser back to sign-in would measure the wrong page.
      if (!screen.endsWith('/sign-in') && report.finalDisplayedUrl.includes('/sign-in')) {
        throw new Error(`${screen} went to ${report.finalDisplayedUrl}`);
      }
      const problems = failing(report, Object.keys(report.audits));
      rows.push(
        `| \`${screen.replace(/\/\d+$/, '/{id}')}\` | ${mode} | ${consoleCategories.map((category) => score(report, category)).join(' | ')} | ${problems.join('; ') || 'none'} |`,
      );
    }
  }
  return [
    '<!-- lighthouse-console:begin -->',
    '## Console: Lighthouse',
    '',
    `\`npm run bench:lighthouse\` (LIGHTHOUSE_ONLY=console for this table alone): Lighthouse 12's accessibility and best-practices audits over every screen of the sandbox console at /console/, as \`npm start\` serves it, signed in as a client with orders, shipments, a packing slip, a webhook and a failed request in its log (the sign-in screen signed out); mobile emulation; ${environment}. The tab's session and the colour mode are put in the page's storage before its scripts run, as signing in and the switch would. Each screen is measured in a browser of its own; runs that lost their tab or browser and were made again: ${consoleRetries}.`,
    '',
    '| Screen | Mode | Accessibility | Best practices | Audits not passed |',
    '|---|---|---|---|---|',
    ...rows,
    '<!-- lighthouse-console:end -->',
  ].join('\n');
}

try {
  if (only !== 'console') {
    const section = await portalSection();
    writeSection('<!-- lighthouse:begin -->', '<!-- lighthouse:end -->', section);
    console.log(section);
  }
  if (only !== 'portal') {
    const section = await consoleSection();
    // The first time: right after the portal's table.
    writeSection('<!-- lighthouse-console:begin -->', '<!-- lighthouse-console:end -->', section, (text) =>
      text.replace('<!-- lighthouse:end -->', `<!-- lighthouse:end -->\n\n${section}`),
    );
    console.log(section);
  }
} finally {
  await app.close();
  await database.close();
  rmSync(work, { recursive: true, force: true });
}
