/**
 * A press counts, in each engine (issue 22): on the extended form, after
 * Verzenden showed the errors, the customer fills a field above the terms
 * checkbox and presses the checkbox with the mouse as a person does (down,
 * 150 ms, up). The press moves focus out of the field, whose error text goes
 * (or, for a wrong dealer address, appears); that must not move the checkbox
 * from under the pointer: the press ticks it.
 */
import { describe, expect, it } from 'vitest';
import { SUMMARY_TEXT } from '../e2e/support/fixtures';
import { engineSuite } from './support/engine-suite';
import { SUBMIT, field, fieldError, humanPress, openForm, waitUntil } from './support/form-steps';

const suite = engineSuite();
// The whole form in view, errors and all: scrolling cannot hide a shift of the checkbox.
const TALL = { width: 1280, height: 3400 };

it('a human press ticks the terms checkbox when nothing moves', () =>
  suite.withPage(async (page) => {
    await openForm(page, suite.portal.baseUrl, 'kuppersbusch', 'nl', 'be');
    await humanPress(page, field('isAkkoord'), 150);
    await expect.poll(() => page.checked(field('isAkkoord')), { timeout: 2_000 }).toBe(true);
  }, TALL));

describe.each([
  { name: 'description', value: 'De oven wordt niet meer warm.', shift: 'its error goes' },
  { name: 'notification', value: 'dealer@', shift: 'its error appears' },
])('kuppersbusch (extended), after an empty Verzenden', ({ name, value, shift }) => {
  it(`${name} filled (leaving it, ${shift}), then one human press ticks the terms checkbox`, () =>
    suite.withPage(async (page) => {
      await openForm(page, suite.portal.baseUrl, 'kuppersbusch', 'nl', 'be');
      await page.click(SUBMIT);
      await waitUntil(() => page.count(fieldError('description')), 'the errors of the empty form');
      expect(await page.text('main')).toContain(SUMMARY_TEXT.nl);
      await page.fill(field(name), value);
      await humanPress(page, field('isAkkoord'), 150);
      await expect.poll(() => page.checked(field('isAkkoord')), { timeout: 2_000, message: 'the press ticked the checkbox' }).toBe(true);
    }, TALL));
});
