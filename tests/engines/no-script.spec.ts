/**
 * The form without JavaScript, in each engine (the whole browser runs with
 * page scripts off): it posts to the server, which answers with the page
 * showing the variant's messages and what was typed, or with the
 * confirmation once the form is complete with its two photos.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CONFIRMATION_SENT_TEXT,
  REFERENCE_TEXT,
  SUCCESS_TEXT,
  SUMMARY_TEXT,
  brandById,
  controlOf,
  message,
  uniqueEmail,
  validValues,
} from '../e2e/support/fixtures';
import { form } from '../support/portal-data';
import { engineSuite } from './support/engine-suite';
import { SUBMIT, field, fieldError, fillValues, waitUntil, writeTestFiles, type TestFiles } from './support/form-steps';

const suite = engineSuite({ javaScript: false });
let files: TestFiles;
beforeAll(async () => {
  files = await writeTestFiles();
});
afterAll(() => files?.remove());

describe.each([
  { brandId: 'kuppersbusch', required: ['street_name', 'client_email', 'description', 'upload_1'] },
  { brandId: 'ilve', required: ['street_name', 'brand', 'type', 'purchase_date', 'upload_2'] },
])('$brandId', ({ brandId, required }) => {
  const brand = brandById(brandId);

  it(`${brand.form} form: a post shows the messages and keeps what was typed`, () =>
    suite.withPage(async (page) => {
      await page.goto(`${suite.portal.baseUrl}/${brandId}/nl/be`);
      expect(await page.evaluate(() => Object.keys(document.querySelector('form')!).some((k) => k.startsWith('__react'))), 'no script ran').toBe(false);
      await page.fill(field('last_name'), 'Peeters');
      await page.fill(field('postal_code'), '12');
      await page.click(SUBMIT);
      await waitUntil(() => page.count(fieldError('street_name')), 'the answer page with its messages');
      const need = message(brand.form, 'nl', 'required');
      for (const name of required) expect(await page.text(fieldError(name)), name).toContain(need);
      expect(await page.text(fieldError('postal_code'))).toContain(message(brand.form, 'nl', 'postalCode'));
      expect(await page.value(field('last_name'))).toBe('Peeters');
      expect(await page.value(field('postal_code'))).toBe('12');
      expect(await page.attribute(field('street_name'), 'aria-invalid')).toBe('true');
      if (brand.form === 'extended') expect(await page.text('main')).toContain(SUMMARY_TEXT.nl);
      else expect(await page.text('main')).not.toContain(SUMMARY_TEXT.nl);
      expect(suite.portal.storedRequests('Peeters')).toHaveLength(0);
    }));

  it(`${brand.form} form: complete with two photos, stored and confirmed`, () =>
    suite.withPage(async (page) => {
      const email = uniqueEmail(`${suite.engine}-noscript-${brandId}`);
      await page.goto(`${suite.portal.baseUrl}/${brandId}/nl/be`);
      await fillValues(page, validValues(brand, email));
      const model = form(brand.form);
      for (const name of model.fieldOrder) if (controlOf(model, brand, name) === 'check') await page.click(field(name));
      for (const [i, photo] of model.photos.entries()) await page.upload(field(photo.picker), [i % 2 === 0 ? files.jpeg : files.png]);
      await page.click(SUBMIT);
      await expect.poll(() => page.text('main'), { timeout: 15_000 }).toContain(SUCCESS_TEXT.nl);
      expect(await page.text('main')).toContain(`${CONFIRMATION_SENT_TEXT.nl} ${email}`);
      const rows = suite.portal.storedRequests(email);
      expect(rows).toHaveLength(1);
      expect(rows[0].payload).toMatchObject({ last_name: 'Jansen', client_email: email, country: 'be' });
      expect((rows[0].payload as Record<string, string>).image1).toMatch(/^[0-9a-f-]{36}\.jpg$/);
      // The server keeps the smaller of the PNG and its JPEG.
      expect((rows[0].payload as Record<string, string>).image2).toMatch(/^[0-9a-f-]{36}\.(png|jpg)$/);
      expect((await page.text('main')).replace(/\s+/g, ' ')).toContain(`${REFERENCE_TEXT.nl} ${String(rows[0].reference)}`);
    }));
});
