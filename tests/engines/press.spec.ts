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
import { NO_PAUSE_CASE, PRESS_CASES, type PressCase } from '../e2e/support/press-cases';
import { engineSuite } from './support/engine-suite';
import type { Driver } from './support/driver';
import { SUBMIT, field, fieldError, humanPress, openForm, waitUntil } from './support/form-steps';

const suite = engineSuite();
// The whole form in view, errors and all: scrolling cannot hide a shift of a control.
const TALL = { width: 1280, height: 3600 };
const HOLD_MS = 150;

const activeId = (page: Driver) => page.evaluate(() => document.activeElement?.id ?? '');

const checked = (name: string) => async (page: Driver) => {
  await expect.poll(() => page.checked(field(name))).toBe(true);
};
/** A native select opens its picker on the press, and has focus. */
const selectFocused = (name: string) => async (page: Driver) => {
  await expect.poll(() => activeId(page)).toBe(`root_${name}`);
};
/**
 * The photo button is a label: its click goes on to the hidden file input, whose default action
 * opens the chooser. The input's click is recorded and the chooser kept shut: a native dialog
 * in a browser under WebDriver can hold the session (WebKitGTK's did, once, for 60 s).
 */
const stopFileChooser = (page: Driver) =>
  page.evaluate(() => {
    const w = window as unknown as { __fileInputClicked: boolean };
    w.__fileInputClicked = false;
    document.addEventListener(
      'click',
      (event) => {
        if (!(event.target instanceof HTMLInputElement) || event.target.type !== 'file') return;
        w.__fileInputClicked = true;
        event.preventDefault();
      },
      true,
    );
  });
const photoButton = async (page: Driver) => {
  await expect.poll(() => page.evaluate(() => (window as unknown as { __fileInputClicked: boolean }).__fileInputClicked)).toBe(true);
};
const navigatedTo = (path: string) => async (page: Driver) => {
  await expect.poll(async () => new URL(await page.url()).pathname).toBe(path);
};
/** The submit ran: the form was rejected and focus went to the first field in error. */
const submitted = async (page: Driver) => {
  await expect.poll(() => activeId(page)).toBe('root_last_name');
};

/** What a person sees once the press reached the control. */
function happened({ outcome }: PressCase): (page: Driver) => Promise<void> {
  if ('checked' in outcome) return checked(outcome.checked);
  if ('selectPressed' in outcome) return selectFocused(outcome.selectPressed);
  if ('photoChooser' in outcome) return photoButton;
  if ('navigatedTo' in outcome) return navigatedTo(outcome.navigatedTo);
  return submitted;
}

/** Opens the page and fills the field with the case's value, focus still in it; the next step is the press. */
async function prepare(page: Driver, c: PressCase): Promise<void> {
  await openForm(page, suite.portal.baseUrl, c.brandId, 'nl', 'be');
  if (c.afterEmptySubmit) {
    await page.click(SUBMIT);
    await waitUntil(() => page.count(fieldError(c.leave.name)), `the error of ${c.leave.name}`);
  }
  if ('photoChooser' in c.outcome) await stopFileChooser(page);
  await page.fill(field(c.leave.name), c.leave.value);
}

const errorShows = async (page: Driver, name: string) => (await page.count(fieldError(name))) > 0;

describe('a mouse press on a control below a field whose error changes', () => {
  for (const c of PRESS_CASES) {
    const change = c.leave.errorAfter ? 'shows an error' : 'loses its error';
    it(`${c.brandId}: the ${c.control} gets the press when ${c.leave.name} ${change}`, () =>
      suite.withPage(async (page) => {
        await prepare(page, c);
        const result = await humanPress(page, c.selector, HOLD_MS);
        expect(result, 'the control stayed under the pointer and the click landed on it').toEqual({ moved: 0, click: 'control' });
        await happened(c)(page);
        if (c.control !== 'language switch') {
          await expect.poll(() => errorShows(page, c.leave.name), { message: 'the blur took effect after the click' }).toBe(c.leave.errorAfter);
        }
      }, TALL));
  }

  it('kuppersbusch: the terms checkbox gets a press with no pause between down and up', () =>
    suite.withPage(async (page) => {
      const c = NO_PAUSE_CASE;
      await prepare(page, c);
      expect((await humanPress(page, c.selector, 0)).click).toBe('control');
      await expect.poll(() => page.checked(c.selector)).toBe(true);
      await expect.poll(() => errorShows(page, c.leave.name)).toBe(c.leave.errorAfter);
    }, TALL));
});
