/**
 * After sending: a reload shows the confirmation again (the reference stays at hand, and nothing
 * suggests the request was lost), and the confirmation's "new request" link leads to an empty
 * form, with scripts and without, which a reload then keeps.
 */
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Locale } from '../../src/core/types';
import { SUCCESS_TEXT, brandById, photoFiles, uniqueEmail, validValues, type PhotoFile } from './support/fixtures';
import { SUBMIT, field, fillValidForm, fillValues, openBrandPage, shownReference, waitForHydration } from './support/form-page';
import { browserSuite } from './support/suite';

const suite = browserSuite();
let files: PhotoFile[];
beforeAll(async () => {
  files = await photoFiles();
});

const NEW_REQUEST: Record<Locale, string> = { nl: 'Een nieuwe aanvraag doen', fr: 'Faire une nouvelle demande' };

/** The page as the customer sees it now: the confirmation, or the form with what its fields hold. */
async function shown(page: Page) {
  return page.evaluate(() => ({
    main: document.querySelector('main')?.textContent ?? '',
    form: document.querySelectorAll('form').length,
    filled: [...document.querySelectorAll<HTMLInputElement | HTMLTextAreaElement>('form input:not([type=hidden]):not([type=file]):not([type=checkbox]), form textarea')]
      .filter((el) => el.value !== '')
      .map((el) => el.name),
    photos: [
      ...[...document.querySelectorAll<HTMLInputElement>('input[type=hidden][name$="image1"], input[type=hidden][name$="image2"]')].map((el) => el.value),
      ...[...document.querySelectorAll('.photo__name')].map((el) => el.textContent ?? ''),
    ].filter(Boolean),
  }));
}

describe('after sending, with scripts', () => {
  it.each([
    ['ilve', 'nl', 'be'],
    ['kuppersbusch', 'fr', 'be'],
  ] as const)('%s %s: a reload shows the confirmation again; "new request" leads to an empty form a reload keeps', (brandId, locale, country) =>
    suite.withPage(async (page) => {
      const brand = brandById(brandId);
      await openBrandPage(page, suite.portal.baseUrl, brandId, locale, country);
      await fillValidForm(page, brand, uniqueEmail(`new-${brandId}`), files);
      await page.click(SUBMIT);
      await expect.poll(() => page.textContent('main'), { timeout: 15_000 }).toContain(SUCCESS_TEXT[locale]);
      const reference = (await shownReference(page)).value;

      await page.reload();
      await waitForHydration(page);
      await expect.poll(() => page.textContent('main'), { timeout: 10_000 }).toContain(SUCCESS_TEXT[locale]);
      expect((await shownReference(page)).value).toBe(reference);

      const link = page.getByRole('link', { name: NEW_REQUEST[locale] });
      expect(await link.count()).toBe(1);
      await link.click();
      await page.waitForURL(`${suite.portal.baseUrl}/${brandId}/${locale}/${country}`);
      await waitForHydration(page, SUBMIT);
      const fresh = await shown(page);
      expect(fresh.main).not.toContain(SUCCESS_TEXT[locale]);
      expect(fresh.form).toBe(1);
      expect(fresh.filled).toEqual([]);
      expect(fresh.photos).toEqual([]);

      await page.reload();
      await waitForHydration(page, SUBMIT);
      expect((await shown(page)).main).not.toContain(SUCCESS_TEXT[locale]);
      expect(await page.locator(field('last_name')).count()).toBe(1);
    }),
  );
});

describe('after sending, without scripts', () => {
  it('fratelli fr: the confirmation has the link too; it leads to an empty form, and a reload keeps the form', () =>
    suite.withPage(
      async (page) => {
        const brand = brandById('fratelli');
        const email = uniqueEmail('new-noscript');
        const urls: string[] = [];
        page.on('request', (r) => urls.push(r.url()));
        await page.goto(`${suite.portal.baseUrl}/fratelli/fr/lu`);
        await fillValues(page, validValues(brand, email));
        await page.setInputFiles(field('upload_1'), files[0]);
        await page.setInputFiles(field('upload_2'), files[1]);
        await page.click(SUBMIT);
        await page.waitForLoadState();
        expect(await page.textContent('main')).toContain(SUCCESS_TEXT.fr);
        await page.reload();
        expect(await page.textContent('main')).toContain(SUCCESS_TEXT.fr);

        await page.getByRole('link', { name: NEW_REQUEST.fr }).click();
        await page.waitForURL(`${suite.portal.baseUrl}/fratelli/fr/lu`);
        const fresh = await shown(page);
        expect(fresh.main).not.toContain(SUCCESS_TEXT.fr);
        expect(fresh.form).toBe(1);
        expect(fresh.filled).toEqual([]);
        await page.reload();
        expect((await shown(page)).main).not.toContain(SUCCESS_TEXT.fr);
        expect(suite.portal.storedRequests(email)).toHaveLength(1);
        for (const url of urls) expect(url).not.toContain(encodeURIComponent(email));
      },
      { javaScriptEnabled: false },
    ));
});
