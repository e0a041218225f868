/** Driving the repair form in a page: navigation, filling, uploads, submit, and what the page shows. */
import type { Page, Route } from 'playwright-core';
import type { PhotoField } from '../../../src/core/form-model';
import type { Brand, Locale } from '../../../src/core/types';
import { form } from '../../support/portal-data';
import { photoFiles, validSteps, type PhotoFile } from './fixtures';

export const field = (name: string) => `#root_${name}`;
export const fieldError = (name: string) => `#root_${name}__error`;
export const SUBMIT = 'form button[type="submit"]';

/** In the page: React has attached to the element (its fiber keys are on the DOM node). */
export function hydratedAt(selector: string): boolean {
  const el = document.querySelector(selector);
  return !!el && Object.keys(el).some((k) => k.startsWith('__reactFiber$'));
}

/**
 * React has attached to the prerendered markup. The scripts start at a person's first act on the
 * page (src/web/main.tsx): a press of Shift, which changes nothing.
 */
export async function waitForHydration(page: Page, selector = '#root > *', timeout = 15_000): Promise<void> {
  await page.keyboard.press('Shift');
  await page.waitForFunction(hydratedAt, selector, { timeout });
}

export async function openBrandPage(page: Page, baseUrl: string, brandId: string, locale: Locale, country = 'be') {
  const response = await page.goto(`${baseUrl}/${brandId}/${locale}/${country}`);
  await waitForHydration(page, SUBMIT);
  return response;
}

export async function fillValues(page: Page, values: Record<string, string>): Promise<void> {
  for (const [name, value] of Object.entries(values)) {
    await page.fill(field(name), value);
  }
}

/** Chooses a photo in its picker and waits until the server's file name is stored in the photo's hidden target field. */
export async function uploadPhoto(page: Page, photo: PhotoField, file: PhotoFile): Promise<string> {
  await page.setInputFiles(field(photo.picker), file);
  const handle = await page.waitForFunction(
    (sel) => (document.querySelector<HTMLInputElement>(sel)?.value ?? '') || false,
    field(photo.target),
    { timeout: 15_000 },
  );
  return String(await handle.jsonValue());
}

/** The page's language and country, from its address (/<brand>/<locale>/<country>). */
export function pageRoute(page: Page): { locale: Locale; country: string } {
  const [, , locale, country] = new URL(page.url()).pathname.split('/');
  return { locale, country };
}

/** Every field of a valid request but the photos, each by its control (typed, chosen, ticked), in form order. */
export async function fillValidFields(page: Page, brand: Brand, email: string): Promise<void> {
  for (const { name, control, value } of validSteps(brand, email, pageRoute(page))) {
    if (control === 'text') await page.fill(field(name), String(value));
    else if (control === 'select') await page.selectOption(field(name), String(value));
    else if (value === true) await page.check(field(name));
  }
}

/**
 * Everything a valid request needs, made from the brand's form: each field by its control (typed, chosen,
 * ticked), then every photo (the files in turn). Returns the photos' stored names, in form order.
 */
export async function fillValidForm(page: Page, brand: Brand, email: string, files?: PhotoFile[]): Promise<string[]> {
  await fillValidFields(page, brand, email);
  const model = form(brand.form);
  const chosen = files ?? (await photoFiles());
  const names: string[] = [];
  for (const [i, photo] of model.photos.entries()) names.push(await uploadPhoto(page, photo, chosen[i % chosen.length]));
  return names;
}

/** Answers uploads without the server (axe and layout checks need a filled form, not a stored photo). */
export async function fakeUploads(page: Page): Promise<void> {
  let n = 0;
  await page.route('**/api/forms/images', (route: Route) => {
    n += 1;
    const filename = `00000000-0000-4000-8000-${String(n).padStart(12, '0')}.jpg`;
    return route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify({ filename }) });
  });
}

/** Texts of every live region (aria-live, role=status/alert/log) in the page. */
export async function liveRegionTexts(page: Page): Promise<string[]> {
  return page.$$eval('[aria-live]:not([aria-live="off"]), [role="status"], [role="alert"], [role="log"]', (els) =>
    els.map((el) => (el.textContent ?? '').trim()).filter(Boolean),
  );
}

export async function activeElementId(page: Page): Promise<string> {
  return page.evaluate(() => document.activeElement?.id ?? '');
}

/** Whether the focused element shows a focus indicator (outline or box-shadow) of its own. */
export async function focusIndicator(page: Page): Promise<{ id: string; tag: string; visible: boolean; focusVisible: boolean }> {
  return page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    if (!el || el === document.body) return { id: '', tag: 'body', visible: false, focusVisible: false };
    const style = getComputedStyle(el);
    const outline = style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) >= 1;
    const shadow = style.boxShadow !== 'none' && style.boxShadow !== '';
    return { id: el.id, tag: el.tagName.toLowerCase(), visible: outline || shadow, focusVisible: el.matches(':focus-visible') };
  });
}

/**
 * The confirmation's reference as a person meets it: the text under the label
 * (`Uw referentie K7QM-4XRT-9P`), the description a screen reader reads with
 * the heading (aria-describedby), and whether it is plain text selected whole.
 */
export async function shownReference(page: Page): Promise<{ description: string; selectable: string; value: string }> {
  return page.evaluate(() => {
    const heading = document.querySelector('main h2[aria-describedby]');
    const described = (heading?.getAttribute('aria-describedby') ?? '').split(/\s+/).filter(Boolean).map((id) => document.getElementById(id));
    const value = document.querySelector('main .success-panel strong[translate="no"]');
    return {
      description: described.map((el) => el?.textContent ?? '').join(' ').replace(/\s+/g, ' ').trim(),
      selectable: value ? getComputedStyle(value).userSelect : '',
      value: value?.textContent ?? '',
    };
  });
}
