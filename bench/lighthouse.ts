// Lighthouse (mobile and desktop) over the built portal's /docs and /specs/v3/, recorded in
// bench/RESULTS.md between this benchmark's markers. Run with `npm run bench:lighthouse`.
import {execFile, execFileSync} from 'node:child_process';
import {promisify} from 'node:util';
import {mkdtempSync, readFileSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {servePortal} from '../e2e/static-server.ts';
import {writeSection} from './results-file.ts';

const repository = path.resolve(import.meta.dirname, '..');
const routes = ['/docs', '/specs/v3/'];
const formFactors = ['mobile', 'desktop'] as const;
const categories = ['performance', 'accessibility', 'best-practices', 'seo'];
const begin = '<!-- lighthouse:begin -->';
const end = '<!-- lighthouse:end -->';

execFileSync('node', [path.join(repository, 'scripts', 'ensure-portal-build.mjs')], {stdio: 'inherit'});
const site = await servePortal(path.join(repository, 'portal', 'build'));
const work = mkdtempSync(path.join(tmpdir(), 'lighthouse-'));
const rows: string[] = [];
try {
  for (const route of routes) {
    for (const formFactor of formFactors) {
      const report = path.join(work, 'report.json');
      console.log(`Lighthouse ${formFactor} ${route}`);
      // Asynchronous, so that this process keeps serving the pages Lighthouse asks for.
      await promisify(execFile)(
        'npx',
        [
          'lighthouse',
          site.url + route,
          '--quiet',
          '--output=json',
          `--output-path=${report}`,
          `--only-categories=${categories.join(',')}`,
          `--chrome-flags=--headless --no-sandbox --disable-gpu --disable-background-networking --disable-component-update --disable-sync --no-first-run --user-data-dir=${path.join(work, 'profile')}`,
          ...(formFactor === 'desktop' ? ['--preset=desktop'] : []),
        ],
        {cwd: repository, env: {...process.env, CHROME_PATH: process.env.CHROME_PATH ?? '/usr/bin/chromium'}},
      );
      const lhr = JSON.parse(readFileSync(report, 'utf8')) as {
        categories: Record<string, {score: number}>;
        audits: Record<string, {numericValue?: number}>;
      };
      const scores = categories.map((category) => Math.round(lhr.categories[category].score * 100));
      const lcp = ((lhr.audits['largest-contentful-paint'].numericValue ?? 0) / 1000).toFixed(1);
      const tbt = Math.round(lhr.audits['total-blocking-time'].numericValue ?? 0);
      rows.push(`| \`${route}\` | ${formFactor} | ${scores.join(' | ')} | ${lcp} s | ${tbt} ms |`);
    }
  }
} finally {
  await site.close();
  rmSync(work, {recursive: true, force: true});
}

const section = [
  begin,
  '## Portal: Lighthouse',
  '',
  `Lighthouse 12 with Debian's Chromium (headless) against the built portal served locally; ${new Date().toISOString().slice(0, 10)}, Node ${process.version}, ${(await import('node:os')).cpus().length} cores. Mobile uses Lighthouse's default throttling (slow 4G, 4x CPU); desktop uses its desktop preset.`,
  '',
  '| Page | Form factor | Performance | Accessibility | Best practices | SEO | LCP | TBT |',
  '|---|---|---|---|---|---|---|---|',
  ...rows,
  end,
].join('\n');

writeSection(begin, end, section);
console.log(section);
