import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { launchChromium, openPage } from './browser';
import { startPortal, type Portal } from './portal';

/** What every browser suite shares: one real server and one Chromium per file. */
export interface Suite {
  portal: Portal;
  browser: Browser;
  /** Runs `fn` in a fresh context's page and closes the context after. */
  withPage(fn: (page: Page) => Promise<void>, options?: BrowserContextOptions): Promise<void>;
}

/** `env`: the portal's settings beyond the suite's own (STUDIO=on for the brand studio). */
export function browserSuite(env: Record<string, string> = {}): Suite {
  const suite = {
    async withPage(fn: (page: Page) => Promise<void>, options?: BrowserContextOptions) {
      const { context, page } = await openPage(suite.browser, options);
      try {
        await fn(page);
      } finally {
        await context.close();
      }
    },
  } as Suite;
  beforeAll(async () => {
    [suite.portal, suite.browser] = await Promise.all([startPortal(env), launchChromium()]);
  });
  afterAll(async () => {
    await suite.browser?.close();
    await suite.portal?.stop();
  });
  return suite;
}
