import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type Page } from 'playwright-core';

/** Debian's Chromium: playwright's own browser download is not reachable here. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-quic',
      '--no-first-run',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

export interface PageProblems {
  /** Console errors, page errors and CSP violations seen so far. */
  errors: string[];
}

/**
 * A fresh context and page. Console errors, uncaught exceptions and CSP
 * violations are collected, so a spec can insist on none (hydration
 * mismatches and blocked inline styles show up here).
 */
export async function openPage(
  browser: Browser,
  options: BrowserContextOptions = {},
): Promise<{ context: BrowserContext; page: Page; problems: PageProblems }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, ...options });
  const page = await context.newPage();
  const problems: PageProblems = { errors: [] };
  page.on('console', (msg) => {
    if (msg.type() === 'error') problems.errors.push(`console: ${msg.text()}`);
  });
  page.on('pageerror', (err) => problems.errors.push(`pageerror: ${err.message}`));
  await context.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      console.error(`CSP violation: ${e.violatedDirective} ${e.blockedURI}`);
    });
  });
  return { context, page, problems };
}

/**
 * Reloads as a person presses F5, and returns the page that shows the result. Vite may be reloading
 * the page itself at that moment (a data file changed); Chromium then refuses the second navigation
 * ("Not attached to an active page": the old document is being swapped out, and `load` is still the
 * old document's state, so a second press made at once met the same refusal on CI), or Vite's
 * navigation aborts ours (net::ERR_ABORTED, seen on a loaded 2-core machine). The press is made
 * again after a pause; should the tab never take it, the person opens the address in a new tab.
 */
export async function reloadPage(page: Page, patience = 20_000): Promise<Page> {
  const refused = (error: unknown) => /Not attached to an active page|net::ERR_ABORTED/.test(String(error));
  const until = Date.now() + patience;
  for (let pause = 100; Date.now() < until; pause = Math.min(pause * 2, 2_000)) {
    try {
      await page.reload();
      return page;
    } catch (error) {
      if (!refused(error)) throw error;
    }
    await new Promise((resolve) => setTimeout(resolve, pause));
  }
  const url = page.url();
  const fresh = await page.context().newPage();
  await fresh.goto(url);
  await page.close().catch(() => undefined);
  return fresh;
}
