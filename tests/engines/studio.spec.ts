/**
 * The brand studio in each engine, as a brand owner with only a browser uses it: a new brand
 * "Pelgrim" like Teka, with its own colours and logo, offered in Dutch, French and a new German
 * language file; a mistake typed into its brand file, told with CI's own file:line:column and words;
 * then, fixed, the change downloaded as a patch that `git am` applies to a fresh clone of the
 * project, where npm run validate passes and npm start serves the new brand's pages.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exitOf, runNpm, waitForUrl } from '../e2e/support/project-copy';
import { ROOT, SPEC_BUILD } from '../e2e/support/paths';
import { freePort } from '../support/free-port';
import { byRole } from './support/by-role';
import type { Driver } from './support/driver';
import { engineSuite } from './support/engine-suite';
import { waitUntil } from './support/form-steps';

const suite = engineSuite({ javaScript: true }, { STUDIO: 'on' });
const BRANDS = relative(ROOT, SPEC_BUILD.brandsDir);
const SCHEMAS = relative(ROOT, SPEC_BUILD.schemasDir);
const BRAND_FILE = `${BRANDS}/pelgrim.json`;
const COLOURS = { primary: '#5a2d82', headerBackground: '#5a2d82', headerText: '#ffffff', footerBackground: '#2b1640' };
const LOGO = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 200 40"><text x="0" y="30" font-size="30" fill="#5a2d82">PELGRIM</text></svg>\n';

let work: string;
beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'studio-engines-'));
  writeFileSync(join(work, 'pelgrim-logo.svg'), LOGO);
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** The files the studio holds as edited, as this browser keeps them (its storage), by path. */
async function studioFiles(page: Driver): Promise<Record<string, string>> {
  const kept = await page.evaluate(() => localStorage.getItem('repair-portal-studio'));
  const edits = (JSON.parse(kept ?? '{}') as { edits?: Record<string, { text?: string } | null> }).edits ?? {};
  return Object.fromEntries(Object.entries(edits).flatMap(([path, content]) => (content?.text !== undefined ? [[path, content.text]] : [])));
}

/** A fresh clone of the project (its last commit), with the installed packages linked in as after npm ci. */
function freshClone(name: string): string {
  const clone = join(mkdtempSync(join(work, `${name}-`)), 'project');
  execFileSync('git', ['clone', '-q', '--no-hardlinks', ROOT, clone]);
  symlinkSync(join(ROOT, 'node_modules'), join(clone, 'node_modules'), 'dir');
  return clone;
}

/** What `npm run validate -- --format json` prints for the project with these files written into it, as `file:line:column pointer: message`. */
function cliFindings(files: Record<string, string>, file: string): string[] {
  const copy = freshClone('cli');
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(copy, path)), { recursive: true });
    writeFileSync(join(copy, path), text);
  }
  const run = spawnSync('npm', ['run', 'validate', '--silent', '--', '--format', 'json'], { cwd: copy, encoding: 'utf8', env: { ...process.env, BRANDS_DIR: BRANDS, SCHEMAS_DIR: SCHEMAS } });
  expect(run.status, run.stderr).toBe(1);
  return run.stdout
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as { severity: string; file: string; line: number | null; column: number | null; pointer: string; message: string })
    .filter((f) => f.file === file && f.severity === 'error')
    .map((f) => `${f.line === null ? f.file : `${f.file}:${f.line}:${f.column}`}${f.pointer ? ` ${f.pointer}` : ''}: ${f.message}`);
}

/** The texts of the studio's findings that are problems (they stop the hand-over). */
async function studioProblems(page: Driver): Promise<string[]> {
  return page.evaluate(() => [...document.querySelectorAll('.studio-finding--error .studio-finding__text')].map((el) => el.textContent ?? ''));
}

async function fillField(page: Driver, label: string, value: string, within?: string) {
  await page.fill(await byRole(page, 'field', label, within), value);
}

/** The studio has checked the last edit. */
const settled = (page: Driver) => waitUntil(async () => !(await page.text('#findings-heading + [role="status"]')).includes('…'), 'the checks to run');

describe('the brand studio', () => {
  it('a new brand Pelgrim like Teka, coloured, with a logo and German, handed over as a patch that git am applies, validate passes and npm start serves', { timeout: 420_000 }, () =>
    suite.withPage(async (page) => {
      await page.goto(`${suite.portal.baseUrl}/studio/`);
      await waitUntil(() => page.count('#studio-editor'), 'the studio to load', 20_000);
      await page.click(await byRole(page, 'button', 'English'));

      // New brand like Teka.
      await page.click(await byRole(page, 'button', 'New brand…'));
      await fillField(page, 'Brand name (as customers know it)', 'Pelgrim', 'dialog');
      await fillField(page, 'Brand id', 'pelgrim', 'dialog');
      await page.selectOption(await byRole(page, 'field', 'Copy of', 'dialog'), 'teka');
      await page.click(await byRole(page, 'button', 'Create the brand', 'dialog'));
      await waitUntil(async () => (await page.text('#editor-heading')) === BRAND_FILE, 'the new brand file to open');

      // Its own colours and logo.
      await fillField(page, 'Main colour (buttons, links)', COLOURS.primary);
      await fillField(page, 'Header background', COLOURS.headerBackground);
      await fillField(page, 'Header text', COLOURS.headerText);
      await fillField(page, 'Footer background', COLOURS.footerBackground);
      await page.upload(await byRole(page, 'field', 'Choose a new Logo (SVG or PNG)'), [join(work, 'pelgrim-logo.svg')]);
      await waitUntil(async () => (await page.text('.picture-widget__path')) === 'assets/pelgrim-logo.svg', 'the logo to be taken');

      // German: a new language file, offered by the brand, with its page title.
      await page.click(await byRole(page, 'button', 'New language…'));
      await fillField(page, 'Language code', 'de', 'dialog');
      await fillField(page, 'Its own name (optional)', 'Deutsch', 'dialog');
      await page.click(await byRole(page, 'button', 'Create the language', 'dialog'));
      await waitUntil(async () => (await page.text('#editor-heading')) === `${SCHEMAS}/i18n/de.json`, 'the language file to open');
      await page.click(await byRole(page, 'button', BRAND_FILE));
      await page.click(await byRole(page, 'checkbox', 'Deutsch (de)'));
      await fillField(page, 'Deutsch (de)', 'Reparatur anfordern', await byRole(page, 'group', 'Page title'));

      // The live page follows: its colours, in the frame.
      await waitUntil(
        () => page.evaluate(() => {
          const frame = document.querySelector('iframe')?.contentDocument;
          const page = frame?.querySelector('.brand-page--pelgrim');
          return page ? getComputedStyle(page).getPropertyValue('--primary').trim() : '';
        }).then((colour) => colour === '#5a2d82'),
        "the preview to show Pelgrim's colour",
      );

      // A mistake: the brand's name emptied. The studio says what CI says, where CI says it.
      await fillField(page, 'Brand name', '');
      await settled(page);
      await waitUntil(async () => (await studioProblems(page)).length > 0, 'the problem to be found');
      const files = await studioFiles(page);
      expect(await studioProblems(page)).toEqual(cliFindings(files, BRAND_FILE));
      expect(await page.attribute(await byRole(page, 'button', 'Download change (.patch)'), 'disabled'), 'nothing is handed over while a problem stands').not.toBeNull();

      // Fixed, signed, downloaded.
      await fillField(page, 'Brand name', 'Pelgrim');
      await settled(page);
      expect(await studioProblems(page)).toEqual([]);
      await fillField(page, 'Your name', 'Petra Pelgrim');
      await fillField(page, 'Your e-mail address', 'petra@pelgrim.example');
      await page.click(await byRole(page, 'button', 'Download change (.patch)'));
      const link = (await waitUntil(() => page.attribute('.handover__download a', 'href'), 'the download'))!;
      const patch = await page.evaluate((href: string) => {
        const request = new XMLHttpRequest();
        request.open('GET', href, false);
        request.send();
        return request.responseText;
      }, link);
      await appliesAndServes(patch);
    }),
  );
});

/** git am in a fresh clone; there validate passes, and npm start serves the brand's pages with its name, form and colours. */
async function appliesAndServes(patch: string): Promise<void> {
  const clone = freshClone('clone');
  writeFileSync(join(work, 'change.patch'), patch);
  const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=Developer', '-c', 'user.email=dev@example.com', ...args], { cwd: clone, encoding: 'utf8' });
  const before = git('rev-parse', 'HEAD').trim();
  git('am', join(work, 'change.patch'));
  expect(git('log', '-1', '--format=%an <%ae>')).toContain('Petra Pelgrim <petra@pelgrim.example>');
  const added = git('show', '--name-only', '--format=', 'HEAD').trim().split('\n').sort();
  expect(added, 'one commit: the brand file, its logo and favicon, and the German texts').toEqual(
    [BRAND_FILE, `${BRANDS}/assets/pelgrim-favicon.svg`, `${BRANDS}/assets/pelgrim-logo.svg`, `${SCHEMAS}/i18n/de.json`].sort(),
  );
  expect(git('rev-list', '--count', `${before}..HEAD`).trim(), 'one commit').toBe('1');
  const data = { BRANDS_DIR: BRANDS, SCHEMAS_DIR: SCHEMAS };
  const validate = runNpm(clone, ['run', 'validate', '--silent'], data);
  expect(await exitOf(validate), validate.output()).toBe(0);
  const port = await freePort();
  const start = runNpm(clone, ['start'], { ...data, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: join(work, 'data'), MIN_FREE_DISK_MB: '0' });
  try {
    const base = `http://127.0.0.1:${port}`;
    await waitForUrl(`${base}/healthz`, start, 300_000);
    for (const path of ['/pelgrim/nl/nl', '/pelgrim/de/be']) {
      const page = await fetch(`${base}${path}`);
      expect(page.status, path).toBe(200);
      const html = await page.text();
      expect(html, path).toContain('<title>Pelgrim | Service</title>');
      expect(html, path).toContain('brand-page--pelgrim');
      expect(html, path).toMatch(/<form[^>]*method="post"/);
      const css = [...html.matchAll(/<link rel="stylesheet"[^>]*href="([^"]+)"/g)].map((m) => m[1]);
      const styles = (await Promise.all(css.map(async (href) => (await fetch(`${base}${href}`)).text()))).join('\n');
      expect(styles, path).toMatch(/\.brand-page--pelgrim\{[^}]*--primary:\s*#5a2d82/);
    }
    expect(await (await fetch(`${base}/pelgrim/de/be`)).text()).toContain('Reparatur anfordern');
  } finally {
    await start.stop();
  }
}
