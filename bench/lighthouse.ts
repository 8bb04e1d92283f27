// Lighthouse (mobile and desktop, dark and light) over the built portal's /docs, the v3 reference's index and an operation
// page, served as `npm start` serves them (the sandbox's server, compression on); recorded in bench/RESULTS.md between
// this benchmark's markers. Run with `npm run bench:lighthouse`.
import { execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { buildApp } from '../server/src/app.ts';
import { loadConfig } from '../server/src/config.ts';
import { openDatabase } from '../server/src/platform/db/index.ts';
import { writeSection } from './results-file.ts';

const repository = path.resolve(import.meta.dirname, '..');
const routes = ['/docs', '/specs/v3/', '/specs/v3/create-order'];
// The portal is dark unless the reader picks light; the query string sets light, as the navbar switch would.
const runs = [
  { formFactor: 'mobile', mode: 'dark' },
  { formFactor: 'mobile', mode: 'light' },
  { formFactor: 'desktop', mode: 'dark' },
] as const;
const categories = ['performance', 'accessibility', 'best-practices', 'seo'];
const begin = '<!-- lighthouse:begin -->';
const end = '<!-- lighthouse:end -->';

execFileSync('node', [path.join(repository, 'scripts', 'ensure-portal-build.mjs')], { stdio: 'inherit' });
const database = await openDatabase({ inMemory: true });
const app = await buildApp({ db: database.db, config: loadConfig({ logLevel: 'silent' }), logger: false });
await app.listen({ host: '127.0.0.1', port: 0 });
const site = { url: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}` };
const work = mkdtempSync(path.join(tmpdir(), 'lighthouse-'));
const rows: string[] = [];
try {
  for (const route of routes) {
    for (const { formFactor, mode } of runs) {
      const report = path.join(work, 'report.json');
      console.log(`Lighthouse ${formFactor} ${mode} ${route}`);
      // Asynchronous, so that this process keeps serving the pages Lighthouse asks for.
      await promisify(execFile)(
        'npx',
        [
          'lighthouse',
          `${site.url}${route}${mode === 'light' ? '?docusaurus-theme=light' : ''}`,
          '--quiet',
          '--output=json',
          `--output-path=${report}`,
          `--only-categories=${categories.join(',')}`,
          `--chrome-flags=--headless --no-sandbox --disable-gpu --disable-background-networking --disable-component-update --disable-sync --no-first-run --user-data-dir=${path.join(work, 'profile')}`,
          ...(formFactor === 'desktop' ? ['--preset=desktop'] : []),
        ],
        { cwd: repository, env: { ...process.env, CHROME_PATH: process.env.CHROME_PATH ?? '/usr/bin/chromium' } },
      );
      const lhr = JSON.parse(readFileSync(report, 'utf8')) as {
        categories: Record<string, { score: number }>;
        audits: Record<string, { numericValue?: number }>;
      };
      const scores = categories.map((category) => Math.round(lhr.categories[category].score * 100));
      const lcp = ((lhr.audits['largest-contentful-paint'].numericValue ?? 0) / 1000).toFixed(1);
      const tbt = Math.round(lhr.audits['total-blocking-time'].numericValue ?? 0);
      rows.push(`| \`${route}\` | ${formFactor} | ${mode} | ${scores.join(' | ')} | ${lcp} s | ${tbt} ms |`);
    }
  }
} finally {
  await app.close();
  await database.close();
  rmSync(work, { recursive: true, force: true });
}

const section = [
  begin,
  '## Portal: Lighthouse',
  '',
  `Lighthouse 12 with Debian's Chromium (headless) against the built portal as \`npm start\` serves it (the sandbox's server, br/gzip compression); ${new Date().toISOString().slice(0, 10)}, Node ${process.version}, ${(await import('node:os')).cpus().length} cores. Mobile uses Lighthouse's default throttling (slow 4G, 4x CPU); desktop uses its desktop preset. Light mode is set with \`?docusaurus-theme=light\` (the portal is dark by default). One run each: scores move by about ±10 on a busy 2-core machine.`,
  '',
  '| Page | Form factor | Mode | Performance | Accessibility | Best practices | SEO | LCP | TBT |',
  '|---|---|---|---|---|---|---|---|---|',
  ...rows,
  end,
].join('\n');

writeSection(begin, end, section);
console.log(section);
