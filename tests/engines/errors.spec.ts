/**
 * What the customer is told, in each engine: Verzenden on an empty form (the
 * fields' messages, and the extended form's summary), an invalid value on
 * leaving its field, and a photo that is refused (by the page, or by the server).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SUMMARY_TEXT, TEXTS, brandById, message } from '../e2e/support/fixtures';
import { engineSuite } from './support/engine-suite';
import { SUBMIT, field, fieldError, openForm, waitUntil, writeTestFiles, type TestFiles } from './support/form-steps';

const suite = engineSuite();
let files: TestFiles;
beforeAll(async () => {
  files = await writeTestFiles();
});
afterAll(() => files?.remove());

const VARIANTS = [
  {
    brandId: 'kuppersbusch',
    required: ['last_name', 'street_name', 'client_email', 'description', 'upload_1', 'upload_2'],
    invalid: { name: 'notification', value: 'dealer@', key: 'format.email' },
  },
  {
    brandId: 'ilve',
    required: ['last_name', 'postal_code', 'brand', 'type', 'purchase_date', 'description', 'upload_1'],
    invalid: { name: 'postal_code', value: '123', key: 'postalCode' },
  },
] as const;

describe.each(VARIANTS)('$brandId', ({ brandId, required, invalid }) => {
  const { form: variant } = brandById(brandId);

  it(`${variant} form: Verzenden on an empty form shows each field's message${variant === 'extended' ? ' and the summary' : ''}`, () =>
    suite.withPage(async (page) => {
      await openForm(page, suite.portal.baseUrl, brandId, 'nl', 'be');
      await page.click(SUBMIT);
      const need = message(variant, 'nl', 'required');
      await waitUntil(() => page.count(fieldError('last_name')), 'the first message');
      for (const name of required) expect(await page.text(fieldError(name)), name).toContain(need);
      expect(await page.attribute(field('last_name'), 'aria-invalid')).toBe('true');
      expect(await page.count(fieldError('house_number_suffix')), 'an optional field stays quiet').toBe(0);
      if (variant === 'extended') {
        expect(await page.text('.field--isAkkoord')).toContain(need);
        expect(await page.text('main')).toContain(SUMMARY_TEXT.nl);
      } else {
        expect(await page.text('main')).not.toContain(SUMMARY_TEXT.nl);
      }
      expect(suite.portal.storedRequests('@')).toHaveLength(0);
    }));

  it(`${variant} form: an invalid ${invalid.name} shows its message on leaving the field`, () =>
    suite.withPage(async (page) => {
      await openForm(page, suite.portal.baseUrl, brandId, 'nl', 'be');
      await page.fill(field(invalid.name), invalid.value);
      await page.blur(field(invalid.name));
      await expect.poll(() => page.count(fieldError(invalid.name))).toBe(1);
      expect(await page.text(fieldError(invalid.name))).toContain(message(variant, 'nl', invalid.key));
      expect(await page.attribute(field(invalid.name), 'aria-invalid')).toBe('true');
      expect(await page.count(fieldError('last_name')), 'untouched fields show nothing').toBe(0);
    }));

  it(`${variant} form: a photo that cannot be uploaded says so`, () =>
    suite.withPage(async (page) => {
      await openForm(page, suite.portal.baseUrl, brandId, 'nl', 'be');
      // Not an image: refused by the page before any upload.
      await page.upload(field('upload_1'), [files.text]);
      await expect.poll(() => page.count(fieldError('upload_1'))).toBe(1);
      expect(await page.text(fieldError('upload_1'))).toContain(message(variant, 'nl', 'fileRules.types'));
      // A .jpg that is no image: sent, refused by the server (415), and told as the page's own check tells it:
      // no network message, no retry button (sending it again cannot help), no thumbnail.
      await page.upload(field('upload_2'), [files.brokenJpeg]);
      await expect.poll(() => page.count(fieldError('upload_2')), { timeout: 10_000 }).toBe(1);
      expect(await page.text(fieldError('upload_2'))).toContain(message(variant, 'nl', 'fileRules.types'));
      expect(await page.text('.field--photo:has(#root_upload_2)')).not.toContain(TEXTS.nl.upload.networkError);
      expect(await page.count('.field--photo:has(#root_upload_2) .photo__retry')).toBe(0);
      expect(await page.count('.field--photo:has(#root_upload_2) img')).toBe(0);
      expect(await page.value(field('image1'))).toBe('');
      expect(await page.value(field('image2'))).toBe('');
    }));
});

it('the suite sees the script errors a page reports', async () => {
  const page = await suite.newPage();
  try {
    await openForm(page, suite.portal.baseUrl, 'ilve', 'nl', 'be');
    expect(await page.jsErrors()).toEqual([]);
    await page.evaluate(() => {
      console.error('logged by the page');
      setTimeout(() => {
        throw new Error('thrown by the page');
      });
      void Promise.reject(new Error('rejected by the page'));
    });
    await expect.poll(async () => (await page.jsErrors()).join(' | ')).toMatch(/thrown by the page/);
    const seen = (await page.jsErrors()).join(' | ');
    expect(seen).toContain('logged by the page');
    expect(seen).toContain('rejected by the page');
  } finally {
    await page.close();
  }
});
