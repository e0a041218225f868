/**
 * axe-core (WCAG 2.0/2.1 A+AA, 2.2 AA) on every brand page in nl and fr, in
 * the editing, error and success states: zero violations. Colour contrast of
 * each brand theme is part of wcag2aa.
 */
import AxeBuilder from '@axe-core/playwright';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { openPage } from './support/browser';
import { BRANDS, LOCALES, SUCCESS_TEXT, TEXTS, uniqueEmail } from './support/fixtures';
import { refusedPages } from './support/no-script-posts';
import { SUBMIT, fakeUploads, fillValidForm, openBrandPage, waitForHydration } from './support/form-page';
import { browserSuite } from './support/suite';

const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

const suite = browserSuite();

async function violations(page: Page): Promise<string[]> {
  const result = await new AxeBuilder({ page }).withTags(TAGS).analyze();
  return result.violations.map(
    (v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).slice(0, 5).join(', ')}`,
  );
}

describe('axe', () => {
  for (const brand of BRANDS) {
    for (const locale of LOCALES) {
      it(`${brand.id} ${locale}: editing, error and success states have no violations`, async () => {
        const { context, page } = await openPage(suite.browser);
        try {
          await openBrandPage(page, suite.portal.baseUrl, brand.id, locale);
          expect(await violations(page), 'editing').toEqual([]);

          await page.click(SUBMIT);
          await page.waitForSelector('[aria-invalid="true"]');
          expect(await violations(page), 'errors shown').toEqual([]);

          // Success without touching the database: uploads and submit are answered in the browser.
          await fakeUploads(page);
          await page.route(`**/api/forms/${brand.id}`, (route) => route.fulfill({ status: 201, contentType: 'application/json', body: '{"reference":"K7QM-4XRT-9P"}' }));
          await fillValidForm(page, brand, uniqueEmail('axe'));
          await page.click(SUBMIT);
          await expect.poll(() => page.textContent('main'), { timeout: 10_000 }).toContain(SUCCESS_TEXT[locale]);
          expect(await page.textContent('main')).toContain('K7QM-4XRT-9P');
          expect(await page.getByRole('link', { name: TEXTS[locale].success.newRequest }).count(), 'the way to a new request').toBe(1);
          expect(await violations(page), 'success').toEqual([]);
        } finally {
          await context.close();
        }
      });
    }
  }

  it('the pages a post without scripts can come back as (each notice, nl and fr) have no violations, with scripts or without', async () => {
    const pages = await refusedPages(suite.portal.baseUrl);
    for (const shown of pages) {
      const texts = TEXTS[shown.locale];
      for (const scripts of [false, true]) {
        const { context, page, problems } = await openPage(suite.browser);
        const what = `${shown.kind} (${shown.status}), scripts ${scripts ? 'on' : 'off'}`;
        try {
          // The page as the browser got it in answer to its post, served again at the route's address
          // (as 200: Chromium reports an error status on the console, which here would be no fault of the page).
          if (!scripts) await page.route('**/*.js', (route) => route.abort());
          await page.route(shown.url, (route) => route.fulfill({ status: 200, contentType: 'text/html', body: shown.html }));
          await page.goto(shown.url);
          expect(await page.getAttribute('html', 'lang'), what).toBe(shown.locale);
          // Without scripts nothing moves the focus to the notice: the title says there is a problem.
          if (scripts) await waitForHydration(page);
          else expect(await page.title(), what).toMatch(new RegExp(`^${texts.page.errorTitle.split('{{')[0]}`));
          const notice = page.locator('main [role="alert"]');
          expect(await notice.locator('h2').textContent(), what).toBe(texts.notice[shown.kind].title);
          expect(await violations(page), what).toEqual([]);
          if (scripts) expect(problems.errors, what).toEqual([]);
        } finally {
          await context.close();
        }
      }
    }
    // Eight pages, each checked by axe, after four posts: 35 s in a loaded CI run, past 60 s in another.
  }, 180_000);

  it('404 page has no violations', async () => {
    const { context, page } = await openPage(suite.browser);
    try {
      await page.goto(`${suite.portal.baseUrl}/onbekend`);
      await waitForHydration(page);
      expect(await violations(page)).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
