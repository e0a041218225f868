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
 * Reloads as a person presses F5. Vite may be reloading the page itself at that moment (a data
 * file changed); Chromium then refuses the second navigation ("Not attached to an active page"),
 * or Vite's navigation aborts ours (net::ERR_ABORTED, seen on a loaded 2-core machine), and the
 * press is made again once the page has loaded.
 */
export async function reloadPage(page: Page): Promise<void> {
  try {
    await page.reload();
  } catch (error) {
    if (!/Not attached to an active page|net::ERR_ABORTED/.test(String(error))) throw error;
    await page.waitForLoadState('load');
    await page.reload();
  }
}
