/**
 * One press of Verzenden with the mouse sends, even when leaving the field
 * just typed in shows an error (or the extended form's panel) or hides one,
 * which moves the button. The press is a human one: down, a pause, up.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { SUCCESS_TEXT, SUMMARY_TEXT, brandById, message, uniqueEmail } from './support/fixtures';
import { SUBMIT, field, fieldError, fillValidForm, openBrandPage } from './support/form-page';
import { browserSuite } from './support/suite';

const suite = browserSuite();
// The whole form in view: the browser's scroll anchoring cannot hide a shift of the button.
const TALL = { viewport: { width: 1280, height: 2600 } };

/**
 * Presses the button where it is now, near its top or bottom edge (where a
 * shift of a line of text moves it from under the pointer), holding the
 * mouse down as long as a person does.
 */
async function pressOnce(page: Page, selector: string, edge: 'top' | 'bottom'): Promise<void> {
  await page.locator(selector).scrollIntoViewIfNeeded();
  const box = await page.locator(selector).boundingBox();
  if (!box) throw new Error(`${selector} is not visible`);
  await page.mouse.move(box.x + box.width / 2, edge === 'top' ? box.y + 3 : box.y + box.height - 3);
  await page.mouse.down();
  await page.waitForTimeout(150);
  await page.mouse.up();
}

const CASES = [
  { brandId: 'kuppersbusch', name: 'notification', invalid: 'dealer@', key: 'format.email', valid: 'dealer@example.com' },
  { brandId: 'ilve', name: 'postal_code', invalid: '12', key: 'postalCode', valid: '1000' },
] as const;

describe('one press of Verzenden after an invalid value', () => {
  for (const c of CASES) {
    const brand = brandById(c.brandId);
    it(`${c.brandId} (${brand.form}): every error shows after one press`, () =>
      suite.withPage(async (page) => {
        await openBrandPage(page, suite.portal.baseUrl, c.brandId, 'nl', 'be');
        await page.locator(field(c.name)).fill(c.invalid);
        // The error appearing pushes the button down.
        await pressOnce(page, SUBMIT, 'top');
        const required = message(brand.form, 'nl', 'required');
        expect(await page.locator(fieldError('last_name')).textContent({ timeout: 5_000 })).toContain(required);
        expect(await page.locator(fieldError(c.name)).textContent()).toContain(message(brand.form, 'nl', c.key));
        expect(await page.locator(fieldError('description')).textContent()).toContain(required);
        if (brand.form === 'extended') expect(await page.textContent('main')).toContain(SUMMARY_TEXT.nl);
      }, TALL));

    it(`${c.brandId} (${brand.form}): a corrected value is sent with one press`, () =>
      suite.withPage(async (page) => {
        await openBrandPage(page, suite.portal.baseUrl, c.brandId, 'nl', 'be');
        const email = uniqueEmail(`press-${c.brandId}`);
        await fillValidForm(page, brand, email);
        // The error shows, is corrected, and the blur of the corrected field hides it while the button is pressed.
        await page.locator(field(c.name)).fill(c.invalid);
        await page.locator(field(c.name)).blur();
        await expect.poll(() => page.locator(fieldError(c.name)).count()).toBe(1);
        await page.locator(field(c.name)).fill(c.valid);
        // The error going pulls the button up.
        await pressOnce(page, SUBMIT, 'bottom');
        await expect.poll(() => page.textContent('main'), { timeout: 15_000 }).toContain(SUCCESS_TEXT.nl);
        expect(suite.portal.storedRequests(email)).toHaveLength(1);
      }, TALL));
  }
});
