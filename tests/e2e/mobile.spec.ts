/**
 * Mobile viewport 360×740: nothing overflows horizontally, every control is at least 24×24 px, and
 * the extended form's error summary keeps each bullet on the first line of its wrapped item.
 */
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

interface Box {
  top: number;
  bottom: number;
}

/**
 * Each summary item's bullet (its ::marker, a box only the browser knows: read through the DevTools
 * protocol) beside the item's first and last line boxes (from a Range over its text).
 */
async function summaryBullets(page: Page): Promise<{ text: string; marker: Box; first: Box; last: Box }[]> {
  const cdp = await page.context().newCDPSession(page);
  try {
    type DomNode = { nodeId: number; pseudoType?: string; pseudoElements?: DomNode[]; children?: DomNode[] };
    const { root } = (await cdp.send('DOM.getDocument', { depth: -1 })) as { root: DomNode };
    const byId = new Map<number, DomNode>();
    const walk = (node: DomNode) => {
      byId.set(node.nodeId, node);
      node.children?.forEach(walk);
    };
    walk(root);
    const { nodeIds } = await cdp.send('DOM.querySelectorAll', { nodeId: root.nodeId, selector: '.error-summary__list > li' });
    const markers: Box[] = [];
    for (const id of nodeIds) {
      const marker = byId.get(id)?.pseudoElements?.find((p) => p.pseudoType === 'marker');
      if (!marker) throw new Error('a summary item without a bullet');
      const { model } = await cdp.send('DOM.getBoxModel', { nodeId: marker.nodeId });
      const ys = model.border.filter((_, i) => i % 2 === 1);
      markers.push({ top: Math.min(...ys), bottom: Math.max(...ys) });
    }
    const lines = await page.$$eval('.error-summary__list > li', (items) =>
      items.map((li) => {
        // The line boxes of the item's text: one rect per line of each text node.
        const rects: DOMRect[] = [];
        const walker = document.createTreeWalker(li, NodeFilter.SHOW_TEXT);
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
          const range = document.createRange();
          range.selectNodeContents(node);
          rects.push(...[...range.getClientRects()].filter((r) => r.width > 0 && r.height > 0));
        }
        rects.sort((a, b) => a.top - b.top);
        const lineOf = (r: DOMRect) => ({ top: r.top, bottom: r.bottom });
        return { text: (li.textContent ?? '').trim(), first: lineOf(rects[0]), last: lineOf(rects.at(-1)!) };
      }),
    );
    return lines.map((line, i) => ({ ...line, marker: markers[i] }));
  } finally {
    await cdp.detach();
  }
}

describe('mobile 360×740: the error summary', () => {
  for (const brandId of BRANDS.filter((b) => b.form === 'extended').map((b) => b.id)) {
    for (const locale of LOCALES) {
      it(`${brandId} ${locale}: each bullet sits on the first line of its item, also when the item wraps`, async () => {
        const { context, page } = await openPage(suite.browser, { viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 });
        try {
          await openBrandPage(page, suite.portal.baseUrl, brandId, locale);
          await page.click(SUBMIT);
          await page.waitForSelector('.error-summary__list > li');
          const items = await summaryBullets(page);
          const wrapped = items.filter((item) => item.last.top >= item.first.bottom - 1);
          expect(wrapped.length, 'some items take more than one line at 360 px').toBeGreaterThan(0);
          for (const { text, marker, first } of items) {
            const middle = (marker.top + marker.bottom) / 2;
            expect(middle, `the bullet of "${text}" within its first line ${first.top}–${first.bottom}`).toBeGreaterThanOrEqual(first.top);
            expect(middle, `the bullet of "${text}" within its first line ${first.top}–${first.bottom}`).toBeLessThanOrEqual(first.bottom);
          }
        } finally {
          await context.close();
        }
      });
    }
  }
});
