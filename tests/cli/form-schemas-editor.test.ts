/**
 * What a brand owner's editor makes of the form, uiSchema and language files: VS Code's JSON language
 * service, driven by each file's own "$schema" (or the project's .vscode/settings.json for a file
 * without one), over a copy of the project's files. And the lists those editor schemas hold (roles,
 * widgets, options, keywords) are the ones npm run validate checks against: the same core constants.
 */
import { readFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { getLanguageService } from 'vscode-json-languageservice';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADDRESS_LOOKUP_PARTS, FIELD_ROLES } from '../../src/core/field-roles';
import { FIELD_OPTIONS, FIELD_UI_KEYS, FORM_FIELDS, FORM_OPTIONS, FORM_UI_KEYS, FORM_WIDGETS } from '../../src/core/form-widgets';
import { roleKeyword } from '../../src/core/keywords/annotations';
import { fileRulesKeyword } from '../../src/core/keywords/file-rules';
import { plainTextKeyword } from '../../src/core/keywords/text-rules';
import { PORTAL_KEYS } from '../../src/core/portal-keys';
import { compileVariant } from '../../src/cli/vite/form-modules';
import { loadPortalData } from '../../src/server/portal-data';
import { copyProject, removeProject, repoRoot } from './project-copy';

const service = getLanguageService({
  schemaRequestService: (uri) => readFile(fileURLToPath(uri), 'utf8'),
  workspaceContext: { resolveRelativePath: (relative, resource) => new URL(relative, resource).href },
});

let root: string;
beforeAll(() => {
  root = copyProject();
});
afterAll(() => removeProject(root));

async function open(file: string, edit: (text: string) => string = (t) => t) {
  const text = edit(await readFile(join(root, file), 'utf8'));
  const document = TextDocument.create(pathToFileURL(join(root, file)).href, 'json', 1, text);
  return { text, document, json: service.parseJSONDocument(document) };
}

/** Each underlined problem: its message, and the text it underlines. */
async function problems(file: string, edit?: (text: string) => string): Promise<{ message: string; at: string }[]> {
  const { document, json } = await open(file, edit);
  return (await service.doValidation(document, json)).map((d) => ({ message: String(d.message), at: document.getText(d.range) }));
}

/** What the editor offers with the cursor right after `before` (its first occurrence). */
async function offered(file: string, edit: (text: string) => string, before: string): Promise<string[]> {
  const { text, document, json } = await open(file, edit);
  const list = await service.doComplete(document, document.positionAt(text.indexOf(before) + before.length), json);
  return (list?.items ?? []).map((item) => item.label);
}

async function hover(file: string, key: string): Promise<string> {
  const { text, document, json } = await open(file);
  const found = await service.doHover(document, document.positionAt(text.indexOf(`"${key}"`) + 2), json);
  return [found?.contents ?? []].flat().map((c) => (typeof c === 'string' ? c : c.value)).join('\n');
}

describe('the form, uiSchema and language files in the editor', () => {
  it.each(['schemas/forms/simple.schema.json', 'schemas/forms/extended.schema.json', 'schemas/forms/fields.json', 'schemas/forms/simple.ui.json', 'schemas/forms/extended.ui.json', 'schemas/i18n/nl.json', 'schemas/i18n/fr.json'])(
    '%s: no problem underlined',
    async (file) => {
      expect(await problems(file)).toEqual([]);
    },
  );

  it('underlines an unknown role in a form file, and a misspelt option in its uiSchema', async () => {
    expect(await problems('schemas/forms/simple.schema.json', (t) => t.replace('"description": {"$ref": "fields.json#/definitions/description"}', '"description": {"$ref": "fields.json#/definitions/description", "role": "customer-mail"}'))).toEqual([
      { message: 'A role is one of "customer-email", "dealer-email", "language", "country", "brand" or "date-text" (docs/forms-as-data.md says what each does).', at: '"customer-mail"' },
    ]);
    const underlined = await problems('schemas/forms/extended.ui.json', (t) => t.replace('"errorSummary": true', '"errorSumary": true'));
    expect(underlined).toEqual([{ message: expect.stringMatching(/errorSumary|A form's options are "sections", "errorSummary" and "stopAtMaxLength"\./), at: expect.stringMatching(/^"errorSumary"/) }]);
  });

  it('offers the roles after "role": "', async () => {
    const roles = await offered('schemas/forms/simple.schema.json', (t) => t.replace('"type": {"$ref"', '"type": {"role": "", "$ref"'), '"role": "');
    expect(roles).toEqual(FIELD_ROLES.map((role) => `"${role}"`));
  });

  it('offers the widgets, the options of a field and of the form', async () => {
    const edit = (t: string) => t.replace('"ui:widget": "textarea"', '"ui:widget": ""');
    expect(await offered('schemas/forms/simple.ui.json', edit, '"ui:widget": "')).toEqual(FORM_WIDGETS.map((w) => `"${w}"`));
    const optionsEdit = (t: string) => t.replace('"rows": 6', '"rows": 6, ');
    expect(await offered('schemas/forms/simple.ui.json', optionsEdit, '"rows": 6, ')).toEqual(expect.arrayContaining(['inputType', 'inputMode', 'addressLookup', 'target']));
    const formEdit = (t: string) => t.replace('"ui:options": {\n    "sections"', '"ui:options": {\n    \n    "sections"');
    expect(await offered('schemas/forms/simple.ui.json', formEdit, '"ui:options": {\n    ')).toEqual(expect.arrayContaining(['errorSummary', 'stopAtMaxLength']));
  });

  it('underlines a field named after a portal word, a plainText that is no kind of text, and a widget the form lacks', async () => {
    const found = await problems('schemas/forms/simple.schema.json', (t) =>
      t.replace('"type": {"$ref": "fields.json#/definitions/type", "filled": true}', '"reference": {"type": "string", "plainText": "one line"}'),
    );
    expect(found).toEqual(
      expect.arrayContaining([
        { message: expect.stringMatching(/^One of the portal's own words \(reference, created_at/), at: '"reference"' },
        { message: 'Write "line" (one line) or "lines" (several lines, a textarea).', at: '"one line"' },
      ]),
    );
    expect(await problems('schemas/forms/simple.ui.json', (t) => t.replace('"ui:widget": "textarea"', '"ui:widget": "number"'))).toEqual([
      { message: 'A widget is one of "text", "textarea", "select", "hidden" or "termsCheckbox".', at: '"number"' },
    ]);
  });

  it('explains the portal\'s keywords and the language file\'s parts on hover', async () => {
    expect(await hover('schemas/forms/fields.json', 'plainText')).toMatch(/^Text that shows what it holds/);
    expect(await hover('schemas/forms/fields.json', 'personal')).toMatch(/never shown in the server's log/);
    expect(await hover('schemas/i18n/nl.json', 'photoNames')).toMatch(/^Each photo's attachment name/);
  });

  it('underlines a language file without its own name, and a text that is not text', async () => {
    expect(await problems('schemas/i18n/fr.json', (t) => t.replace('"name": "Français",', '').replace('"submit": "Envoyer"', '"submit": 12'))).toEqual([
      { message: 'Missing property "name".', at: '"language"' },
      { message: 'A text between double quotes, or a group of texts between { and }.', at: '12' },
    ]);
  });

  it('is all the portal ignores: the forms it assembles and the page modules built from them carry no "$schema"', () => {
    const { forms, rules } = loadPortalData(join(root, 'schemas'));
    expect(forms.size).toBeGreaterThan(0);
    for (const model of forms.values()) {
      expect(model.schema).not.toHaveProperty('$schema');
      expect(compileVariant(model, rules)).not.toMatch(/schema\.json/);
    }
  });

  it('reads the project\'s .vscode/settings.json for a new file without "$schema"', async () => {
    const settings = JSON.parse(readFileSync(join(repoRoot, '.vscode/settings.json'), 'utf8')) as { 'json.schemas': { fileMatch: string[]; url: string }[] };
    const editor = getLanguageService({ schemaRequestService: (uri) => readFile(fileURLToPath(uri), 'utf8') });
    editor.configure({ schemas: settings['json.schemas'].map(({ fileMatch, url }) => ({ fileMatch, uri: pathToFileURL(join(root, url)).href })) });
    const check = async (file: string, text: string) => {
      const document = TextDocument.create(pathToFileURL(join(root, file)).href, 'json', 1, text);
      return (await editor.doValidation(document, editor.parseJSONDocument(document))).map((d) => d.message);
    };
    expect(await check('schemas/forms/garden.schema.json', '{ "properties": { "drive": { "type": "string", "role": "motor" } } }')).toEqual([expect.stringMatching(/^A role is one of/)]);
    expect(await check('schemas/forms/garden.ui.json', '{ "drive": { "ui:widget": "dropdown" } }')).toEqual([expect.stringMatching(/^A widget is one of/)]);
    expect(await check('schemas/i18n/de.json', '{ "language": { "name": "Deutsch" }, "form": { "submit": false } }')).toEqual(['A text between double quotes, or a group of texts between { and }.']);
  });
});

describe('the editor schemas and validate agree', () => {
  const schema = (name: string) => JSON.parse(readFileSync(join(repoRoot, 'schemas', name), 'utf8'));
  const form = schema('form.schema.json');
  const ui = schema('form-ui.schema.json');
  const node = form.$defs.node.properties;
  const field = ui.$defs.field.properties;

  it('hold the lists validate checks: roles, keywords, reserved names, widgets, fields, options, lookup parts', () => {
    // The rules ajv holds the keywords to (core/keywords/), without what only people read.
    expect(rulesOnly(node.role)).toEqual(roleKeyword.metaSchema);
    expect(node.role.enum).toEqual([...FIELD_ROLES]);
    expect(node.role.enumDescriptions).toHaveLength(FIELD_ROLES.length);
    expect(rulesOnly(node.plainText)).toEqual(plainTextKeyword.metaSchema);
    expect(rulesOnly(node.fileRules)).toEqual(fileRulesKeyword.metaSchema);
    expect(form.$defs.fieldName.not.enum).toEqual([...PORTAL_KEYS]);
    expect(field['ui:widget'].enum).toEqual([...FORM_WIDGETS]);
    expect(field['ui:field'].enum).toEqual([...FORM_FIELDS]);
    expect(Object.keys(field)).toEqual([...FIELD_UI_KEYS]);
    expect(Object.keys(field['ui:options'].properties)).toEqual([...FIELD_OPTIONS]);
    expect(field['ui:options'].properties.addressLookup.enum).toEqual([...ADDRESS_LOOKUP_PARTS]);
    expect(Object.keys(ui.properties['ui:options'].properties)).toEqual([...FORM_OPTIONS]);
    expect(Object.keys(ui.properties).filter((key) => key.startsWith('ui:'))).toEqual([...FORM_UI_KEYS]);
  });

  it('name every keyword the portal adds to JSON Schema', () => {
    for (const keyword of ['role', 'personal', 'plainText', 'filled', 'postalCode', 'fileRules', 'formOnly']) expect(node[keyword]?.description, keyword).toEqual(expect.any(String));
  });

  it('are themselves sound schemas (ajv, strict), which the files they describe pass', () => {
    // A text or a group of texts is one type or the other: a union, which strict mode wants allowed by name.
    const ajv = new Ajv2020({ strict: true, allowUnionTypes: true, allErrors: true });
    ajv.addVocabulary(['errorMessage', 'patternErrorMessage', 'enumDescriptions', 'markdownDescription', 'defaultSnippets', 'deprecationMessage']);
    addFormats(ajv);
    const checks: [string, string[]][] = [
      ['form.schema.json', ['forms/simple.schema.json', 'forms/extended.schema.json', 'forms/fields.json']],
      ['form-ui.schema.json', ['forms/simple.ui.json', 'forms/extended.ui.json']],
      ['language.schema.json', ['i18n/nl.json', 'i18n/fr.json']],
    ];
    for (const [name, files] of checks) {
      const validate = ajv.compile(schema(name));
      for (const file of files) {
        validate(JSON.parse(readFileSync(join(root, 'schemas', file), 'utf8')));
        expect(validate.errors ?? [], file).toEqual([]);
      }
    }
  });
});

/** A schema without its words for people (descriptions, examples, editor messages): the rules alone. */
function rulesOnly(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(rulesOnly);
  if (schema === null || typeof schema !== 'object') return schema;
  const forPeople = new Set(['description', 'examples', 'enumDescriptions', 'errorMessage', 'patternErrorMessage', 'default']);
  return Object.fromEntries(Object.entries(schema).filter(([key]) => !forPeople.has(key)).map(([key, value]) => [key, rulesOnly(value)]));
}
