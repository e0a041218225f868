/**
 * The path of a brand author who is not a developer (docs/adding-a-brand.md),
 * in a private copy of the project: start a brand with npm run brand, check
 * it, see it in npm run dev's preview, then make each usual mistake and read
 * what the portal says about it.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runValidate } from '../../src/cli/validate';
import { freePort } from '../support/free-port';
import { launchChromium, openPage, reloadPage } from './support/browser';
import { copyWholeProject, runNpm, waitForUrl, type Running } from './support/project-copy';

const npm = (dir: string, ...args: string[]) => spawnSync('npm', args, { cwd: dir, encoding: 'utf8', timeout: 120_000 });

describe('a brand author adds Acme', () => {
  let project: ReturnType<typeof copyWholeProject>;
  let dev: Running;
  let browser: Browser;
  let page: Page;
  let devUrl: string;
  let brandFile: string;
  let original: string;

  beforeAll(async () => {
    project = copyWholeProject();
    brandFile = join(project.dir, 'brands/acme.json');
    browser = await launchChromium();
  });
  afterAll(async () => {
    await dev?.stop();
    await browser?.close();
    project?.remove();
  });

  it('npm run brand -- new acme --like fratelli makes the brand and reports it valid', () => {
    const made = npm(project.dir, 'run', 'brand', '--', 'new', 'acme', '--like', 'fratelli');
    expect(made.stdout).toContain('Created brands/acme.json, brands/assets/acme-logo.svg, brands/assets/acme-favicon.svg as a copy of fratelli.');
    expect(made.status).toBe(0);
    const validate = npm(project.dir, 'run', 'validate');
    expect(validate.stdout).toMatch(/OK: 7 brand files/);
    expect(validate.status).toBe(0);
    original = readFileSync(brandFile, 'utf8');
  });

  it('npm run dev opens on a preview that lists Acme with its pages and colours, and the page renders', async () => {
    const port = await freePort();
    devUrl = `http://127.0.0.1:${port}`;
    dev = runNpm(project.dir, ['run', 'dev', '--', '--port', String(port), '--strictPort', '--host', '127.0.0.1']);
    await waitForUrl(devUrl, dev, 90_000);
    ({ page } = await openPage(browser));
    const reactErrors: string[] = [];
    page.on('console', (m) => m.type() === 'error' && reactErrors.push(m.text()));
    await page.goto(`${devUrl}/`);
    await page.getByRole('heading', { level: 1, name: 'Brand preview' }).waitFor({ timeout: 60_000 });
    const acme = page.getByRole('listitem').filter({ has: page.getByRole('heading', { level: 2, name: /Acme/ }) });
    expect(await acme.getByRole('link').allTextContents()).toEqual([
      '/acme/nl/be', '/acme/nl/fr', '/acme/nl/nl', '/acme/nl/lu', '/acme/fr/be', '/acme/fr/fr', '/acme/fr/nl', '/acme/fr/lu',
    ]);
    expect(await acme.getByRole('definition').first().textContent()).toBe('#5b3a8c');

    await acme.getByRole('link', { name: '/acme/fr/be' }).click();
    await page.getByRole('img', { name: 'Acme' }).waitFor({ timeout: 60_000 });
    expect(await page.title()).toBe('Acme | Service');
    // The form of Fratelli, in French: the page renders, not only its header.
    await page.getByRole('button', { name: 'Envoyer' }).waitFor({ timeout: 60_000 });
    // From the index to a brand page, React's development checks found nothing (it once said use() was called conditionally).
    expect(reactErrors).toEqual([]);
  });

  it.each([
    ['cannot be read', () => '\uFEFF' + original, 'brands/acme.json:1:1: the file starts with an invisible byte-order mark (BOM)'],
    ['does not validate', () => original.replace('"primary": "#5b3a8c"', '"primary": "red"'), '/theme/primary: "red": Not a colour this file understands.'],
  ])('a brand file that %s shows validate’s message over the page, also after a reload, and the page comes back on save', async (_what, broken, message) => {
    // Vite may reload the page while the overlay is read (the file changed again): read until the message is there.
    const overlayText = () => page.locator('vite-error-overlay').evaluate((el) => el.shadowRoot?.textContent ?? '').catch(() => '');
    writeFileSync(brandFile, broken());
    await page.locator('vite-error-overlay').waitFor({ timeout: 30_000 });
    await expect.poll(overlayText, { timeout: 30_000 }).toContain(message);
    page = await reloadPage(page);
    await page.locator('vite-error-overlay').waitFor({ timeout: 30_000 });
    await expect.poll(overlayText, { timeout: 30_000 }).toContain(message);
    writeFileSync(brandFile, original);
    await page.locator('vite-error-overlay').waitFor({ state: 'detached', timeout: 30_000 });
    await page.getByRole('img', { name: 'Acme' }).waitFor({ timeout: 60_000 });
  });

  /** Each usual mistake: [what, how to make it, the line validate must print]. */
  const mistakes: [string, () => void, RegExp][] = [
    ['a byte-order mark', () => writeFileSync(brandFile, '\uFEFF' + original),
      /^brands\/acme\.json:1:1: the file starts with an invisible byte-order mark \(BOM\).*Save the file as "UTF-8" without BOM/m],
    ['curly quotes', () => writeFileSync(brandFile, original.replace('"name": "Acme"', '“name”: “Acme”')),
      /^brands\/acme\.json:5:3: “name” uses curly quotes .*Names and texts must be between straight double quotes/m],
    ['a // comment', () => writeFileSync(brandFile, original.replace('  "name": "Acme",', '  // our new brand\n  "name": "Acme",')),
      /^brands\/acme\.json:5:3: JSON files cannot contain comments \(\/\/\)\. Remove the comment/m],
    ['a trailing comma', () => writeFileSync(brandFile, original.replace('"lu"]', '"lu",]')),
      /^brands\/acme\.json:7:\d+: there is a comma after the last item of a list\. Remove this comma/m],
    ['a missing French text', () => edit((b) => (b.header.title = { nl: 'Reparatie aanvragen' })),
      /^brands\/acme\.json:\d+:\d+ \/header\/title: the text in "fr" \(Français\) is missing\. The brand's pages are in "nl" \(Nederlands\) and "fr" \(Français\): add "fr": "…" inside it/m],
    ['a duplicate id', () => edit((b) => (b.id = 'fratelli')),
      /^brands\/acme\.json:4:9 \/id: the id "fratelli" belongs to brands\/fratelli\.json; .*Change the id to "acme"/m],
    ['a poor contrast', () => edit((b) => (b.theme.footerText = '#777777')),
      /^brands\/acme\.json:\d+:\d+ \/theme\/footerText: theme\.footerText \(#777777\) is text on theme\.footerBackground \(#2e1f47\) with a contrast of 3\.\d\d:1; it must be at least 4\.5:1.*Change theme\.footerText to #[0-9a-f]{6} or theme\.footerBackground to #[0-9a-f]{6}/m],
    ['a bad colour', () => edit((b) => (b.theme.primary = 'purple')),
      /^brands\/acme\.json:\d+:\d+ \/theme\/primary: "purple": Not a colour this file understands\. Write # followed by six digits or letters a-f, e\.g\. #1a2b3c/m],
    ['an empty favicon', () => writeFileSync(join(project.dir, 'brands/assets/acme-favicon.svg'), ''),
      /^brands\/acme\.json:\d+:\d+ \/favicon: the favicon file brands\/assets\/acme-favicon\.svg is empty \(0 bytes\)\. Save the picture again/m],
  ];

  function edit(change: (brand: any) => void) {
    const brand = JSON.parse(original);
    change(brand);
    writeFileSync(brandFile, JSON.stringify(brand, null, 2));
  }

  it.each(mistakes)('%s: validate names the file, the line or field, and the fix', (_what, make, expected) => {
    const favicon = join(project.dir, 'brands/assets/acme-favicon.svg');
    const faviconBefore = readFileSync(favicon);
    make();
    try {
      const lines: string[] = [];
      expect(runValidate(['--root', project.dir], (l) => lines.push(l))).toBe(1);
      expect(lines.join('\n')).toMatch(expected);
    } finally {
      writeFileSync(brandFile, original);
      writeFileSync(favicon, faviconBefore);
    }
  });

  it('npm run build refuses a brand that does not validate, with the same message', () => {
    edit((b) => (b.theme.primary = 'red'));
    try {
      const build = npm(project.dir, 'run', 'build');
      expect(build.status).not.toBe(0);
      expect(build.stdout).toMatch(/^brands\/acme\.json:\d+:\d+ \/theme\/primary: "red": Not a colour this file understands\./m);
    } finally {
      writeFileSync(brandFile, original);
    }
  });
});
