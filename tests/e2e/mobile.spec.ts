/** Mobile viewport 360×740: nothing overflows horizontally, every control is at least 24×24 px. */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { openPage } from './support/browser';
import { BRANDS, LOCALES } from './support/fixtures';
import { SUBMIT, openBrandPage } from './support/form-page';
import { browserSuite } from './support/suite';

const suite = browserSuite();

/** Controls smaller than 24×24 px. Visually hidden ones (1px clip) and links inside running text are WCAG 2.5.8 exceptions. */
async function smallControls(page: Page): Promise<string[]> {
  return page.$$eval('a[href], button, input:not([type="hidden"]), select, textarea, summary, [role="button"], [tabindex]:not([tabindex="-1"])', (els) =>
    els.flatMap((el) => {
      const box = el.getBoundingClientRect();
      const style = getComputedStyle(el);
      if (box.width <= 1 || box.height <= 1 || style.visibility === 'hidden' || el.closest('[hidden]')) return [];
      const inline = el.tagName === 'A' && style.display === 'inline' && (el.parentElement?.textContent ?? '').trim() !== (el.textContent ?? '').trim();
      if (inline) return [];
      if (box.width >= 24 && box.height >= 24) return [];
      const name = el.id || el.getAttribute('aria-label') || (el.textContent ?? '').trim().slice(0, 30) || el.outerHTML.slice(0, 60);
      return [`${el.tagName.toLowerCase()} "${name}" ${Math.round(box.width)}×${Math.round(box.height)}`];
    }),
  );
}

async function overflow(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const wide = [...document.querySelectorAll('body *')]
      .filter((el) => el.getBoundingClientRect().right > width + 0.5 && !el.closest('.visually-hidden'))
      .map((el) => `${el.tagName.toLowerCase()}.${[...el.classList].join('.')}`);
    if (document.documentElement.scrollWidth > width) wide.unshift(`page scrollWidth ${document.documentElement.scrollWidth} > ${width}`);
    return wide.slice(0, 10);
  });
}

describe('mobile 360×740', () => {
  for (const brand of BRANDS) {
    for (const locale of LOCALES) {
      it(`${brand.id} ${locale}: no horizontal overflow, controls ≥ 24×24 (editing and error state)`, async () => {
        const { context, page } = await openPage(suite.browser, { viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 });
        try {
          await openBrandPage(page, suite.portal.baseUrl, brand.id, locale);
          expect(await overflow(page), 'editing').toEqual([]);
          expect(await smallControls(page), 'editing').toEqual([]);
          await page.click(SUBMIT);
          await page.waitForSelector('[aria-invalid="true"]');
          expect(await overflow(page), 'errors shown').toEqual([]);
          expect(await smallControls(page), 'errors shown').toEqual([]);
        } finally {
          await context.close();
        }
      });
    }
  }
});
