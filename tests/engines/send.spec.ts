/**
 * Fill and send, in each engine: both variants with two photos, stored,
 * mailed and confirmed with the request's reference; the NL address lookup
 * filling street and city (fake PDOK); and a form filled while the page's app
 * is still on its way.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Locale } from '../../src/core/types';
import { KNOWN_ADDRESSES } from '../e2e/support/fake-pdok';
import { CONFIRMATION_SENT_TEXT, REFERENCE_TEXT, SHORT_REFERENCE, SUCCESS_TEXT, brandById, uniqueEmail } from '../e2e/support/fixtures';
import { engineSuite } from './support/engine-suite';
import { form } from '../support/portal-data';
import { holdApp } from './support/held-app';
import { SUBMIT, field, fillValidFields, fillValidForm, openForm, waitForHydration, waitUntil, writeTestFiles, type TestFiles } from './support/form-steps';

const suite = engineSuite();
let files: TestFiles;
beforeAll(async () => {
  files = await writeTestFiles();
});
afterAll(() => files?.remove());

describe.each([
  ['kuppersbusch', 'nl'],
  ['ilve', 'fr'],
] as [string, Locale][])('%s (%s)', (brandId, locale) => {
  const brand = brandById(brandId);

  it(`${brand.form} form: filled with two photos, sent, stored and confirmed`, () =>
    suite.withPage(async (page) => {
      const email = uniqueEmail(`${suite.engine}-${brandId}`);
      await openForm(page, suite.portal.baseUrl, brandId, locale, 'be');
      const names = await fillValidForm(page, brand, email, files, { locale, country: 'be' });
      expect(names[0]).toMatch(/^[0-9a-f-]{36}\.jpg$/);
      // The server keeps the smaller of the PNG and its JPEG.
      expect(names[1]).toMatch(/^[0-9a-f-]{36}\.(png|jpg)$/);
      await page.click(SUBMIT);
      await expect.poll(() => page.text('main'), { timeout: 15_000 }).toContain(SUCCESS_TEXT[locale]);
      expect(await page.text('main')).toContain(`${CONFIRMATION_SENT_TEXT[locale]} ${email}`);
      expect(await page.count('form')).toBe(0);

      const rows = suite.portal.storedRequests(email);
      expect(rows).toHaveLength(1);
      expect(rows[0].payload).toMatchObject({ last_name: 'Jansen', client_email: email, country: 'be', image1: names[0], image2: names[1] });
      const reference = String(rows[0].reference);
      expect(reference).toMatch(SHORT_REFERENCE);
      expect((await page.text('main')).replace(/\s+/g, ' ')).toContain(`${REFERENCE_TEXT[locale]} ${reference}`);
      await expect.poll(() => suite.portal.outboxMails(email).length, { timeout: 15_000 }).toBeGreaterThan(0);
    }));

  it(`${brand.form} form: the address lookup fills street and city for the Netherlands`, () =>
    suite.withPage(async (page) => {
      const address = KNOWN_ADDRESSES[0];
      await openForm(page, suite.portal.baseUrl, brandId, locale, 'nl');
      await page.fill(field('postal_code'), `${address.postcode.slice(0, 4)} ${address.postcode.slice(4)}`);
      await page.fill(field('house_number'), String(address.huisnummer));
      await expect.poll(() => page.value(field('street_name')), { timeout: 5_000 }).toBe(address.straatnaam);
      expect(await page.value(field('city'))).toBe(address.woonplaatsnaam);
      expect(suite.portal.pdok.queries.at(-1)?.get('q')).toMatch(new RegExp(`${address.postcode}.*${address.huisnummer}`));
    }));
});

describe('before the app arrives', () => {
  it('a form filled, ticked and given two photos while the app is on its way is kept, uploaded and sent once', () =>
    suite.withPage(async (page) => {
      const brand = brandById('kuppersbusch');
      const email = uniqueEmail(`${suite.engine}-early`);
      const held = await holdApp(suite.portal.baseUrl);
      try {
        await page.goto(`${held.baseUrl}/${brand.id}/nl/be`);
        expect(held.asked(), 'a page only shown fetches no app').toBe(false);
        await fillValidFields(page, brand, email, { locale: 'nl', country: 'be' });
        const photos = form(brand.form).photos;
        for (const [i, photo] of photos.entries()) await page.upload(field(photo.picker), [i % 2 ? files.png : files.jpeg]);
        await waitUntil(async () => held.asked() || undefined, 'the first act to fetch the app', 5_000);
        held.release();
        await waitForHydration(page);
        // The photos chosen meanwhile are uploaded by the app once it has taken over.
        const names: string[] = [];
        for (const photo of photos) names.push(await waitUntil(() => page.value(field(photo.target)), `photo ${photo.picker} to be stored`, 15_000));
        await page.click(SUBMIT);
        await expect.poll(() => page.text('main'), { timeout: 15_000 }).toContain(SUCCESS_TEXT.nl);
        const rows = suite.portal.storedRequests(email);
        expect(rows).toHaveLength(1);
        expect(rows[0].payload).toMatchObject({ last_name: 'Jansen', client_email: email, country: 'be', image1: names[0], image2: names[1] });
      } finally {
        await held.close();
      }
    }));
});
