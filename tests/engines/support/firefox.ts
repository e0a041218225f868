/**
 * Firefox ESR (Debian's firefox-esr), driven by puppeteer-core over WebDriver
 * BiDi; headless, no display needed. Page scripts can only be switched off
 * for the whole browser (a preference at launch), not per page.
 */
import puppeteer, { type ElementHandle, type Page } from 'puppeteer-core';
import { boxOf, domReads, scrollIntoViewIfNeeded } from './dom-reads';
import type { BrowserOptions, Driver, EngineBrowser } from './driver';
import { reportCspViolations } from './page-errors';

export const FIREFOX_PATH = process.env.FIREFOX_PATH ?? '/usr/bin/firefox-esr';

async function element(page: Page, selector: string): Promise<ElementHandle<Element>> {
  const el = await page.$(selector);
  if (!el) throw new Error(`nothing matches ${selector}`);
  return el;
}

export async function launch(options: BrowserOptions): Promise<EngineBrowser> {
  const browser = await puppeteer.launch({
    browser: 'firefox',
    executablePath: FIREFOX_PATH,
    protocol: 'webDriverBiDi',
    headless: true,
    extraPrefsFirefox: options.javaScript ? {} : { 'javascript.enabled': false },
  });
  return {
    async newPage(viewport) {
      const context = await browser.createBrowserContext();
      const page = await context.newPage();
      await page.setViewport(viewport);
      await page.evaluateOnNewDocument(reportCspViolations);
      const errors: string[] = [];
      page.on('pageerror', (err) => errors.push(`pageerror: ${err instanceof Error ? err.message : String(err)}`));
      page.on('console', (msg) => {
        if (msg.type() === 'error') errors.push(`console: ${msg.text()}`);
      });
      const evaluate: Driver['evaluate'] = (fn, arg) => page.evaluate(fn as never, arg) as never;
      // Until the element stays in view: after typing, Firefox scrolls the caret back into view a moment later.
      const reveal = async (selector: string) => {
        for (let tries = 0; tries < 5 && (await evaluate(scrollIntoViewIfNeeded, selector)); tries++) {
          if (options.javaScript) await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
          else await new Promise((r) => setTimeout(r, 100));
        }
      };
      return {
        ...domReads(evaluate),
        evaluate,
        async goto(url) {
          await page.goto(url, { waitUntil: 'load' });
        },
        url: async () => page.url(),
        async fill(selector, value) {
          // Typed, so the page sees what a person's keys give; a filled field is emptied first.
          const el = await element(page, selector);
          await el.focus();
          if (await el.evaluate((e) => (e as HTMLInputElement).value !== '')) {
            await page.keyboard.down('Control');
            await page.keyboard.press('a');
            await page.keyboard.up('Control');
            await page.keyboard.press('Backspace');
          }
          if (value) await page.keyboard.type(value);
        },
        reveal,
        async click(selector) {
          // Not ElementHandle.click: its visibility check awaits an IntersectionObserver, which never answers with scripts off.
          await reveal(selector);
          const box = await evaluate(boxOf, selector);
          await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
        },
        async selectOption(selector, value) {
          await page.select(selector, value);
        },
        async press(x, y, holdMs) {
          await page.mouse.move(x, y);
          await page.mouse.down();
          await new Promise((r) => setTimeout(r, holdMs));
          await page.mouse.up();
        },
        async upload(selector, paths) {
          await ((await element(page, selector)) as ElementHandle<HTMLInputElement>).uploadFile(...paths);
        },
        jsErrors: async () => [...errors],
        async screenshot(path) {
          await page.screenshot({ path: path as `${string}.png` });
        },
        close: () => context.close(),
      };
    },
    close: () => browser.close(),
  };
}
