// The page the portal's paths and /console/ answer while `npm start` builds them beside the server: plain HTML, no
// script, that reloads itself and shows each step of the builds with its times (platform/build-progress.ts), the
// estimate from the last build, or why a build failed. 503 with Retry-After: it is there only until the files are.
import { createHash } from 'node:crypto';
import type { FastifyReply } from 'fastify';
import type { BuildProgress, BuildStep } from '../../platform/build-progress.ts';
import { headersOf, setSecurityHeaders } from './security-headers.ts';

const reloadSeconds = 3;
const style = `body{font:16px/1.5 system-ui,sans-serif;max-width:44rem;margin:3rem auto;padding:0 1rem;color:#1c1e21;background:#fff}
@media (prefers-color-scheme:dark){body{color:#e3e3e3;background:#1b1b1d}a{color:#8ab4f8}}
li{margin:.25rem 0}.done{opacity:.7}.now{font-weight:600}progress{width:100%}code{font-size:.9em}`;
/** The page's one style element, allowed by its hash: the API's policy (default-src 'none') would block it. */
const styleSource = `'sha256-${createHash('sha256').update(style).digest('base64')}'`;

// Five characters by hand: the texts are the builds' own step titles and messages, no markup to keep.
const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
const seconds = (ms: number) => `${Math.max(0, Math.round(ms / 1000))} s`;

function stepLine(step: BuildStep, now: number): string {
  const last = step.lastSeconds === undefined ? '' : `; ${step.lastSeconds} s the last time`;
  const count = step.count ? ` (${step.count} written)` : '';
  const title = escapeHtml(step.title) + count;
  if (step.endedAt) return `<li class="done">✓ ${title}: ${seconds(step.endedAt - step.startedAt!)}</li>`;
  if (step.startedAt) return `<li class="now">${title}: ${seconds(now - step.startedAt)} so far${last}</li>`;
  return `<li>${title}: waiting${last}</li>`;
}

/** Seconds left if each unfinished step takes as long as it did the last time; undefined when a step has no last time. */
function estimateLeft(steps: BuildStep[], now: number): number | undefined {
  let left = 0;
  for (const step of steps.filter((s) => !s.endedAt)) {
    if (step.lastSeconds === undefined) return undefined;
    left += Math.max(0, step.lastSeconds - (step.startedAt ? (now - step.startedAt) / 1000 : 0));
  }
  return Math.round(left);
}

export function buildingPage(progress: BuildProgress, what: 'portal' | 'console', now = Date.now()): string {
  const failed = progress.state === 'failed';
  const done = progress.steps.filter((step) => step.endedAt).length;
  const left = estimateLeft(progress.steps, now);
  const heading = failed ? `The ${what} could not be built` : `Building the ${what}`;
  const status = failed
    ? `<p>${escapeHtml(progress.failure ?? 'The build failed.')} Fix the problem, then run <code>npm run portal:build</code> while the sandbox runs, or start it again.</p>`
    : `<p><progress value="${done}" max="${progress.steps.length}">${done} of ${progress.steps.length} steps</progress></p>
<p>Step ${Math.min(done + 1, progress.steps.length)} of ${progress.steps.length}, started ${seconds(now - progress.startedAt)} ago${
        left === undefined ? '' : `; about ${left} s left if it goes as fast as the last build`
      }. This page reloads itself every ${reloadSeconds} seconds and shows the ${what} once it is built.</p>`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="refresh" content="${reloadSeconds}">
<title>${heading} | Shop API sandbox</title>
<style>${style}</style>
</head>
<body>
<h1>${heading}</h1>
<p>The sandbox builds its ${what} on this first start (or after its sources changed). The API answers already: request a
token with <code>POST /token</code> and call <code>/v3/...</code>, as the README's walkthrough shows.</p>
${status}
<ol>
${progress.steps.map((step) => stepLine(step, now)).join('\n')}
</ol>
<p>The builds' full output: <code>${escapeHtml(progress.log)}</code> in the repository.</p>
</body>
</html>
`;
}

/** The building page's policy: its style and nothing else. */
const buildingPageHeaders = headersOf({
  contentSecurityPolicy: {
    useDefaults: false,
    directives: { defaultSrc: ["'none'"], styleSrc: [styleSource], frameAncestors: ["'none'"] },
  },
});

/** Answers with the building page, under a policy that allows its style and nothing else. */
export function sendBuildingPage(reply: FastifyReply, progress: BuildProgress, what: 'portal' | 'console') {
  setSecurityHeaders(reply, buildingPageHeaders);
  return reply
    .code(503)
    .header('retry-after', String(reloadSeconds))
    .header('cache-control', 'no-store')
    .type('text/html; charset=utf-8')
    .send(buildingPage(progress, what));
}
