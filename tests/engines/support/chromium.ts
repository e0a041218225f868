/** Chromium (Debian's), driven by playwright-core over CDP as the full browser suite does. */
import { launchChromium } from '../../e2e/support/browser';
import { domReads } from './dom-reads';
import type { BrowserOptions, Driver, EngineBrowser } from './driver';
import { isNetworkNotice, reportCspViolations } from './page-errors';

export async function launch(options: BrowserOptions): Promise<EngineBrowser> {
  const browser = await launchChromium();
  return {
    async newPage(viewport) {
      const context = await browser.newContext({ viewport, javaScriptEnabled: options.javaScript });
      await context.addInitScript(reportCspViolations);
      const page = await context.newPage();
      const errors: string[] = [];
      page.on('pageerror', (err) => errors.push(`pageerror: ${err.message}`));
      page.on('console', (msg) => {
        if (msg.type() === 'error' && !isNetworkNotice(msg.text())) errors.push(`console: ${msg.text()}`);
      });
      const evaluate: Driver['evaluate'] = (fn, arg) => page.evaluate(fn, arg as never) as never;
      return {
        ...domReads(evaluate),
        evaluate,
        async goto(url) {
          await page.goto(url);
        },
        url: async () => page.url(),
        fill: (selector, value) => page.fill(selector, value),
        reveal: (selector) => page.locator(selector).first().scrollIntoViewIfNeeded(),
        click: (selector) => page.click(selector),
        async selectOption(selector, value) {
          await page.selectOption(selector, value);
        },
        async press(x, y, holdMs) {
          await page.mouse.move(x, y);
          await page.mouse.down();
          await page.waitForTimeout(holdMs);
          await page.mouse.up();
        },
        upload: (selector, paths) => page.setInputFiles(selector, paths),
        jsErrors: async () => [...errors],
        async screenshot(path) {
          await page.screenshot({ path });
        },
        close: () => context.close(),
      };
    },
    close: () => browser.close(),
  };
}
