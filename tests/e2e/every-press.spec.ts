/**
 * Every press counts (issue 22): a person fills or clears a field, then
 * presses a control below it. The press's own mousedown (or the tap's) moves
 * focus, the field's blur changes its error, and that change must not move
 * the control before the release: the control's action happens, and the
 * field's error shows (or goes) after the click.
 *
 * Each case is a short sequence of primitive steps (support/human-press.ts).
 * tests/engines/press.spec.ts repeats the mouse cases in Chromium, Firefox and
 * WebKit (judged by where the click lands and what it did); the file chooser
 * event, the select's chosen option and the finger presses are checked here.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { SUBMIT, field, fieldError, openBrandPage } from './support/form-page';
import { NO_PAUSE_CASE, PRESS_CASES, type PressCase } from './support/press-cases';
import { HUMAN_HOLD_MS, PHONE, TALL, mousePress, touchPress, type PressResult } from './support/human-press';
import { browserSuite } from './support/suite';

const suite = browserSuite();

const checked = (name: string) => async (page: Page, press: Promise<PressResult>) => {
  await press;
  await expect.poll(() => page.locator(field(name)).isChecked()).toBe(true);
};

/** A native select opens its picker on the press; it has focus and a key then chooses another option. */
const selectPressed = (name: string) => async (page: Page, press: Promise<PressResult>) => {
  await press;
  expect(await page.evaluate(() => document.activeElement?.id)).toBe(`root_${name}`);
  const before = await page.locator(field(name)).inputValue();
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  await expect.poll(() => page.locator(field(name)).inputValue()).not.toBe(before);
};

const chooserOpened = async (page: Page, press: Promise<PressResult>) => {
  const chooser = page.waitForEvent('filechooser', { timeout: 10_000 });
  await press;
  expect(await chooser.then(() => 'opened', () => 'not opened')).toBe('opened');
};

const navigatedTo = (path: string) => async (page: Page, press: Promise<PressResult>) => {
  await press;
  await expect.poll(() => new URL(page.url()).pathname).toBe(path);
};

/** The submit ran: the form was rejected and focus went to the first field in error. */
const submitted = async (page: Page, press: Promise<PressResult>) => {
  await press;
  await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('root_last_name');
};

/** What a person sees when the press reached the control; the press is under way (a file chooser's listener goes first). */
function happened({ outcome }: PressCase): (page: Page, press: Promise<PressResult>) => Promise<void> {
  if ('checked' in outcome) return checked(outcome.checked);
  if ('selectPressed' in outcome) return selectPressed(outcome.selectPressed);
  if ('photoChooser' in outcome) return chooserOpened;
  if ('navigatedTo' in outcome) return navigatedTo(outcome.navigatedTo);
  return submitted;
}

const PRESSES = [
  { how: 'mouse', viewport: 'tall', options: TALL, press: mousePress },
  { how: 'finger', viewport: 'phone', options: PHONE, press: touchPress },
] as const;

/** Opens the page and leaves the field with the case's value; the next step is the press. */
async function prepare(page: Page, c: PressCase): Promise<void> {
  // Chooser interception on before the press (Playwright turns it on without waiting; see keyboard.spec).
  if ('photoChooser' in c.outcome) page.on('filechooser', () => {});
  await openBrandPage(page, suite.portal.baseUrl, c.brandId, 'nl', 'be');
  if (c.afterEmptySubmit) {
    await page.click(SUBMIT);
    await page.waitForSelector(fieldError(c.leave.name));
  }
  await page.locator(field(c.leave.name)).fill(c.leave.value);
}

async function errorShows(page: Page, name: string): Promise<boolean> {
  return (await page.locator(fieldError(name)).count()) > 0;
}

for (const p of PRESSES) {
  describe(`a ${p.how} press (${p.viewport} viewport) on a control below a field whose error changes`, () => {
    for (const c of PRESS_CASES) {
      const change = c.leave.errorAfter ? 'shows an error' : 'loses its error';
      it(`${c.brandId}: the ${c.control} gets the press when ${c.leave.name} ${change}`, () =>
        suite.withPage(async (page) => {
          await prepare(page, c);
          let result: PressResult = { moved: 0, click: 'none' };
          await happened(c)(page, p.press(page, c.selector, HUMAN_HOLD_MS).then((r) => (result = r)));
          expect(result, 'the control stayed under the pointer and the click landed on it').toEqual({ moved: 0, click: 'control' });
          if (c.control !== 'language switch') {
            await expect.poll(() => errorShows(page, c.leave.name), { message: 'the blur took effect after the click' }).toBe(c.leave.errorAfter);
          }
        }, p.options));
    }

    it('kuppersbusch: the terms checkbox gets a press with no pause between down and up', () =>
      suite.withPage(async (page) => {
        const c = NO_PAUSE_CASE;
        await prepare(page, c);
        const result = await p.press(page, c.selector, 0);
        expect(result.click).toBe('control');
        await expect.poll(() => page.locator(c.selector).isChecked()).toBe(true);
        await expect.poll(() => errorShows(page, c.leave.name)).toBe(c.leave.errorAfter);
      }, p.options));
  });
}
