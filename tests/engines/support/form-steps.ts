/** The customer's steps on the repair form, written once against the Driver interface. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PhotoField } from '../../../src/core/form-model';
import type { Brand, Locale } from '../../../src/core/types';
import { photoFiles, validSteps } from '../../e2e/support/fixtures';
import { form } from '../../support/portal-data';
import { SUBMIT, field, hydratedAt } from '../../e2e/support/form-page';
import { boxOf } from './dom-reads';
import type { Driver } from './driver';

export { SUBMIT, field, fieldError } from '../../e2e/support/form-page';

/** Polls `check` until it gives a truthy value, and returns that value. */
export async function waitUntil<T>(check: () => Promise<T>, what: string, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value) return value;
    } catch (err) {
      last = err; // e.g. the page is between two documents
    }
    if (Date.now() > deadline) throw new Error(`waited ${timeoutMs} ms for ${what}${last ? `; last error: ${String(last)}` : ''}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** A person's first act on the page, which starts its scripts (src/web/main.tsx): a field focused and left as it was. */
function touchFirstField(): void {
  const first = document.querySelector<HTMLElement>('form input:not([type="hidden"]), form select, form textarea');
  first?.focus();
  first?.blur();
}

/** React has attached to the prerendered form (its fiber keys are on the DOM nodes), after a first act on it. */
export async function waitForHydration(page: Driver): Promise<boolean> {
  await page.evaluate(touchFirstField);
  return waitUntil(() => page.evaluate(hydratedAt, SUBMIT), 'the form to hydrate', 15_000);
}

export async function openForm(page: Driver, baseUrl: string, brandId: string, locale: Locale, country: string): Promise<void> {
  await page.goto(`${baseUrl}/${brandId}/${locale}/${country}`);
  await waitForHydration(page);
}

export async function fillValues(page: Driver, values: Record<string, string>): Promise<void> {
  for (const [name, value] of Object.entries(values)) await page.fill(field(name), value);
}

/** Chooses a photo in its picker and waits until the server's file name is in the photo's hidden target field. */
export async function uploadPhoto(page: Driver, photo: PhotoField, path: string): Promise<string> {
  await page.upload(field(photo.picker), [path]);
  return waitUntil(() => page.value(field(photo.target)), `photo ${photo.picker} to be stored`, 15_000);
}

/** Every field of a valid request but the photos, each by its control (typed, chosen, ticked), in form order. */
export async function fillValidFields(page: Driver, brand: Brand, email: string, route: { locale: Locale; country: string }): Promise<void> {
  for (const { name, control, value } of validSteps(brand, email, route)) {
    if (control === 'text') await page.fill(field(name), String(value));
    else if (control === 'select') await page.selectOption(field(name), String(value));
    else if (value === true) await page.click(field(name));
  }
}

/**
 * Every field a valid request needs, made from the brand's form, on the page /<brand>/<locale>/<country>:
 * each field by its control (typed, chosen, ticked), then every photo (a JPEG and a PNG in turn).
 * Returns the photos' stored names, in form order.
 */
export async function fillValidForm(page: Driver, brand: Brand, email: string, photos: TestFiles, route: { locale: Locale; country: string }): Promise<string[]> {
  await fillValidFields(page, brand, email, route);
  const model = form(brand.form);
  const files = [photos.jpeg, photos.png];
  const names: string[] = [];
  for (const [i, photo] of model.photos.entries()) names.push(await uploadPhoto(page, photo, files[i % files.length]));
  return names;
}

/** What a press did: how far the control moved between down and up, and where its click landed. */
export interface PressResult {
  /** The control's top edge at the release minus at the press (px). */
  moved: number;
  /** 'control' (the control or inside it), another element (`tag#id`), or 'none'. */
  click: string;
}

/** From now on the page notes the control's top at the next pointer down and up, and where the next click lands. */
function watchNextPress(selector: string): void {
  const w = window as unknown as { __press?: { down?: number; up?: number; click: string } };
  const control = document.querySelector(selector);
  const press: { down?: number; up?: number; click: string } = { click: 'none' };
  w.__press = press;
  const top = () => control?.getBoundingClientRect().top;
  addEventListener('pointerdown', () => (press.down = top()), { capture: true, once: true });
  addEventListener('pointerup', () => (press.up = top()), { capture: true, once: true });
  addEventListener(
    'click',
    (event) => {
      const target = event.target as Element;
      press.click = control?.contains(target) ? 'control' : `${target.tagName.toLowerCase()}${target.id ? `#${target.id}` : ''}`;
    },
    { capture: true, once: true },
  );
}

function pressSeen(): { down?: number; up?: number; click: string } {
  return (window as unknown as { __press?: { down?: number; up?: number; click: string } }).__press ?? { click: 'none' };
}

/**
 * Presses the element as a person does: the pointer to its centre (scrolled
 * into view first, if need be), down, held `holdMs`, up wherever that point
 * now is. Nothing waits for the page between down and up.
 */
export async function humanPress(page: Driver, selector: string, holdMs = 150): Promise<PressResult> {
  await page.reveal(selector);
  const box = await page.evaluate(boxOf, selector);
  await page.evaluate(watchNextPress, selector);
  await page.press(box.x + box.width / 2, box.y + box.height / 2, holdMs);
  // The click follows the release; give it a moment to be dispatched.
  const seen = await waitUntil(async () => {
    const s = await page.evaluate(pressSeen);
    return s.click !== 'none' ? s : undefined;
  }, 'the click of the press', 1_000).catch(() => page.evaluate(pressSeen));
  // NaN when the page saw no pointer down or up: no press to judge.
  return { moved: Math.round((seen?.up ?? NaN) - (seen?.down ?? NaN)), click: seen?.click ?? 'none' };
}

/** Files a customer might choose, on disk: the browsers' file pickers take paths. */
export interface TestFiles {
  jpeg: string;
  png: string;
  /** Not an image at all: refused by the page before upload. */
  text: string;
  /** Named and typed as a JPEG, yet no image: the page sends it, the server refuses it. */
  brokenJpeg: string;
  remove(): void;
}

export async function writeTestFiles(): Promise<TestFiles> {
  const dir = mkdtempSync(join(tmpdir(), 'portal-engines-'));
  const [jpeg, png] = await photoFiles();
  const files = {
    jpeg: join(dir, jpeg.name),
    png: join(dir, png.name),
    text: join(dir, 'notitie.txt'),
    brokenJpeg: join(dir, 'kapot.jpg'),
  };
  writeFileSync(files.jpeg, jpeg.buffer);
  writeFileSync(files.png, png.buffer);
  writeFileSync(files.text, 'geen foto');
  writeFileSync(files.brokenJpeg, 'geen foto, wel een .jpg');
  return { ...files, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
