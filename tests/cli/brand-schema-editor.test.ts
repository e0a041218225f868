/**
 * What a brand author sees in VS Code: its JSON language service, driven by
 * the brand file's own "$schema", over real brand files (hover texts,
 * underlined mistakes, the new-file skeleton): the spec's brand files (tests/fixtures/brands/spec).
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { getLanguageService } from 'vscode-json-languageservice';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { describe, expect, it } from 'vitest';
import { SPEC_BRANDS_DIR } from '../support/data-folders';
import { repoRoot } from './project-copy';

const service = getLanguageService({
  schemaRequestService: (uri) => readFile(fileURLToPath(uri), 'utf8'),
  workspaceContext: { resolveRelativePath: (relative, resource) => new URL(relative, resource).href },
});

async function open(brandFile: string, edit: (text: string) => string = (t) => t) {
  const text = edit(await readFile(join(SPEC_BRANDS_DIR, brandFile), 'utf8'));
  const document = TextDocument.create(pathToFileURL(join(SPEC_BRANDS_DIR, brandFile)).href, 'json', 1, text);
  return { text, document, json: service.parseJSONDocument(document) };
}

/** The hover shown with the pointer on the name of `key` (its first occurrence after `after`). */
async function hoverOn(brandFile: string, key: string, after = ''): Promise<string> {
  const { text, document, json } = await open(brandFile);
  const offset = text.indexOf(`"${key}"`, text.indexOf(after)) + 2;
  const hover = await service.doHover(document, document.positionAt(offset), json);
  const contents = [hover?.contents ?? []].flat();
  // Markdown as the editor renders it: "\#ffffff" shows as "#ffffff".
  return contents.map((c) => (typeof c === 'string' ? c : c.value)).join('\n').replace(/\\([\\`*_{}[\]()#+\-.!<>])/g, '$1');
}

async function diagnostics(brandFile: string, edit: (text: string) => string): Promise<string[]> {
  const { document, json } = await open(brandFile, edit);
  return (await service.doValidation(document, json)).map((d) => String(d.message));
}

describe('the brand schema in the editor', () => {
  it.each([
    ['kuppersbusch.json', 'primary', /^Main brand colour: buttons, links and the focus outline/],
    ['kuppersbusch.json', 'onPrimary', /^Text on the primary colour, e\.g\. the label of the send button/],
    ['kuppersbusch.json', 'bannerText', /^Optional: banner text\. Defaults to headerText/],
    ['teka.json', 'logo', /^Logo shown in the header: a file in brands\/assets\//],
    ['teka.json', 'title', /^Optional page heading above the form/],
    ['teka.json', 'countries', /^Which countries this brand serves/],
    ['kuppersbusch.json', 'legalNotice', /^Web address of the legal notice/],
  ])('%s: hovering %s shows that field’s own explanation', async (file, key, expected) => {
    const text = await hoverOn(file, key);
    expect(text).toMatch(expected);
    expect(text).not.toMatch(/A colour written as|A full web address starting|A file in brands\/assets\/, written as assets\/<name>/);
  });

  it('underlines a colour name with a sentence that says how to write a colour', async () => {
    expect(await diagnostics('fratelli.json', (t) => t.replace('"primary": "#5b3a8c"', '"primary": "red"'))).toEqual([
      'Not a colour this file understands. Write # followed by six digits or letters a-f, e.g. #1a2b3c (colour names such as red do not work).',
    ]);
  });

  it('says how a form and a country are named (npm run validate checks they exist)', async () => {
    const found = await diagnostics('fratelli.json', (t) => t.replace('"form": "simple"', '"form": "Deluxe form"').replace('"countries": ["be", "fr", "nl", "lu"]', '"countries": ["be", "Germany"]'));
    expect(found).toContain('The name of a form in schemas/forms, in lower-case letters, digits and dashes, without spaces, e.g. "simple" or "extended".');
    expect(found).toContain('A country is the two-letter code of a country in schemas/countries.json, e.g. "be" (Belgium), "fr" (France), "nl" (the Netherlands) or "lu" (Luxembourg).');
  });

  it('offers the forms as suggestions for the form', async () => {
    const { text, document, json } = await open('fratelli.json', (t) => t.replace('"form": "simple"', '"form": ""'));
    const list = await service.doComplete(document, document.positionAt(text.indexOf('"form": ""') + '"form": "'.length), json);
    expect(list?.items.map((item) => item.label)).toEqual(expect.arrayContaining(['"simple"', '"extended"']));
  });

  it('strikes through the former key "variant", saying to rename it, and asks for "form" only where neither is there', async () => {
    const { document, json } = await open('fratelli.json', (t) => t.replace('"form": "simple"', '"variant": "simple"'));
    const found = await service.doValidation(document, json);
    expect(found.map((d) => [d.message, document.getText(d.range)])).toEqual([['"variant" is now called "form": rename it.', '"variant": "simple"']]);
    expect(await diagnostics('fratelli.json', (t) => t.replace('"form": "simple",', ''))).toEqual(['Missing property "form".']);
  });

  it('says what a brand needs in countries and in a dropdown', async () => {
    expect(await diagnostics('fratelli.json', (t) => t.replace('"countries": ["be", "fr", "nl", "lu"]', '"countries": []'))).toEqual([
      'List the countries this brand serves, at least one and each once, e.g. ["be", "nl"].',
    ]);
    expect(await diagnostics('hanant.json', (t) => t.replace(/"options": \[[^\]]*\]/, '"options": ["Hananto"]'))).toEqual([
      'A dropdown needs at least two different brand names, e.g. ["Hananto", "Senza Nome"].',
    ]);
  });

  it('says which language of a text is empty, and what a web address needs', async () => {
    const found = await diagnostics('teka.json', (t) =>
      t.replace('"fr": "Demander une réparation"', '"fr": ""').replace('https://www.example.com/teka/nl/privacybeleid', 'www.example.com/teka'),
    );
    expect(found).toContain('The French (fr) text is empty. Write what visitors of the French page read here.');
    expect(found).toContain('Not a full web address. It must start with https:// and contain no spaces, e.g. https://www.example.com/privacy.');
    expect(found.join('\n')).not.toMatch(/does not match the pattern/);
  });

  it('offers a complete new brand as a snippet in a new, empty file in brands/ (the project’s .vscode/settings.json)', async () => {
    const settings = JSON.parse(await readFile(join(repoRoot, '.vscode/settings.json'), 'utf8')) as { 'json.schemas': { fileMatch: string[]; url: string }[] };
    const editor = getLanguageService({ schemaRequestService: (uri) => readFile(fileURLToPath(uri), 'utf8') });
    editor.configure({ schemas: settings['json.schemas'].map(({ fileMatch, url }) => ({ fileMatch, uri: pathToFileURL(join(repoRoot, url)).href })) });
    const document = TextDocument.create(pathToFileURL(join(repoRoot, 'brands/new.json')).href, 'json', 1, '');
    const list = await editor.doComplete(document, document.positionAt(0), editor.parseJSONDocument(document));
    const snippet = list?.items.find((item) => item.label === 'New brand');
    expect(snippet?.insertText).toMatch(/"countries": \[/);
    expect(snippet?.insertText).toMatch(/"privacyPolicy"/);
  });
});
