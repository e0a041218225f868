/**
 * The brand studio in Chromium, for everyone: axe finds nothing (WCAG 2.2 AA) in English and Dutch,
 * in every state a brand owner meets (fields, JSON text, the texts side by side, a dialog, problems
 * found, the hand-over); it works from the keyboard alone; a finding opens its place in the JSON text
 * and its field; a form's files wait for the brand owner to read what a form edit means; edits
 * survive a reload; and the live page checks as the real page does while sending nothing.
 */
import AxeBuilder from '@axe-core/playwright';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { ROOT, SPEC_BUILD } from './support/paths';
import { browserSuite } from './support/suite';

const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];
const suite = browserSuite({ STUDIO: 'on' });
const BRANDS = SPEC_BUILD.brandsDir.slice(ROOT.length);
const SCHEMAS = SPEC_BUILD.schemasDir.slice(ROOT.length);

/** axe over the studio and its live page; `studioOnly`: not the page, which shows the brand owner's mistake as customers would get it. */
async function violations(page: Page, studioOnly = false): Promise<string[]> {
  const builder = new AxeBuilder({ page }).withTags(TAGS);
  const result = await (studioOnly ? builder.exclude('iframe') : builder).analyze();
  return result.violations.map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).slice(0, 5).join(', ')}`);
}

async function openStudio(page: Page, language: 'English' | 'Nederlands' = 'English'): Promise<void> {
  await page.goto(`${suite.portal.baseUrl}/studio/`);
  await page.getByRole('button', { name: language, exact: true }).click();
  await page.locator('iframe').contentFrame().locator('.brand-page').waitFor();
}

const openFile = (page: Page, path: string) => page.getByRole('button', { name: path, exact: true }).click();
const problems = (page: Page) => page.locator('.studio-finding--error');

describe('the brand studio', () => {
  for (const language of ['English', 'Nederlands'] as const) {
    // Six axe runs over the whole studio and its live page: on a busy machine, minutes.
    it(`has no axe violations in ${language}, in each state a brand owner meets`, { timeout: 240_000 }, () =>
      suite.withPage(async (page) => {
        await openStudio(page, language);
        await openFile(page, `${BRANDS}/teka.json`);
        expect(await violations(page), 'fields').toEqual([]);
        await page.locator('#root_name').fill('');
        await expect.poll(() => problems(page).count()).toBeGreaterThan(0);
        // The live page now lacks the brand's name (its logo's text): the findings say so; the studio around it stays sound.
        expect(await violations(page, true), 'a problem found, the hand-over stopped').toEqual([]);
        await page.locator('#root_name').fill('Teka');
        await page.locator('.editor-pane__views button').nth(1).click();
        expect(await violations(page), 'JSON text').toEqual([]);
        await openFile(page, `${SCHEMAS}/i18n/fr.json`);
        await page.locator('.editor-pane__views button').nth(0).click();
        expect(await violations(page), 'texts side by side').toEqual([]);
        await page.locator('.studio-files__actions button').first().click();
        expect(await violations(page), 'the new-brand dialog').toEqual([]);
      }));
  }

  it('works from the keyboard alone: skip to the editor, a new brand through its dialog, focus back where it was', () =>
    suite.withPage(async (page) => {
      await openStudio(page);
      // As a person arrives: the page loaded, nothing focused yet.
      await page.reload();
      await page.locator('#studio-editor').waitFor();
      await page.keyboard.press('Tab');
      expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Skip to the editor');
      await page.keyboard.press('Enter');
      expect(await page.evaluate(() => document.activeElement?.id)).toBe('studio-editor');
      await page.getByRole('button', { name: 'New brand…' }).focus();
      await page.keyboard.press('Enter');
      await expect.poll(() => page.evaluate(() => document.activeElement?.id), { message: 'the dialog takes the focus' }).toBe('new-brand-name');
      await page.keyboard.type('Acme Home');
      await page.keyboard.press('Tab');
      await page.keyboard.type('Acme');
      await page.keyboard.press('Enter');
      await expect.poll(() => page.getByRole('alert').textContent()).toContain('"Acme" cannot be a brand id');
      expect(await page.locator('#new-brand-id').getAttribute('aria-invalid')).toBe('true');
      await page.locator('#new-brand-id').fill('acme-home');
      await page.keyboard.press('Enter');
      await expect.poll(() => page.locator('#editor-heading').textContent()).toBe(`${BRANDS}/acme-home.json`);
      await expect.poll(() => page.evaluate(() => document.activeElement?.textContent), { message: 'focus returns to the button that opened it' }).toBe('New brand…');
      await page.getByRole('button', { name: 'New language…' }).focus();
      await page.keyboard.press('Enter');
      await page.keyboard.press('Escape');
      expect(await page.locator('dialog[open]').count(), 'Escape closes a dialog').toBe(0);
    }));

  it('a finding opens its place in the JSON text, and its field', () =>
    suite.withPage(async (page) => {
      await openStudio(page);
      await openFile(page, `${BRANDS}/ilve.json`);
      await page.getByRole('textbox', { name: 'Main colour (buttons, links)', exact: true }).fill('#12345');
      const finding = problems(page).filter({ hasText: '/theme/primary' });
      await expect.poll(() => finding.count()).toBe(1);
      await finding.getByRole('button', { name: /^Show in JSON text/ }).click();
      const place = await page.evaluate(() => {
        const root = document.querySelector('.json-editor')!.shadowRoot!;
        const selection = (root as ShadowRoot & { getSelection?: () => Selection | null }).getSelection?.() ?? document.getSelection();
        return { focused: root.activeElement?.classList.contains('cm-content'), line: selection?.anchorNode?.parentElement?.closest('.cm-line')?.textContent };
      });
      expect(place.focused).toBe(true);
      expect(place.line).toContain('"primary": "#12345"');
      await finding.getByRole('button', { name: /^Show the field/ }).click();
      // The fields' view is drawn again before the field takes focus: a frame later on a busy machine.
      await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('root_theme_primary');
      expect(await page.locator('#root_theme_primary').getAttribute('aria-invalid')).toBe('true');
    }));

  it("a form's files are read only until the brand owner has read what editing a form means", () =>
    suite.withPage(async (page) => {
      await openStudio(page);
      await openFile(page, `${SCHEMAS}/forms/simple.schema.json`);
      await page.getByRole('button', { name: 'JSON text', exact: true }).click();
      expect(await page.getByRole('note').textContent()).toContain('keep their own copy of this form');
      const readOnly = () => page.evaluate(() => document.querySelector('.json-editor')!.shadowRoot!.querySelector('.cm-content')!.getAttribute('aria-readonly'));
      expect(await readOnly()).toBe('true');
      await page.locator('.cm-content').click();
      await page.keyboard.type('oops');
      expect(page.locator('.handover__changes'), 'typing changed nothing').toBeDefined();
      expect(await page.locator('.handover__changes').count()).toBe(0);
      await page.getByRole('button', { name: 'I understand: let me edit this form' }).click();
      expect(await readOnly()).toBeNull();
    }));

  it('edits are kept in the browser across a reload, and only there', () =>
    suite.withPage(async (page) => {
      await openStudio(page);
      await openFile(page, `${BRANDS}/fratelli.json`);
      await page.locator('#root_name').fill('Fratelli Uno');
      await expect.poll(() => page.locator('.handover__changes').textContent()).toContain(`${BRANDS}/fratelli.json`);
      await page.reload();
      await page.locator('.handover__changes').waitFor();
      expect(await page.locator('#root_name').inputValue()).toBe('Fratelli Uno');
      const served = await (await fetch(`${suite.portal.baseUrl}/studio/project.json`)).json();
      expect(served.files[`${BRANDS}/fratelli.json`].text, 'nothing went to the server').not.toContain('Fratelli Uno');
    }));

  // `npm run dev` reloads the frame when it has bundled a dependency the page met late, or a data file changed.
  it('the live page comes back after its frame reloads, with the edits so far', () =>
    suite.withPage(async (page) => {
      await openStudio(page);
      await openFile(page, `${BRANDS}/ilve.json`);
      await page.locator('#root_name').fill('Ilve Due');
      const frame = page.locator('iframe').contentFrame();
      await frame.getByRole('img', { name: 'Ilve Due' }).waitFor();
      await frame.locator('body').evaluate(() => location.reload());
      await frame.locator('.brand-page').waitFor();
      await frame.getByRole('img', { name: 'Ilve Due' }).waitFor({ timeout: 10_000 });
    }));

  it('the live page checks as the real page does, and sends nothing', () =>
    suite.withPage(async (page) => {
      const sent: string[] = [];
      page.on('request', (request) => request.url().includes('/api/') && sent.push(request.url()));
      await openStudio(page);
      await openFile(page, `${BRANDS}/kuppersbusch.json`);
      const frame = page.locator('iframe').contentFrame();
      await frame.locator('.brand-page--kuppersbusch button[type="submit"]').click();
      await expect.poll(() => frame.locator('[aria-invalid="true"]').count()).toBeGreaterThan(0);
      expect(await frame.locator('#root_last_name__error').textContent()).toContain('This field is required');
      await frame.locator('#root_upload_1').setInputFiles({ name: 'plate.jpg', mimeType: 'image/jpeg', buffer: Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0, 0, 0]) });
      await expect.poll(() => frame.locator('#root_image1').inputValue()).toMatch(/\.jpg$/);
      expect(sent, 'no upload, no request').toEqual([]);
    }));
});
