/**
 * What every cross-engine file shares: one real portal and one browser of the
 * project's engine per file, a fresh page per test. A test fails on any
 * script error the page reports, and leaves a screenshot when it fails.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, inject } from 'vitest';
import { ROOT } from '../../e2e/support/paths';
import { startPortal, type Portal } from '../../e2e/support/portal';
import type { Driver, EngineBrowser, EngineName, Viewport } from './driver';
import { launchEngine } from './engines';

declare module 'vitest' {
  interface ProvidedContext {
    engine: EngineName;
  }
}

export const SCREENSHOTS = join(ROOT, '.tmp/engines');
const DESKTOP: Viewport = { width: 1280, height: 900 };
/**
 * Firefox keeps the idle connections of every closed context (each has its
 * own pool) open: a file's worth of tests passes the server's 32 connections
 * per address, which refuses the next page (NS_ERROR_NET_RESET).
 */
const ONE_BROWSER_MANY_CUSTOMERS = { MAX_CONNECTIONS_PER_CLIENT: '1000' };

export interface EngineSuite {
  engine: EngineName;
  portal: Portal;
  /** A fresh page for a test that judges script errors itself; the caller closes it. */
  newPage(viewport?: Viewport): Promise<Driver>;
  /** Runs `fn` in a fresh page; then insists on no script errors. */
  withPage(fn: (page: Driver) => Promise<void>, viewport?: Viewport): Promise<void>;
}

/** `env`: the portal's settings beyond the suite's own (STUDIO=on for the brand studio). */
export function engineSuite(options = { javaScript: true }, env: Record<string, string> = {}): EngineSuite {
  const engine = inject('engine');
  let browser: EngineBrowser | undefined;
  const suite = {
    engine,
    newPage: (viewport = DESKTOP) => browser!.newPage(viewport),
    async withPage(fn: (page: Driver) => Promise<void>, viewport = DESKTOP) {
      const page = await suite.newPage(viewport);
      try {
        await fn(page);
        expect(await page.jsErrors(), `script errors in ${engine}`).toEqual([]);
      } catch (err) {
        mkdirSync(SCREENSHOTS, { recursive: true });
        const name = expect.getState().currentTestName ?? 'test';
        const file = join(SCREENSHOTS, `${engine}-${name.replace(/[^\w-]+/g, '-').slice(0, 100)}.png`);
        const saved = await page.screenshot(file).then(() => `screenshot: ${file}`, (e: Error) => `no screenshot: ${e.message}`);
        if (err instanceof Error) err.message += `\n${saved}`;
        throw err;
      } finally {
        await page.close().catch(() => undefined);
      }
    },
  } as EngineSuite;
  beforeAll(async () => {
    // Started side by side; whichever started is stopped in afterAll even when the other failed.
    const [portal, launched] = await Promise.allSettled([startPortal({ ...ONE_BROWSER_MANY_CUSTOMERS, ...env }), launchEngine(engine, options)]);
    if (portal.status === 'fulfilled') suite.portal = portal.value;
    if (launched.status === 'fulfilled') browser = launched.value;
    for (const result of [portal, launched]) if (result.status === 'rejected') throw result.reason;
  });
  afterAll(async () => {
    await browser?.close();
    await suite.portal?.stop();
  });
  return suite;
}
