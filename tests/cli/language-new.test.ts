/**
 * `npm run language -- new de`, as a brand owner starts German: the file holds only what must be chosen,
 * validate counts what still shows in Dutch, and the page (rendered as the build renders it, from a copy
 * of the project) shows the German texts there are and Dutch for the rest (i18next's fallback language).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createServer, type InlineConfig, type ViteDevServer } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runLanguage } from '../../src/cli/language';
import { runValidate } from '../../src/cli/validate';
import type { RenderedPage } from '../../src/web/entry-server';
import { copyWholeProject } from '../e2e/support/project-copy';
import { editJson } from './project-copy';

/** The five texts translated: the send button, two sections, two fields. */
const GERMAN = { 'form.submit': 'Senden', 'sections.installation': 'Installationsadresse', 'sections.device': 'Gerät', 'fields.last_name': 'Name', 'fields.street_name': 'Straße' };
/** Texts left untranslated, as the Dutch page has them. */
const DUTCH = ['Postcode', 'Huisnummer', 'Serienummer', 'Aankoopdatum', 'Klachtomschrijving'];

describe('npm run language -- new de', () => {
  let project: ReturnType<typeof copyWholeProject>;
  let lines: string[];
  let status: number;
  beforeAll(() => {
    project = copyWholeProject();
    lines = [];
    status = runLanguage(['new', 'de', '--intl', 'de-BE', '--root', project.dir], (l) => lines.push(l));
  });
  afterAll(() => project.remove());

  it('writes a language file holding only its name and its date locale', () => {
    expect(status).toBe(0);
    expect(lines[0]).toBe('Created schemas/i18n/de.json: "Deutsch" (the language switch shows it), dates written as de-BE.');
    expect(JSON.parse(readFileSync(join(project.dir, 'schemas/i18n/de.json'), 'utf8'))).toEqual({
      $schema: '../language.schema.json',
      language: { name: 'Deutsch', intl: 'de-BE' },
    });
    expect(lines).toContainEqual(expect.stringMatching(/^schemas\/i18n\/de\.json:1:1: warning: de \(Deutsch\): 0 of \d+ texts translated; the other \d+ show in Dutch/));
  });

  it('refuses a file that exists, and a code in capitals, changing nothing', () => {
    const out: string[] = [];
    expect(runLanguage(['new', 'de', '--root', project.dir], (l) => out.push(l))).toBe(1);
    expect(runLanguage(['new', 'DE', '--root', project.dir], (l) => out.push(l))).toBe(1);
    expect(out).toEqual([
      'Nothing was changed: schemas/i18n/de.json already exists: the language "de" is there. Edit that file.',
      'Nothing was changed: "DE" is not a language code: use the two lower-case letters of ISO 639-1, e.g. de for German. Use "de".',
    ]);
  });

  describe('with five texts translated, offered by Teka', () => {
    let server: ViteDevServer;
    let page: RenderedPage;
    beforeAll(async () => {
      editJson(project.dir, 'schemas/i18n/de.json', (t) => {
        for (const [key, text] of Object.entries(GERMAN)) {
          const path = key.split('.');
          let node = t;
          for (const part of path.slice(0, -1)) node = node[part] ??= {};
          node[path.at(-1)!] = text;
        }
      });
      editJson(project.dir, 'brands/teka.json', (b) => {
        b.locales = ['nl', 'fr', 'de'];
        b.header.title.de = 'Reparatur anfragen';
      });
      // The copy's own page configuration (its schemas/, its brands/), served for rendering in this process.
      const { portalBuildOf, portalViteConfig } = (await import(join(project.dir, 'vite.config.ts'))) as typeof import('../../vite.config');
      const config = portalViteConfig(portalBuildOf({}));
      const inline: InlineConfig = { ...config, configFile: false, root: project.dir, appType: 'custom', logLevel: 'error', ssr: {}, server: { ...config.server, middlewareMode: true, hmr: false, watch: null } };
      server = await createServer(inline);
      const entry = (await server.ssrLoadModule('/src/web/entry-server.tsx')) as typeof import('../../src/web/entry-server');
      page = await entry.render('/teka/de/be');
    }, 180_000);
    afterAll(async () => server?.close());

    it('validate says how many texts fall back to Dutch, and lists them on request', () => {
      const out: string[] = [];
      expect(runValidate(['--root', project.dir], (l) => out.push(l))).toBe(0);
      const dutch = JSON.parse(readFileSync(join(project.dir, 'schemas/i18n/nl.json'), 'utf8'));
      const total = countTexts(dutch) - Object.keys(dutch.language).length;
      expect(out).toContain(
        `schemas/i18n/de.json:1:1: warning: de (Deutsch): 5 of ${total} texts translated; the other ${total - 5} show in Dutch (npm run validate -- --fallbacks lists them). Add them to schemas/i18n/de.json in the same places as in schemas/i18n/nl.json.`,
      );
      const detailed: string[] = [];
      runValidate(['--root', project.dir, '--fallbacks'], (l) => detailed.push(l));
      expect(detailed.filter((l) => l.startsWith('schemas/i18n/de.json:') && l.includes(': note: '))).toHaveLength(total - 5);
      expect(out).toContain('  teka: 12 pages, in nl, fr and de for be, fr, nl and lu (/teka/nl/be …), form "extended"');
    });

    it('the German page shows the five German texts and the rest in Dutch', () => {
      expect(page.status).toBe(200);
      expect(page.lang).toBe('de');
      for (const text of Object.values(GERMAN)) expect(page.html).toContain(`>${text}<`);
      for (const text of DUTCH) expect(page.html).toContain(`>${text}`);
      for (const text of ['Verzenden', 'Installatieadres', '>Naam<', 'Straatnaam']) expect(page.html).not.toContain(text);
    });
  });
});

/** The texts of a language file: its leaves, without what is for editors ($schema). */
function countTexts(tree: unknown): number {
  if (tree === null || typeof tree !== 'object') return 1;
  return Object.entries(tree).reduce<number>((n, [key, inner]) => n + (key.startsWith('$') ? 0 : countTexts(inner)), 0);
}
