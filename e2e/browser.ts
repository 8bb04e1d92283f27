import { chromium, type Browser, type Page } from 'playwright-core';

/** Headless, and every feature that could call home switched off (the benchmarks launch Chromium with them too). */
export const chromiumFlags = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/** Debian's Chromium, headless, with every feature that could call home switched off. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium', headless: true, args: chromiumFlags });
}

/** Types `term` into the site search (once its index has loaded), picks the suggestion titled `title` and waits for its page. */
export async function searchAndOpen(page: Page, term: string, title: string, url: Parameters<Page['waitForURL']>[0]): Promise<void> {
  const input = page.locator('input.navbar__search-input');
  const indexLoaded = page.waitForResponse((response) => response.url().includes('search-index'));
  await input.focus();
  await indexLoaded;
  await input.pressSequentially(term, { delay: 30 });
  const suggestion = page.getByRole('option').filter({ hasText: title }).first();
  await suggestion.waitFor({ state: 'visible' });
  await suggestion.click();
  await page.waitForURL(url);
}
