/**
 * The form against the real server: messages per variant, rules on blur,
 * photo uploads, the NL address lookup (fake PDOK), a failed submit with
 * retry, and success with the request in SQLite and the mail in the outbox.
 */
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { ADDRESS_LOOKUP_DELAY_MS } from '../../src/core/address-lookup';
import type { Locale } from '../../src/core/types';
import {
  CHOOSE_AGAIN_TEXT,
  CONFIRMATION_SENT_TEXT,
  REFERENCE_TEXT,
  SHORT_REFERENCE,
  SUBMIT_ERROR_TEXT,
  SUCCESS_TEXT,
  SUMMARY_TEXT,
  brandById,
  message,
  photoFiles,
  photosOf,
  uniqueEmail,
  validValues,
  type PhotoFile,
} from './support/fixtures';
import {
  SUBMIT,
  field,
  fieldError,
  fillValidForm,
  liveRegionTexts,
  openBrandPage,
  shownReference,
  uploadPhoto,
  waitForHydration,
} from './support/form-page';
import { browserSuite } from './support/suite';

const suite = browserSuite();
let files: PhotoFile[];

beforeAll(async () => {
  files = await photoFiles();
});

const withPage = suite.withPage;

const errorText = (page: Page, name: string) => page.locator(fieldError(name)).textContent({ timeout: 5_000 });

describe('empty submit shows the messages of each variant', () => {
  const REQUIRED: Record<string, string[]> = {
    extended: ['last_name', 'street_name', 'house_number', 'postal_code', 'city', 'client_email', 'phone_number', 'description', 'upload_1', 'upload_2', 'isAkkoord'],
    simple: ['last_name', 'street_name', 'house_number', 'postal_code', 'city', 'client_email', 'phone_number', 'brand', 'type', 'serial_number', 'purchase_date', 'description', 'upload_1', 'upload_2'],
  };
  for (const [brandId, locale] of [['teka', 'nl'], ['kuppersbusch', 'fr'], ['ilve', 'nl'], ['hanant', 'fr']] as [string, Locale][]) {
    const brand = brandById(brandId);
    it(`${brandId} (${brand.form}) ${locale}`, () =>
      withPage(async (page) => {
        await openBrandPage(page, suite.portal.baseUrl, brandId, locale);
        await page.click(SUBMIT);
        const required = message(brand.form, locale, 'required');
        for (const name of REQUIRED[brand.form]) {
          if (name === 'isAkkoord') {
            expect.soft(await page.textContent('.field--isAkkoord'), 'terms checkbox shows its own error').toContain(required);
            continue;
          }
          expect(await errorText(page, name), name).toContain(required);
          if (!name.startsWith('upload') && name !== 'isAkkoord') {
            expect(await page.getAttribute(field(name), 'aria-invalid'), name).toBe('true');
          }
        }
        // Optional fields stay quiet.
        for (const name of ['house_number_suffix', 'phone_number2']) expect(await page.locator(fieldError(name)).count()).toBe(0);
        const body = (await page.textContent('main')) ?? '';
        if (brand.form === 'extended') expect(body).toContain(SUMMARY_TEXT[locale]);
        else expect(body).not.toContain(SUMMARY_TEXT[locale]);
        // Nothing was sent.
        expect(suite.portal.storedRequests('@').length).toBe(0);
      }));
  }
});

describe('field rules show on blur', () => {
  it('simple form: postal code by country, number range, max length, e-mail; only touched fields', () =>
    withPage(async (page) => {
      await openBrandPage(page, suite.portal.baseUrl, 'ilve', 'nl', 'be');
      await page.fill(field('postal_code'), '123');
      expect(await page.locator(fieldError('last_name')).count(), 'untouched fields show nothing').toBe(0);
      await page.locator(field('postal_code')).blur();
      expect(await errorText(page, 'postal_code')).toContain(message('simple', 'nl', 'postalCode'));

      await page.fill(field('postal_code'), '1000');
      await page.locator(field('postal_code')).blur();
      await expect.poll(() => page.locator(fieldError('postal_code')).count()).toBe(0);
      // Changing the country re-checks the postal code: 1000 is no Dutch code.
      await page.selectOption(field('country'), 'nl');
      await page.locator(field('country')).blur();
      expect(await errorText(page, 'postal_code')).toContain(message('simple', 'nl', 'postalCode'));
      await page.fill(field('postal_code'), '1118 cp');
      await page.locator(field('postal_code')).blur();
      await expect.poll(() => page.locator(fieldError('postal_code')).count()).toBe(0);

      await page.fill(field('house_number'), '0');
      await page.locator(field('house_number')).blur();
      expect(await errorText(page, 'house_number')).toContain(message('simple', 'nl', 'minimum'));
      await page.fill(field('house_number'), '100000');
      await page.locator(field('house_number')).blur();
      expect(await errorText(page, 'house_number')).toContain(message('simple', 'nl', 'maximum'));

      await page.fill(field('last_name'), 'x'.repeat(81));
      await page.locator(field('last_name')).blur();
      expect(await errorText(page, 'last_name')).toContain(message('simple', 'nl', 'maxLength', 80));

      await page.fill(field('client_email'), 'geen-adres');
      await page.locator(field('client_email')).blur();
      expect(await errorText(page, 'client_email')).toContain(message('simple', 'nl', 'format.email'));
    }));

  it('extended form: inputs stop at the limit, Belgian postal code, dealer e-mail', () =>
    withPage(async (page) => {
      await openBrandPage(page, suite.portal.baseUrl, 'kuppersbusch', 'nl', 'be');
      await page.fill(field('last_name'), 'x'.repeat(81)).catch(() => undefined);
      await page.locator(field('last_name')).blur();
      expect((await page.inputValue(field('last_name'))).length).toBeLessThanOrEqual(80);
      expect(await page.locator(fieldError('last_name')).count()).toBe(0);

      await page.fill(field('postal_code'), '10000');
      await page.locator(field('postal_code')).blur();
      expect(await errorText(page, 'postal_code')).toContain(message('extended', 'nl', 'postalCode'));

      await page.fill(field('notification'), 'dealer@');
      await page.locator(field('notification')).blur();
      expect(await errorText(page, 'notification')).toContain(message('extended', 'nl', 'format.email'));
      expect(await page.textContent('main')).toContain(SUMMARY_TEXT.nl);
      await page.fill(field('notification'), 'dealer@example.com');
      await page.fill(field('postal_code'), '1000');
      await page.locator(field('postal_code')).blur();
      await expect.poll(() => page.textContent('main')).not.toContain(SUMMARY_TEXT.nl);
    }));
});

describe('terms checkbox', () => {
  it('ticks on the first click and unticks on the second', () =>
    withPage(async (page) => {
      await openBrandPage(page, suite.portal.baseUrl, 'teka', 'nl');
      await page.click(field('isAkkoord'));
      await expect.poll(() => page.isChecked(field('isAkkoord'))).toBe(true);
      await page.click(field('isAkkoord'));
      await expect.poll(() => page.isChecked(field('isAkkoord'))).toBe(false);
    }));
});

describe('photo uploads', () => {
  it('shows progress, stores the server file name, announces the result (both photos)', () =>
    withPage(async (page) => {
      await openBrandPage(page, suite.portal.baseUrl, 'ilve', 'nl');
      // Each upload is held until its progress bar has been seen, then let through.
      const held: (() => void)[] = [];
      await page.route('**/api/forms/images', async (route) => {
        await new Promise<void>((release) => held.push(release));
        await route.continue();
      });
      for (const index of [1, 2] as const) {
        const file = files[index - 1];
        const before = (await liveRegionTexts(page)).join(' | ');
        const answer = page.waitForResponse((r) => r.url().endsWith('/api/forms/images'));
        await page.setInputFiles(field(`upload_${index}`), file);
        await page.waitForSelector(`#root_upload_${index} ~ * progress, .field--photo progress`, { state: 'visible', timeout: 5_000 });
        await expect.poll(() => held.length).toBe(1);
        held.shift()!();
        const response = await answer;
        expect(response.ok()).toBe(true);
        const { filename } = (await response.json()) as { filename: string };
        expect(filename).toMatch(/^[0-9a-f-]{36}\.(jpg|png)$/);
        await expect.poll(() => page.inputValue(field(`image${index}`))).toBe(filename);
        expect(await page.textContent(`.field--photo:has(#root_upload_${index})`)).toContain(file.name);
        await expect.poll(async () => (await liveRegionTexts(page)).join(' | '), { message: 'upload result announced' }).not.toBe(before);
      }
    }));

  it("says 'Netwerk error!' below the picker when the upload fails", () =>
    withPage(async (page) => {
      await openBrandPage(page, suite.portal.baseUrl, 'fratelli', 'fr');
      await page.route('**/api/forms/images', (route) => route.fulfill({ status: 500, body: '{}' }));
      await page.setInputFiles(field('upload_1'), files[0]);
      await expect.poll(() => page.textContent('.field--photo:has(#root_upload_1)')).toContain('Netwerk error!');
      expect(await page.inputValue(field('image1'))).toBe('');
    }));

  /** What the customer sees of a photo picker: its text, a retry button, images and whether each one shows. */
  const pickerShows = (page: Page, index: number) =>
    page.$eval(`.field--photo:has(#root_upload_${index})`, (el) => ({
      text: el.textContent ?? '',
      retry: el.querySelectorAll('button').length,
      images: [...el.querySelectorAll('img')].map((img) => ({ complete: img.complete, width: img.naturalWidth })),
    }));

  it("a PDF renamed .jpg: the server's 415 reads 'Invalid file type' as the page's own check, no retry, no broken thumbnail; the rest stays", () =>
    withPage(async (page) => {
      await openBrandPage(page, suite.portal.baseUrl, 'ilve', 'nl');
      await page.fill(field('last_name'), 'Jansen');
      const receipt = await uploadPhoto(page, photosOf(brandById('ilve'))[1], files[1]);
      const refused = page.waitForResponse((r) => r.url().endsWith('/api/forms/images'));
      await page.setInputFiles(field('upload_1'), { name: 'rapport.jpg', mimeType: 'image/jpeg', buffer: Buffer.from('%PDF-1.7\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n') });
      expect((await refused).status()).toBe(415);
      await expect.poll(() => page.textContent('.field--photo:has(#root_upload_1)')).toContain(message('simple', 'nl', 'fileRules.types'));
      const shown = await pickerShows(page, 1);
      expect(shown.text).not.toContain('Netwerk error!');
      expect(shown.text).toContain('rapport.jpg');
      expect(shown.retry).toBe(0);
      expect(shown.images).toEqual([]);
      expect(await page.getAttribute(field('upload_1'), 'aria-invalid')).toBe('true');
      await expect.poll(async () => (await liveRegionTexts(page)).join(' | ')).toContain(message('simple', 'nl', 'fileRules.types'));
      // What was typed and the other photo stay, its thumbnail shown.
      expect(await page.inputValue(field('last_name'))).toBe('Jansen');
      expect(await page.inputValue(field('image2'))).toBe(receipt);
      expect((await pickerShows(page, 2)).images).toEqual([{ complete: true, width: expect.any(Number) }]);
      expect((await pickerShows(page, 2)).images[0].width).toBeGreaterThan(0);
      expect(await page.inputValue(field('image1'))).toBe('');
    }));

  it("a photo the server finds too large (413) reads 'Fichier trop volumineux', with no retry", () =>
    withPage(async (page) => {
      await openBrandPage(page, suite.portal.baseUrl, 'kuppersbusch', 'fr');
      await page.route('**/api/forms/images', (route) =>
        route.fulfill({ status: 413, contentType: 'application/json', body: JSON.stringify({ error: 'The photo is larger than 32 MB.' }) }),
      );
      await page.setInputFiles(field('upload_2'), files[1]);
      await expect.poll(() => page.textContent('.field--photo:has(#root_upload_2)')).toContain(message('extended', 'fr', 'fileRules.maxBytes'));
      const shown = await pickerShows(page, 2);
      expect(shown.retry).toBe(0);
      expect(shown.images).toEqual([]);
      expect(shown.text).not.toContain('Netwerk error!');
    }));
});

describe('NL address lookup', () => {
  it('fills street and city from the address service for country nl', () =>
    withPage(async (page) => {
      await openBrandPage(page, suite.portal.baseUrl, 'airodesign', 'nl', 'nl');
      const before = (await liveRegionTexts(page)).join(' | ');
      await page.fill(field('postal_code'), '1118 CP');
      await page.fill(field('house_number'), '202');
      await expect.poll(() => page.inputValue(field('street_name')), { timeout: 5_000 }).toBe('Evert van de Beekstraat');
      expect(await page.inputValue(field('city'))).toBe('Schiphol');
      const q = suite.portal.pdok.queries.at(-1)!;
      expect(q.get('q')).toMatch(/1118CP.*202/);
      expect(q.get('fq')).toBe('type:adres');
      expect(q.get('rows')).toBe('1');
      await expect.poll(async () => (await liveRegionTexts(page)).join(' | '), { message: 'lookup announced' }).not.toBe(before);
    }));

  it('does not look up outside nl', () =>
    withPage(async (page) => {
      await openBrandPage(page, suite.portal.baseUrl, 'airodesign', 'nl', 'be');
      const count = suite.portal.pdok.queries.length;
      // The page's timers on a clock the test runs: the lookup's debounce passes without waiting.
      await page.clock.install();
      await page.clock.pauseAt(Date.now() + 1000);
      // A Dutch address, which in the Netherlands is looked up (the test above).
      await page.fill(field('postal_code'), '1118 CP');
      await page.fill(field('house_number'), '202');
      await page.clock.runFor(ADDRESS_LOOKUP_DELAY_MS * 4);
      // A request sent after the lookup would have been: had there been one, it has reached the service by now.
      await page.evaluate(() => fetch('/healthz'));
      expect(suite.portal.pdok.queries.length).toBe(count);
    }));
});

describe('submit', () => {
  it('kuppersbusch nl: a failed submit keeps the form and a retry succeeds; stored and mailed once', () =>
    withPage(async (page) => {
      const brand = brandById('kuppersbusch');
      const email = uniqueEmail('retry');
      await openBrandPage(page, suite.portal.baseUrl, brand.id, 'nl', 'be');
      const names = await fillValidForm(page, brand, email, files);

      let attempts = 0;
      await page.route(`**/api/forms/${brand.id}`, (route) => {
        attempts += 1;
        return attempts === 1 ? route.fulfill({ status: 503, body: '{}' }) : route.fallback();
      });
      await page.click(SUBMIT);
      await expect.poll(() => page.textContent('main')).toContain(SUBMIT_ERROR_TEXT.nl);
      expect((await liveRegionTexts(page)).join(' ')).toContain(SUBMIT_ERROR_TEXT.nl);
      expect(await page.inputValue(field('last_name'))).toBe('Jansen');
      expect(await page.inputValue(field('client_email'))).toBe(email);

      await page.click(SUBMIT);
      await expect.poll(() => page.textContent('main'), { timeout: 10_000 }).toContain(SUCCESS_TEXT.nl);
      const main = (await page.textContent('main')) ?? '';
      expect(main).toContain(CONFIRMATION_SENT_TEXT.nl);
      expect(main).toContain(email);
      expect(await page.locator('form').count(), 'the form is replaced by the confirmation').toBe(0);
      expect(await page.locator('main svg, main img').count(), 'check icon').toBeGreaterThan(0);
      // Announced: in a live region, or focus moved into the confirmation panel.
      const announced =
        (await liveRegionTexts(page)).join(' ') +
        (await page.evaluate(() => document.activeElement?.closest('section, [role="status"], [role="alert"]')?.textContent ?? ''));
      expect(announced).toContain(SUCCESS_TEXT.nl);

      const rows = suite.portal.storedRequests(email);
      expect(rows).toHaveLength(1);
      // The reference to quote: short, plain text selected whole, said with the focused heading.
      const reference = String(rows[0].reference);
      expect(reference).toMatch(SHORT_REFERENCE);
      expect(await shownReference(page)).toEqual({ description: `${REFERENCE_TEXT.nl} ${reference}`, selectable: 'all', value: reference });
      expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-describedby'))).toBeTruthy();
      const payload = rows[0].payload as Record<string, unknown>;
      expect(payload).toMatchObject({
        last_name: 'Jansen',
        client_email: email,
        brand: 'Kuppersbusch',
        country: 'be',
        house_number: 12,
        language: 'nl',
        isAkkoord: true,
        image1: names[0],
        image2: names[1],
      });
      expect(payload).not.toHaveProperty('upload_1');
      await expect.poll(() => suite.portal.outboxMails(email).length, { timeout: 15_000, message: 'confirmation mail in the outbox' }).toBeGreaterThan(0);
    }));

  it('ilve nl: a photo the server no longer holds when the form is sent is marked "choose this photo again"; chosen again, the request is stored', () =>
    withPage(async (page) => {
      const brand = brandById('ilve');
      const email = uniqueEmail('gone');
      await openBrandPage(page, suite.portal.baseUrl, brand.id, 'nl', 'nl');
      const names = await fillValidForm(page, brand, email, files);
      // Its upload expired, or made room for others', while the form was open.
      suite.portal.forgetPhoto(names[0]);
      await page.click(SUBMIT);
      const picker = '.field--photo:has(#root_upload_1)';
      await expect.poll(() => page.textContent(picker)).toContain(CHOOSE_AGAIN_TEXT.nl);
      expect(await page.textContent('main')).not.toContain(SUBMIT_ERROR_TEXT.nl);
      expect(await page.getAttribute(field('upload_1'), 'aria-invalid')).toBe('true');
      expect(await page.evaluate(() => document.activeElement?.id)).toBe('root_upload_1');
      expect(await page.inputValue(field('image1'))).toBe('');
      expect(suite.portal.storedRequests(email)).toHaveLength(0);

      const again = await uploadPhoto(page, photosOf(brand)[0], files[0]);
      expect(again).not.toBe(names[0]);
      expect(await page.textContent(picker)).not.toContain(CHOOSE_AGAIN_TEXT.nl);
      await page.click(SUBMIT);
      await expect.poll(() => page.textContent('main'), { timeout: 10_000 }).toContain(SUCCESS_TEXT.nl);
      expect(suite.portal.storedRequests(email).map((r) => (r.payload as Record<string, unknown>).image1)).toEqual([again]);
    }));

  it('hanant fr: network failure, retry, success with the chosen brand; French mail', () =>
    withPage(async (page) => {
      const brand = brandById('hanant');
      const email = uniqueEmail('hanant');
      await openBrandPage(page, suite.portal.baseUrl, brand.id, 'fr', 'lu');
      await fillValidForm(page, brand, email, files);
      let attempts = 0;
      await page.route(`**/api/forms/${brand.id}`, (route) => {
        attempts += 1;
        return attempts === 1 ? route.abort('connectionreset') : route.fallback();
      });
      await page.click(SUBMIT);
      await expect.poll(() => page.textContent('main')).toContain(SUBMIT_ERROR_TEXT.fr);
      await page.click(SUBMIT);
      await expect.poll(() => page.textContent('main'), { timeout: 10_000 }).toContain(SUCCESS_TEXT.fr);
      expect(await page.textContent('main')).toContain(CONFIRMATION_SENT_TEXT.fr);

      const [row] = suite.portal.storedRequests(email);
      expect(row?.payload).toMatchObject({ brand: 'Senza Nome', country: 'lu', description: validValues(brand, email).description });
      expect(row?.payload).not.toHaveProperty('language');
      expect(row?.payload).not.toHaveProperty('isAkkoord');
      await expect.poll(() => suite.portal.outboxMails(email).length, { timeout: 15_000 }).toBeGreaterThan(0);
      // After a reload the confirmation stays reached: the prerendered form is replaced once the page
      // hydrates and reads the sent state, and no half-filled draft comes back.
      await page.reload();
      await waitForHydration(page);
      await expect.poll(() => page.textContent('main'), { timeout: 10_000 }).toContain(SUCCESS_TEXT.fr);
      expect(await page.locator(field('last_name')).count()).toBe(0);
      // The reference too.
      expect((await shownReference(page)).description).toBe(`${REFERENCE_TEXT.fr} ${String(row?.reference)}`);
    }));

  it('uploads a photo for the real server and refuses a non-image before upload', () =>
    withPage(async (page) => {
      await openBrandPage(page, suite.portal.baseUrl, 'teka', 'nl');
      const name = await uploadPhoto(page, photosOf(brandById('teka'))[0], files[0]);
      expect(name).toMatch(/\.jpg$/);
      await page.setInputFiles(field('upload_2'), { name: 'notitie.txt', mimeType: 'text/plain', buffer: Buffer.from('geen foto') });
      expect(await errorText(page, 'upload_2')).toContain(message('extended', 'nl', 'fileRules.types'));
    }));
});
