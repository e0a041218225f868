/**
 * Every press counts (issue 22), in each engine: a person fills a field, then
 * presses a control below it with the mouse (down, 150 ms, up). The press's
 * own mousedown moves focus, the field's blur changes its error, and that
 * change must not move the control before the release: the click lands on the
 * control, its action happens, and the field's error shows (or goes) after.
 * The cases are those of tests/e2e/every-press.spec.ts (whose finger presses,
 * emulated touch, stay in Chromium).
 */
import { describe, expect, it } from 'vitest';
import { engineSuite } from './support/engine-suite';
import type { Driver } from './support/driver';
import { SUBMIT, field, fieldError, humanPress, openForm, waitUntil } from './support/form-steps';

const suite = engineSuite();
// The whole form in view, errors and all: scrolling cannot hide a shift of a control.
const TALL = { width: 1280, height: 3600 };
const HOLD_MS = 150;

interface PressCase {
  brandId: 'kuppersbusch' | 'ilve';
  control: string;
  selector: string;
  /** Verzenden pressed first with every field empty: errors (and the extended form's panel) show. */
  afterEmptySubmit: boolean;
  /** The field above the control that is left: its value, and whether it shows an error after its blur. */
  leave: { name: string; value: string; errorAfter: boolean };
  /** What a person sees once the press reached the control. */
  happened(page: Driver): Promise<void>;
}

const activeId = (page: Driver) => page.evaluate(() => document.activeElement?.id ?? '');

const checked = (name: string) => async (page: Driver) => {
  await expect.poll(() => page.checked(field(name))).toBe(true);
};
/** A native select opens its picker on the press, and has focus. */
const selectFocused = (name: string) => async (page: Driver) => {
  await expect.poll(() => activeId(page)).toBe(`root_${name}`);
};
/** The photo button is a label: its click goes on to the hidden file input, which opens the chooser. */
const photoButton = async () => undefined;
const navigatedTo = (path: string) => async (page: Driver) => {
  await expect.poll(async () => new URL(await page.url()).pathname).toBe(path);
};
/** The submit ran: the form was rejected and focus went to the first field in error. */
const submitted = async (page: Driver) => {
  await expect.poll(() => activeId(page)).toBe('root_last_name');
};

const CASES: PressCase[] = [
  { brandId: 'kuppersbusch', control: 'terms checkbox', selector: field('isAkkoord'), afterEmptySubmit: true, leave: { name: 'description', value: 'De oven wordt niet warm.', errorAfter: false }, happened: checked('isAkkoord') },
  { brandId: 'kuppersbusch', control: 'terms checkbox', selector: field('isAkkoord'), afterEmptySubmit: false, leave: { name: 'notification', value: 'dealer@', errorAfter: true }, happened: checked('isAkkoord') },
  { brandId: 'kuppersbusch', control: 'country select', selector: field('country'), afterEmptySubmit: true, leave: { name: 'city', value: 'Brussel', errorAfter: false }, happened: selectFocused('country') },
  { brandId: 'kuppersbusch', control: 'first photo button', selector: 'label[for="root_upload_1"]', afterEmptySubmit: true, leave: { name: 'description', value: 'Geen warmte.', errorAfter: false }, happened: photoButton },
  { brandId: 'kuppersbusch', control: 'second photo button', selector: 'label[for="root_upload_2"]', afterEmptySubmit: true, leave: { name: 'description', value: 'Geen warmte.', errorAfter: false }, happened: photoButton },
  { brandId: 'kuppersbusch', control: 'language switch', selector: '.language-switch button[lang="fr"]', afterEmptySubmit: true, leave: { name: 'last_name', value: 'Jansen', errorAfter: false }, happened: navigatedTo('/kuppersbusch/fr/be') },
  { brandId: 'kuppersbusch', control: 'Verzenden', selector: SUBMIT, afterEmptySubmit: false, leave: { name: 'notification', value: 'dealer@', errorAfter: true }, happened: submitted },
  { brandId: 'ilve', control: 'country select', selector: field('country'), afterEmptySubmit: true, leave: { name: 'city', value: 'Brussel', errorAfter: false }, happened: selectFocused('country') },
  { brandId: 'ilve', control: 'first photo button', selector: 'label[for="root_upload_1"]', afterEmptySubmit: true, leave: { name: 'description', value: 'Geen warmte.', errorAfter: false }, happened: photoButton },
  { brandId: 'ilve', control: 'second photo button', selector: 'label[for="root_upload_2"]', afterEmptySubmit: true, leave: { name: 'description', value: 'Geen warmte.', errorAfter: false }, happened: photoButton },
  { brandId: 'ilve', control: 'Verzenden', selector: SUBMIT, afterEmptySubmit: true, leave: { name: 'description', value: 'Geen warmte.', errorAfter: false }, happened: submitted },
];

/** Opens the page and fills the field with the case's value, focus still in it; the next step is the press. */
async function prepare(page: Driver, c: PressCase): Promise<void> {
  await openForm(page, suite.portal.baseUrl, c.brandId, 'nl', 'be');
  if (c.afterEmptySubmit) {
    await page.click(SUBMIT);
    await waitUntil(() => page.count(fieldError(c.leave.name)), `the error of ${c.leave.name}`);
  }
  await page.fill(field(c.leave.name), c.leave.value);
}

const errorShows = async (page: Driver, name: string) => (await page.count(fieldError(name))) > 0;

describe('a mouse press on a control below a field whose error changes', () => {
  for (const c of CASES) {
    const change = c.leave.errorAfter ? 'shows an error' : 'loses its error';
    it(`${c.brandId}: the ${c.control} gets the press when ${c.leave.name} ${change}`, () =>
      suite.withPage(async (page) => {
        await prepare(page, c);
        const result = await humanPress(page, c.selector, HOLD_MS);
        expect(result, 'the control stayed under the pointer and the click landed on it').toEqual({ moved: 0, click: 'control' });
        await c.happened(page);
        if (c.control !== 'language switch') {
          await expect.poll(() => errorShows(page, c.leave.name), { message: 'the blur took effect after the click' }).toBe(c.leave.errorAfter);
        }
      }, TALL));
  }

  it('kuppersbusch: the terms checkbox gets a press with no pause between down and up', () =>
    suite.withPage(async (page) => {
      const c = CASES[1];
      await prepare(page, c);
      expect((await humanPress(page, c.selector, 0)).click).toBe('control');
      await expect.poll(() => page.checked(c.selector)).toBe(true);
      await expect.poll(() => errorShows(page, c.leave.name)).toBe(c.leave.errorAfter);
    }, TALL));
});
