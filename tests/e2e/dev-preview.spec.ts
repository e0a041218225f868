/**
 * `npm run dev` follows every data file, as a brand owner edits them (in a
 * private copy of the project, in Chromium): a mistake in a form file, the
 * shared fields, a language file or countries.json shows validate's message
 * over the page (the time it took is printed), also after a reload; the fix brings the
 * page back; a valid change (a label, a new field) shows without a restart.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../support/free-port';
import { launchChromium, openPage, reloadPage } from './support/browser';
import { copyWholeProject, runNpm, waitForUrl, type Running } from './support/project-copy';

describe('npm run dev follows the forms, texts and countries', () => {
  let project: ReturnType<typeof copyWholeProject>;
  let dev: Running;
  let browser: Browser;
  let page: Page;
  let devUrl: string;
  const file = (name: string) => join(project.dir, 'schemas', name);

  beforeAll(async () => {
    project = copyWholeProject();
    browser = await launchChromium();
    const port = await freePort();
    devUrl = `http://127.0.0.1:${port}`;
    dev = runNpm(project.dir, ['run', 'dev', '--', '--port', String(port), '--strictPort', '--host', '127.0.0.1']);
    await waitForUrl(devUrl, dev, 90_000);
    ({ page } = await openPage(browser));
    await page.goto(`${devUrl}/ilve/nl/be`);
    await formShown();
  }, 180_000);
  afterAll(async () => {
    await dev?.stop();
    await browser?.close();
    project?.remove();
  });

  const overlayText = () => page.locator('vite-error-overlay').evaluate((el) => el.shadowRoot?.textContent ?? '').catch(() => '');
  const formShown = () => page.getByRole('button', { name: 'Verzenden' }).waitFor({ timeout: 60_000 });

  /** Writes the file and waits for the overlay to say `message`; returns how long that took (ms). */
  async function breakAndRead(path: string, text: string, message: RegExp): Promise<number> {
    const saved = Date.now();
    writeFileSync(path, text);
    await expect.poll(overlayText, { timeout: 30_000, interval: 50 }).toMatch(message);
    return Date.now() - saved;
  }

  const mistakes: [what: string, name: string, broken: (text: string) => string, message: RegExp][] = [
    ['a form file that is not JSON', 'forms/simple.ui.json', (text) => text.replace('"ui:options": {', '"ui:options": {,'), /schemas\/forms\/simple\.ui\.json:\d+:\d+: a value was expected here/],
    ['a widget the form does not have', 'forms/simple.ui.json', (text) => text.replace('"ui:widget": "textarea"', '"ui:widget": "richtext"'),
      /schemas\/forms\/simple\.ui\.json:\d+:\d+ \/description\/ui:widget: "richtext" is not a widget the form has/],
    ['a form schema whose field refers to no shared field', 'forms/simple.schema.json', (text) => text.replace('fields.json#/definitions/city', 'fields.json#/definitions/town'),
      /schemas\/forms\/simple\.schema\.json:\d+:\d+ \/properties\/city\/\$ref: fields\.json has no field "town"/],
    ['a shared field that is not JSON', 'forms/fields.json', (text) => text.replace('"definitions": {', '"definitions": {{'), /schemas\/forms\/fields\.json:\d+:\d+: a name between double quotes was expected here/],
    ['a language file without its name', 'i18n/fr.json', (text) => text.replace('"name": "Français"', '"name": ""'), /schemas\/i18n\/fr\.json:\d+:\d+ \/language\/name: the language's own name is missing/],
    ['countries.json with a pattern that is none', 'countries.json', (text) => text.replace('"^[0-9]{4}$"', '"^[0-9]{4$("'), /schemas\/countries\.json:\d+:\d+ \/countries\/be\/postalCode: this is not a pattern/],
  ];

  // Each wait below has its own patience and message; the test's own time covers their sum, so a slow machine
  // (CI's loaded run once passed 60 s here) is waited for, and a wait that never ends names itself.
  it.each(mistakes)('%s: validate’s message over the page, also after a reload; the fix brings the page back', { timeout: 180_000 }, async (_what, name, broken, message) => {
    const original = readFileSync(file(name), 'utf8');
    const changed = broken(original);
    expect(changed).not.toBe(original);
    try {
      // The time is printed, not asserted (house rule: no timed assertions; CI runs loaded). Measured on 2 cores:
      // under 2 s at a load of 9-12, 2.1-4.1 s at 14-29.
      console.log(`npm run dev: ${name} broken, validate's message over the page after ${await breakAndRead(file(name), changed, message)} ms`);
      page = await reloadPage(page);
      await expect.poll(overlayText, { timeout: 30_000 }).toMatch(message);
    } finally {
      writeFileSync(file(name), original);
    }
    await page.locator('vite-error-overlay').waitFor({ state: 'detached', timeout: 30_000 });
    await formShown();
  });

  it('a changed label and a new field show on the page without a restart', async () => {
    const texts = readFileSync(file('i18n/nl.json'), 'utf8');
    const schema = readFileSync(file('forms/simple.schema.json'), 'utf8');
    const ui = readFileSync(file('forms/simple.ui.json'), 'utf8');
    try {
      const nl = JSON.parse(texts);
      nl.fields.serial_number = 'Serienummer (op het typeplaatje)';
      nl.fields.colour = 'Kleur van het apparaat';
      writeFileSync(file('i18n/nl.json'), JSON.stringify(nl, null, 2));
      await page.getByText('Serienummer (op het typeplaatje)').waitFor({ timeout: 30_000 });

      const form = JSON.parse(schema);
      form.properties.colour = { type: 'string', maxLength: 30, plainText: 'line', title: 'Colour' };
      const layout = JSON.parse(ui);
      layout['ui:options'].sections.find((s: { id: string }) => s.id === 'device').fields.push('colour');
      writeFileSync(file('forms/simple.ui.json'), JSON.stringify(layout, null, 2));
      writeFileSync(file('forms/simple.schema.json'), JSON.stringify(form, null, 2));
      await page.getByLabel('Kleur van het apparaat').waitFor({ timeout: 30_000 });
    } finally {
      writeFileSync(file('forms/simple.schema.json'), schema);
      writeFileSync(file('forms/simple.ui.json'), ui);
      writeFileSync(file('i18n/nl.json'), texts);
    }
    await page.getByText('Serienummer', { exact: true }).waitFor({ timeout: 30_000 });
    expect(await page.getByLabel('Kleur van het apparaat').count()).toBe(0);
  });

  // The studio's first load in `npm run dev` compiles its editors and live page: on a busy machine, tens of seconds.
  it('opens the brand studio at /studio, over the files on disk as they are now', { timeout: 180_000 }, async () => {
    const label = 'Achternaam (studio)';
    const text = readFileSync(file('i18n/nl.json'), 'utf8');
    writeFileSync(file('i18n/nl.json'), text.replace('"last_name": "Naam"', `"last_name": "${label}"`));
    try {
      const { page: studio } = await openPage(browser);
      // React's development mode mounts twice: a picture's blob: URL must outlive that.
      const failed: string[] = [];
      studio.on('requestfailed', (request) => failed.push(`${request.url()}: ${request.failure()?.errorText}`));
      await studio.goto(`${devUrl}/studio`);
      await studio.getByRole('button', { name: 'brands/ilve.json', exact: true }).click({ timeout: 60_000 });
      await studio.locator('iframe').contentFrame().getByText(label, { exact: true }).waitFor({ timeout: 90_000 });
      expect(await studio.getByRole('heading', { level: 1 }).textContent()).toMatch(/Brand studio|Merkstudio/);
      await studio.locator('.editor-pane img').first().waitFor();
      expect(failed).toEqual([]);
    } finally {
      writeFileSync(file('i18n/nl.json'), text);
    }
  });
});
