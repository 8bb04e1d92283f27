// Accessibility checks of a console screen with axe-core (the engine of Lighthouse's accessibility audit, installed with
// Lighthouse): the WCAG 2.1 A and AA rules and axe's best practices.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/**
 * The rules the page breaks, as "rule: target, target (help)"; empty when it breaks none. `within`: a CSS selector, to
 * check only that part of the page (a portal page's article, not the theme around it).
 */
export async function axeViolations(page: Page, within?: string): Promise<string[]> {
  // Evaluated through the DevTools protocol, which the page's Content-Security-Policy does not govern (a <script> would be).
  await page.evaluate(axeSource);
  const violations = await page.evaluate(async (include) => {
    const { axe } = window as unknown as {
      axe: {
        run: (context: object, options: object) => Promise<{ violations: { id: string; help: string; nodes: { target: string[] }[] }[] }>;
      };
    };
    const result = await axe.run(include ? { include: [include] } : document, {
      runOnly: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'],
    });
    return result.violations;
  }, within);
  return violations.map(
    (violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')} (${violation.help})`,
  );
}
