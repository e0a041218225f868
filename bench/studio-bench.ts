/**
 * The brand studio's figures of `npm run bench`:
 * - the studio's own JavaScript (gzip, every chunk of its page and its preview frame), beside the
 *   customer page's JavaScript with its app (jsFigures, same build), which the studio must not grow;
 * - how soon the live page follows an edit, from the last keystroke (the last input event the studio
 *   saw) to the frame showing it: a colour typed, a label typed, and a new required field pasted into
 *   a form's JSON text. Measured in Chromium, median of five.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Browser, Page } from 'playwright-core';
import { SPEC_BUILD, ROOT } from '../tests/e2e/support/paths';
import type { Portal } from '../tests/e2e/support/portal';
import type { BenchFigure } from './figures';
import { jsFigures, KEEP_NAMES_SHIM, onSpecBuild } from './web-bench';

const kB = (bytes: number) => Math.round(bytes / 100) / 10;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const RUNS = 5;

/** Every JavaScript file of the built studio (its page and its frame load from them), gzip -9. */
function studioSizeFigures(webRoot: string): BenchFigure[] {
  const dir = join(webRoot, 'studio', 'assets');
  const scripts = readdirSync(dir).filter((name) => name.endsWith('.js'));
  const sizes = scripts.map((name) => ({ name, gzip: gzipSync(readFileSync(join(dir, name)), { level: 9 }).length })).sort((a, b) => b.gzip - a.gzip);
  return [
    {
      name: "The studio's own JavaScript (its page and preview frame, every chunk)",
      value: kB(sizes.reduce((sum, s) => sum + s.gzip, 0)),
      unit: 'kB gzip',
      better: 'lower',
      detail: `${scripts.length} chunks; biggest: ${sizes
        .slice(0, 4)
        .map((s) => `${s.name} ${kB(s.gzip)}`)
        .join(', ')}; none of them is loaded by a customer's page (JS of the page and the app, above)`,
    },
  ];
}

/** What the frame must show for an edit to count as followed. */
type Shown = { selector: string; property?: string; text: string };

/**
 * Starts watching, then runs `edit` (the keystrokes), and resolves with the time from the studio's
 * last input event to the first animation frame in which the preview shows `shown`.
 */
async function followed(page: Page, shown: Shown, edit: () => Promise<void>): Promise<number> {
  const watching = page.evaluate(
    ({ selector, property, text }) =>
      new Promise<number>((resolve, reject) => {
        let last = 0;
        const now = () => performance.timeOrigin + performance.now();
        // A keystroke into a field is an input event; a paste into the JSON text is a paste event.
        for (const type of ['input', 'paste']) document.addEventListener(type, () => (last = now()), { capture: true });
        const deadline = now() + 10_000;
        const check = () => {
          const frame = document.querySelector('iframe')?.contentDocument;
          const element = frame?.querySelector(selector);
          const value = element ? (property ? getComputedStyle(element).getPropertyValue(property).trim() : (element.textContent ?? '')) : undefined;
          if (last && value !== undefined && value.includes(text)) return resolve(now() - last);
          if (now() > deadline) return reject(new Error(`the preview did not show ${selector} ${text}`));
          requestAnimationFrame(check);
        };
        requestAnimationFrame(check);
      }),
    shown,
  );
  await edit();
  return watching;
}

async function openFile(page: Page, path: string): Promise<void> {
  await page.getByRole('button', { name: path, exact: true }).click();
  await page.locator('#editor-heading', { hasText: path }).waitFor();
}

async function replaceTyped(page: Page, locator: ReturnType<Page['locator']>, text: string): Promise<void> {
  await locator.click();
  await page.keyboard.press('Control+A');
  await page.keyboard.type(text);
}

/** Ctrl+V of `text` into the JSON text, as the browser hands a paste to CodeMirror (a paste event with the clipboard's text). */
async function paste(page: Page, text: string): Promise<void> {
  await page.evaluate((text) => {
    const content = document.querySelector('.json-editor')!.shadowRoot!.querySelector('.cm-content')!;
    const clipboardData = new DataTransfer();
    clipboardData.setData('text/plain', text);
    content.dispatchEvent(new ClipboardEvent('paste', { clipboardData, bubbles: true, cancelable: true, composed: true }));
  }, text);
}

/** The simple form's schema with one more required field, as a brand owner pastes it into its JSON text. */
function withRequiredField(schemaText: string, name: string): string {
  const schema = JSON.parse(schemaText) as { properties: Record<string, unknown>; required?: string[] };
  schema.properties[name] = { type: 'string', maxLength: 80 };
  schema.required = [...(schema.required ?? []), name];
  return `${JSON.stringify(schema, null, 2)}\n`;
}

async function previewFigures(browser: Browser, portal: Portal): Promise<BenchFigure[]> {
  const context = await browser.newContext({ viewport: { width: 1600, height: 1000 } });
  await context.addInitScript(KEEP_NAMES_SHIM);
  const page = await context.newPage();
  const brands = join(SPEC_BUILD.brandsDir).slice(ROOT.length);
  const schemas = SPEC_BUILD.schemasDir.slice(ROOT.length);
  const times = { colour: [] as number[], label: [] as number[], field: [] as number[] };
  try {
    await page.goto(`${portal.baseUrl}/studio/`);
    await page.getByRole('button', { name: 'English' }).click();
    await openFile(page, `${brands}/ilve.json`);
    await page.locator('iframe').contentFrame().locator('.brand-page--ilve').waitFor();
    const colours = ['#5a2d82', '#1d4f73', '#6b2f1a', '#2b4a1f', '#4a1f4f'];
    for (const colour of colours) {
      const input = page.getByRole('textbox', { name: 'Main colour (buttons, links)', exact: true });
      times.colour.push(await followed(page, { selector: '.brand-page--ilve', property: '--primary', text: colour }, () => replaceTyped(page, input, colour)));
    }
    await openFile(page, `${schemas}/i18n/nl.json`);
    for (let run = 1; run <= RUNS; run++) {
      const label = `Achternaam ${run}`;
      const cell = page.locator('textarea[aria-labelledby="text-fields.last_name column-nl"]');
      times.label.push(await followed(page, { selector: 'label[for="root_last_name"]', text: label }, () => replaceTyped(page, cell, label)));
    }
    await openFile(page, `${schemas}/forms/simple.schema.json`);
    await page.getByRole('button', { name: 'I understand: let me edit this form' }).click();
    await page.getByRole('button', { name: 'JSON text', exact: true }).click();
    const original = readFileSync(join(SPEC_BUILD.schemasDir, 'forms/simple.schema.json'), 'utf8');
    for (let run = 1; run <= RUNS; run++) {
      const name = `purchase_place_${run}`;
      times.field.push(
        await followed(page, { selector: `#root_${name}`, text: '' }, async () => {
          await page.locator('.cm-content').click();
          await page.keyboard.press('Control+A');
          await paste(page, withRequiredField(original, name));
        }),
      );
    }
  } finally {
    await context.close();
  }
  const figure = (name: string, xs: number[]): BenchFigure => ({
    name,
    value: Math.round(median(xs)),
    unit: 'ms',
    budgetKey: 'web.studioPreviewMs',
    better: 'lower',
    detail: `median of ${xs.length}: ${xs.map((x) => Math.round(x)).join(', ')} ms, from the last keystroke to the frame showing it`,
  });
  return [
    figure('Studio: a colour typed → the live page in that colour', times.colour),
    figure('Studio: a label typed → the live page shows it', times.label),
    figure("Studio: a required field pasted into a form's JSON → the live page asks for it", times.field),
  ];
}

/** `npm run bench -- studio`: the customer page's JavaScript beside the studio's, then the live page's delays, on one build of the spec's brands. */
export function runStudioBench(): Promise<BenchFigure[]> {
  return onSpecBuild(
    { STUDIO: 'on' },
    async (webRoot) => [...jsFigures(webRoot, []), ...studioSizeFigures(webRoot)],
    (browser, portal) => previewFigures(browser, portal),
  );
}
