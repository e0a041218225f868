/**
 * The five changes of docs/forms-as-data.md, made as a brand owner makes them (brands/ and schemas/
 * only, in a private copy of the project): a brand like Fratelli, a field "Aankoopplaats" on the
 * extended form, a form "outdoor" with one photo and "Draaiuren" for a new brand, German for Teka
 * only, Germany for that new brand only. Then, as they would: validate, build, npm start, the pages
 * in Chromium, a request sent with scripts and one without, the desk's mail, the staff's commands;
 * and each usual mistake in such a change, which validate names in one line and which stops the build.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { simpleParser } from 'mailparser';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runValidate } from '../../src/cli/validate';
import { addGermanFor, addGermanyFor, addOutdoorForm, addPurchasePlace } from '../support/data-changes';
import { freePort } from '../support/free-port';
import { launchChromium, openPage } from './support/browser';
import { photo, uniqueEmail } from './support/fixtures';
import { field, fillValues, SUBMIT, waitForHydration } from './support/form-page';
import { copyWholeProject, exitOf, runNpm, waitForUrl, type Running } from './support/project-copy';

const npm = (dir: string, ...args: string[]) => spawnSync('npm', args, { cwd: dir, encoding: 'utf8', timeout: 180_000 });

describe('forms, fields, languages and countries changed as data only', () => {
  let project: ReturnType<typeof copyWholeProject>;
  let dataDir: string;
  let server: Running;
  let base: string;
  let browser: Browser;
  const dir = () => project.dir;
  const editJson = (file: string, edit: (data: any) => void) => {
    const path = join(dir(), file);
    const data = JSON.parse(readFileSync(path, 'utf8'));
    edit(data);
    writeFileSync(path, JSON.stringify(data, null, 2));
  };

  beforeAll(async () => {
    project = copyWholeProject();
    dataDir = mkdtempSync(join(tmpdir(), 'forms-as-data-e2e-'));
    // As a brand owner starts them (the copy holds the spec's brands and data).
    for (const id of ['smeg', 'tuinco']) expect(npm(dir(), 'run', 'brand', '--', 'new', id, '--like', 'fratelli').status).toBe(0);
    addPurchasePlace(dir());
    addOutdoorForm(dir());
    editJson('brands/tuinco.json', (b) => {
      b.form = 'outdoor';
      b.serviceDesk.language = 'nl';
    });
    addGermanFor(dir(), 'teka');
    addGermanyFor(dir(), 'tuinco');
    browser = await launchChromium();
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
    await browser?.close();
    project?.remove();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('validate finds no problem, and counts the German texts that fall back to Dutch in a warning', () => {
    const lines: string[] = [];
    expect(runValidate(['--root', dir()], (l) => lines.push(l))).toBe(0);
    expect(lines).toContainEqual(expect.stringMatching(/^schemas\/i18n\/de\.json:1:1: warning: de \(Deutsch\): 4 of \d+ texts translated; the other \d+ show in Dutch/));
    expect(lines.at(-1)).toMatch(/^OK: \d+ brand files, the forms .*\boutdoor\b.*, the languages de, .* and the countries have no problems \(1 warning above\)\.$/);
  });

  it('builds, and npm start serves every page of the changed portal', async () => {
    const build = npm(dir(), 'run', 'build');
    expect(build.status, build.stdout + build.stderr).toBe(0);
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    server = runNpm(dir(), ['start'], { PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, SMTP_URL: '', MIN_FREE_DISK_MB: '0', LOG_LEVEL: 'warn', RATE_LIMIT_SUBMITS: '1000', RATE_LIMIT_FORM_POSTS: '1000', RATE_LIMIT_UPLOADS: '1000' });
    await waitForUrl(`${base}/healthz`, server, 120_000);
    const status = async (path: string) => (await fetch(`${base}${path}`)).status;
    expect(await status('/smeg/fr/be')).toBe(200);
    expect(await status('/tuinco/nl/de')).toBe(200);
    expect(await status('/teka/de/nl')).toBe(200);
    // Germany is Tuinco's only, German Teka's only.
    expect(await status('/kuppersbusch/nl/de')).toBe(404);
    expect(await status('/ilve/de/be')).toBe(404);
  }, 240_000);

  async function open(path: string): Promise<Page> {
    const { page, problems } = await openPage(browser);
    await page.goto(`${base}${path}`);
    await waitForHydration(page, SUBMIT);
    expect(problems.errors).toEqual([]);
    return page;
  }

  const labels = (page: Page) => page.$$eval('form label', (els) => els.map((el) => (el.textContent ?? '').trim()));
  const countryOptions = (page: Page) => page.$$eval(`${field('country')} option`, (els) => els.map((el) => el.textContent ?? ''));

  it('shows Aankoopplaats after Aankoopdatum on the extended form, and German where Teka offers it', async () => {
    const page = await open('/teka/de/nl');
    const shown = await labels(page);
    expect(shown.indexOf('Aankoopplaats')).toBe(shown.indexOf('Aankoopdatum') + 1);
    expect(await page.getAttribute('html', 'lang')).toBe('de');
    expect(await page.textContent(SUBMIT)).toContain('Senden');
    expect(await page.getAttribute('[aria-label="DE Deutsch"]', 'aria-pressed')).toBe('true');
    await page.context().close();
    const kuppersbusch = await open('/kuppersbusch/nl/nl');
    expect(await labels(kuppersbusch)).toContain('Aankoopplaats');
    expect(await countryOptions(kuppersbusch)).not.toContain('Duitsland');
    expect(await kuppersbusch.$('[aria-label="DE Deutsch"]')).toBeNull();
    await kuppersbusch.context().close();
  });

  it('sends an outdoor request with one photo, operating hours and a German postal code; the desk gets one attachment', async () => {
    const page = await open('/tuinco/nl/de');
    expect(await page.$$('input[type="file"]')).toHaveLength(1);
    expect(await countryOptions(page)).toContain('Duitsland');
    const email = uniqueEmail('outdoor');
    await fillValues(page, {
      last_name: 'Jansen', street_name: 'Gartenweg', house_number: '3', postal_code: '1011', city: 'Berlin', client_email: email,
      phone_number: '+49 30 123456', brand: 'Tuinco', type: 'Mower 5', serial_number: 'SN-9', purchase_date: '2024-03-01',
      description: 'Start niet meer.', operating_hours: '100001',
    });
    await page.click(SUBMIT);
    expect(await page.textContent(`${field('postal_code')}__error`)).toContain('Ongeldige postcode');
    expect(await page.textContent(`${field('operating_hours')}__error`)).toContain('Invalid number');
    await fillValues(page, { postal_code: '10115', operating_hours: '1200' });
    await page.setInputFiles(field('upload_1'), { name: 'plaatje.jpg', mimeType: 'image/jpeg', buffer: await photo('jpeg') });
    await page.waitForFunction((sel) => Boolean(document.querySelector<HTMLInputElement>(sel)?.value), field('image1'));
    await page.click(SUBMIT);
    await page.getByText('Wij hebben uw aanvraag ontvangen').waitFor({ timeout: 30_000 });
    const desk = await deskMail(email);
    expect(desk.attachments).toHaveLength(1);
    expect(desk.text).toContain('Draaiuren: 1200');
    expect(desk.text).toContain('Land: Duitsland');
    await page.context().close();
  });

  it('takes the outdoor form posted without scripts', async () => {
    const { page } = await openPage(browser, { javaScriptEnabled: false });
    await page.goto(`${base}/tuinco/nl/de`);
    const email = uniqueEmail('outdoor-no-script');
    await fillValues(page, {
      last_name: 'Jansen', street_name: 'Gartenweg', house_number: '3', postal_code: '10115', city: 'Berlin', client_email: email,
      phone_number: '+49 30 123456', brand: 'Tuinco', type: 'Mower 5', serial_number: 'SN-9', purchase_date: '2024-03-01',
      description: 'Start niet meer.', operating_hours: '75',
    });
    await page.selectOption(field('country'), 'de');
    await page.setInputFiles(field('upload_1'), { name: 'plaatje.jpg', mimeType: 'image/jpeg', buffer: await photo('jpeg') });
    await Promise.all([page.waitForURL(`${base}/tuinco/nl/de`), page.click(SUBMIT)]);
    await page.getByText('Wij hebben uw aanvraag ontvangen').waitFor();
    expect((await deskMail(email)).text).toContain('Draaiuren: 75');
    await page.context().close();
  });

  it('the staff commands export the new fields, show the one photo, and erase the request', async () => {
    const env = { DATA_DIR: dataDir };
    const exported = runNpm(dir(), ['run', '--silent', 'requests', '--', 'export'], env);
    expect(await exitOf(exported)).toBe(0);
    const header = exported.output().split('\r\n').find((line) => line.includes('Draaiuren')) ?? '';
    expect(header).toContain('"Aankoopplaats"');
    const email = (await deskMails()).find((m) => m.text?.includes('Draaiuren: 1200'))!.replyTo!.value[0].address!;
    const erase = runNpm(dir(), ['run', '--silent', 'requests', '--', 'erase', '--email', email], env);
    expect(await exitOf(erase)).toBe(0);
    expect(erase.output()).toMatch(/photos of those requests \(table photos\)\s+1\n/);
  }, 60_000);

  async function deskMails() {
    const outbox = join(dataDir, 'outbox');
    // The outbox folder appears with the first mail the server writes; until then there is none.
    if (!existsSync(outbox)) return [];
    const files = readdirSync(outbox).filter((f) => f.endsWith('.desk.eml'));
    return Promise.all(files.map((f) => simpleParser(readFileSync(join(outbox, f)))));
  }

  async function deskMail(email: string) {
    for (let waited = 0; waited < 30_000; waited += 200) {
      const found = (await deskMails()).find((m) => m.replyTo?.value[0].address === email);
      if (found) return found;
      await new Promise((r) => setTimeout(r, 200));
    }
    throw new Error(`no desk mail for ${email}`);
  }

  /** A usual mistake in such a change: [what, how to make it, the one line validate must print]. */
  const mistakes: [string, () => void, RegExp][] = [
    ['a field without a Dutch label', () => editJson('schemas/i18n/nl.json', (t) => delete t.fields.operating_hours),
      /^schemas\/forms\/outdoor\.ui\.json:\d+:\d+ \/ui:options\/sections\/1\/fields\/\d+: the field "operating_hours" has no Dutch label: add "fields\.operating_hours" to schemas\/i18n\/nl\.json/],
    ['a widget the form does not have', () => editJson('schemas/forms/outdoor.ui.json', (ui) => (ui.operating_hours['ui:widget'] = 'number')),
      /^schemas\/forms\/outdoor\.ui\.json:\d+:\d+ \/operating_hours\/ui:widget: "number" is not a widget the form has; use "text", "textarea", "select", "hidden" or "termsCheckbox"/],
    ['a photo without a target', () => editJson('schemas/forms/outdoor.ui.json', (ui) => delete ui.upload_1['ui:options'].target),
      /^schemas\/forms\/outdoor\.ui\.json:\d+:\d+ \/upload_1\/ui:options: this photo has no "target": add "ui:options": \{ "target": "<field>" \}/],
    ['a brand naming a form that does not exist', () => editJson('brands/tuinco.json', (b) => (b.form = 'outdor')),
      /^brands\/tuinco\.json:\d+:\d+ \/form: "outdor" is not a form of this portal; schemas\/forms has .*"outdoor".*Did you mean "outdoor"\? Check the spelling/],
    ['a brand naming a language that does not exist', () => editJson('brands/smeg.json', (b) => (b.locales = ['nl', 'fr', 'es'])),
      /^brands\/smeg\.json:\d+:\d+ \/locales\/2: "es" is not a language of this portal; schemas\/i18n has "de", .*\. Add schemas\/i18n\/es\.json/],
    ['a brand naming a country that does not exist', () => editJson('brands/smeg.json', (b) => b.countries.push('es')),
      /^brands\/smeg\.json:\d+:\d+ \/countries\/\d+: "es" is not a country of this portal; schemas\/countries\.json has .*"de"\. Add it there/],
  ];

  it.each(mistakes)('%s: validate says it in one line, and the build stops', (_what, make, expected) => {
    const saved = new Map(['schemas/i18n/nl.json', 'schemas/forms/outdoor.ui.json', 'brands/tuinco.json', 'brands/smeg.json'].map((f) => [f, readFileSync(join(dir(), f), 'utf8')]));
    make();
    try {
      const lines: string[] = [];
      expect(runValidate(['--root', dir()], (l) => lines.push(l))).toBe(1);
      const problems = lines.filter((l) => l !== '' && !/: warning: /.test(l) && !/^\s*\d+ problems? in/.test(l));
      expect(problems).toHaveLength(1);
      expect(problems[0]).toMatch(expected);
      const build = npm(dir(), 'run', 'build');
      expect(build.status).not.toBe(0);
      expect(build.stdout).toContain(problems[0]);
    } finally {
      for (const [file, text] of saved) writeFileSync(join(dir(), file), text);
    }
  }, 60_000);
});
