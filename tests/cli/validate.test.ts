import { spawnSync } from 'node:child_process';
import { copyFileSync, cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runLanguage } from '../../src/cli/language';
import { runValidate, validateProject } from '../../src/cli/validate';
import { copyProject, editJson, fixturesDir, removeProject, repoRoot } from './project-copy';

describe('validateProject on the project (the spec\'s brands, the real schemas and texts)', () => {
  let root: string;
  beforeEach(() => {
    root = copyProject();
  });
  afterEach(() => removeProject(root));

  it('finds no problems in the six brands, the form schemas and the texts', () => {
    const report = validateProject(root);
    expect(report.problems).toEqual([]);
    expect(report.brandCount).toBeGreaterThanOrEqual(6);
    // The spec's two forms; a form added as data is no problem either.
    expect(report.forms).toEqual(expect.arrayContaining(['extended', 'simple']));
  });
});

describe('validateProject on a broken copy', () => {
  let root: string;
  beforeEach(() => {
    root = copyProject();
  });
  afterEach(() => removeProject(root));

  const problemsAt = (file: string) => validateProject(root).problems.filter((p) => p.file === file);

  it('accepts a copy of fratelli saved under a new id, with its assets', () => {
    const acme = readFileSync(join(fixturesDir, 'valid/acme.json'), 'utf8').replace('../../../../schemas/', '../schemas/');
    writeFileSync(join(root, 'brands/acme.json'), acme);
    for (const asset of ['acme-logo.svg', 'acme-favicon.svg']) {
      copyFileSync(join(fixturesDir, 'valid/assets', asset), join(root, 'brands/assets', asset));
    }
    const report = validateProject(root);
    expect(report.problems).toEqual([]);
    expect(report.brandCount).toBe(7);
  });

  it('accepts a webhook in the company\'s own network only where the brand file allows it', () => {
    const webhook = { url: 'https://10.20.30.40/tickets', secretEnv: 'ILVE_WEBHOOK_SECRET' };
    editJson(root, 'brands/ilve.json', (b) => (b.serviceDesk.webhook = webhook));
    expect(problemsAt('brands/ilve.json')).toEqual([
      expect.objectContaining({ pointer: '/serviceDesk/webhook/url', message: expect.stringMatching(/points into a private network \(10\.20\.30\.40\)/) }),
    ]);
    editJson(root, 'brands/ilve.json', (b) => (b.serviceDesk.webhook = { ...webhook, allowPrivateNetwork: true }));
    expect(problemsAt('brands/ilve.json')).toEqual([]);
  });

  it('reports a brand whose form was removed', () => {
    editJson(root, 'brands/teka.json', (b) => delete b.form);
    expect(problemsAt('brands/teka.json')).toEqual([
      expect.objectContaining({ pointer: '/form', message: expect.stringMatching(/"form" is missing/) }),
    ]);
  });

  it('blames the file that reuses an id, never the brand that owns it', () => {
    editJson(root, 'brands/ilve.json', (b) => (b.id = 'hanant'));
    expect(validateProject(root).problems).toEqual([
      {
        file: 'brands/ilve.json',
        pointer: '/id',
        line: 4,
        column: 9,
        message: 'the id "hanant" belongs to brands/hanant.json; this file is brands/ilve.json, so its id must be "ilve". Change the id to "ilve" (every brand needs its own id, equal to its file name).',
      },
    ]);
  });

  it('reports a $schema that does not reach the brand schema', () => {
    editJson(root, 'brands/ilve.json', (b) => (b.$schema = './brand.schema.json'));
    expect(problemsAt('brands/ilve.json')).toEqual([
      expect.objectContaining({ pointer: '/$schema', message: expect.stringContaining('"../schemas/brand.schema.json"') }),
    ]);
  });

  it('reports a missing favicon file', () => {
    rmSync(join(root, 'brands/assets/teka-favicon.svg'));
    expect(problemsAt('brands/teka.json')).toEqual([
      expect.objectContaining({ pointer: '/favicon', message: expect.stringContaining('brands/assets/teka-favicon.svg does not exist') }),
    ]);
  });

  it('counts the texts another language lacks (they fall back to Dutch) in one warning, and names each in a note', () => {
    editJson(root, 'schemas/i18n/fr.json', (t) => {
      delete t.footer.phone;
      delete t.validation.default.postalCode;
    });
    editJson(root, 'schemas/i18n/nl.json', (t) => (t.extra = { only: 'Alleen Nederlands' }));
    const report = validateProject(root);
    expect(report.problems).toEqual([]);
    // Only French's: a language or form the project gains as data may bring warnings of its own.
    const french = report.warnings.filter((w) => w.file === 'schemas/i18n/fr.json');
    expect(french).toHaveLength(1);
    expect(french[0].message).toMatch(
      /^fr \(Français\): (\d+) of \d+ texts translated; the other 4 show in Dutch \(npm run validate -- --fallbacks lists them\)\. Add them to schemas\/i18n\/fr\.json in the same places as in schemas\/i18n\/nl\.json\.$/,
    );
    const [, translated, total] = /(\d+) of (\d+)/.exec(french[0].message)!.map(Number);
    expect(total - translated).toBe(4);
    expect(report.notes.filter((w) => w.file === 'schemas/i18n/fr.json').map((w) => [w.pointer, w.message])).toEqual([
      ['/footer/phone', 'the text "footer.phone" is missing, so the Dutch one is used.'],
      ['/validation/default/postalCode', 'the text "validation.default.postalCode" is missing, so the Dutch one is used.'],
      // The extended form's French message had only the default table to fall back to: now the Dutch extended one.
      ['/validation/extended/postalCode', 'the text "validation.extended.postalCode" is missing, so the Dutch one is used.'],
      ['/extra/only', 'the text "extra.only" is missing, so the Dutch one is used.'],
    ]);
  });

  it('accepts a brand whose pages are in German only, and its summary says which pages it serves', () => {
    expect(runLanguage(['new', 'de', '--root', root], () => {})).toBe(0);
    editJson(root, 'brands/ilve.json', (b) => {
      b.locales = ['de'];
      for (const text of [b.header.banner, b.header.title]) if (text) text.de = text.nl;
    });
    const lines: string[] = [];
    expect(runValidate(['--root', root], (l) => lines.push(l))).toBe(0);
    expect(lines).toContain('  ilve: 4 pages, in de for be, fr, nl and lu (/ilve/de/be …), form "simple"; no pages in fr and nl');
  });

  it('reports a brand naming a form whose schema is gone', () => {
    rmSync(join(root, 'schemas/forms/simple.schema.json'));
    expect(problemsAt('brands/ilve.json')).toEqual([
      expect.objectContaining({ pointer: '/form', message: expect.stringMatching(/^"simple" is not a form of this portal; schemas\/forms has "extended"/) }),
    ]);
  });

  it('reports a form schema that does not compile in strict mode', () => {
    editJson(root, 'schemas/forms/extended.schema.json', (s) => (s.properties.city.maxlength = 50));
    expect(problemsAt('schemas/forms/extended.schema.json')).toEqual([
      expect.objectContaining({ pointer: '', message: expect.stringMatching(/does not compile.*unknown keyword: "maxlength"/) }),
    ]);
  });

  it('reports a field referring outside the shared fields, or to one they lack, and a $ref inside a field that leaves its schema', () => {
    editJson(root, 'schemas/forms/simple.schema.json', (s) => {
      s.properties.street = { $ref: 'https://example.com/address.json#/street' };
      s.properties.city = { $ref: 'fields.json#/definitions/town' };
      s.properties.type = { type: 'object', properties: { model: { $ref: 'https://example.com/model.json' } } };
    });
    expect(problemsAt('schemas/forms/simple.schema.json').map((p) => [p.pointer, p.message])).toEqual([
      ['/properties/city/$ref', expect.stringMatching(/^fields\.json has no field "town"\. Its fields: last_name, street_name,/)],
      ['/properties/street/$ref', expect.stringMatching(/is not a shared field: write "fields\.json#\/definitions\/<name>"/)],
      ['/properties/type/properties/model/$ref', expect.stringMatching(/points outside this schema/)],
    ]);
  });

  it('reports uiSchema references to fields that do not exist, and fields shown nowhere', () => {
    editJson(root, 'schemas/forms/simple.ui.json', (ui) => {
      ui.sections_typo = {};
      ui['ui:options'].sections[1].fields[0] = 'brnd';
      ui.upload_2['ui:options'].target = 'image3';
    });
    const found = problemsAt('schemas/forms/simple.ui.json').map((p) => [p.pointer, p.message]);
    expect(found).toEqual([
      ['/upload_2/ui:options/target', expect.stringMatching(/"image3", which is not a field of schemas\/forms\/simple\.schema\.json/)],
      ['/sections_typo', expect.stringMatching(/"sections_typo", which is not a field/)],
      ['/ui:options/sections/1/fields/0', expect.stringMatching(/this section lists "brnd"/)],
      ['/ui:options/sections', expect.stringMatching(/the field "brand" is in the form schema but in no section/)],
    ]);
  });

  it('reports a field listed in two sections', () => {
    editJson(root, 'schemas/forms/extended.ui.json', (ui) => ui['ui:options'].sections[3].fields.push('city'));
    expect(problemsAt('schemas/forms/extended.ui.json')).toEqual([
      expect.objectContaining({ pointer: '/ui:options/sections/3/fields/2', message: expect.stringContaining('"city" is already listed at /ui:options/sections/0/fields/5') }),
    ]);
  });
});

describe('runValidate output', () => {
  it('prints a one-line OK summary and returns 0 on the project', () => {
    const root = copyProject();
    try {
      const lines: string[] = [];
      expect(runValidate(['--root', root], (l) => lines.push(l))).toBe(0);
      // The summary, after any warnings (a language or form the project gains as data may bring some).
      expect(lines.at(-1)).toMatch(/^OK: \d+ brand files/);
      const pages = lines.indexOf('The pages each brand serves:');
      expect(lines.slice(0, pages).every((line) => /^\S+:\d+:\d+ .*: warning: /.test(line))).toBe(true);
      expect(lines.slice(pages + 1, -1)).toContain('  teka: 8 pages, in nl and fr for be, fr, nl and lu (/teka/nl/be …), form "extended"');
    } finally {
      removeProject(root);
    }
  });
});

describe('validate where BRANDS_DIR and SCHEMAS_DIR say the data is', () => {
  it('checks the folders the build and the server would read, not brands/ and schemas/; another project (--root) in its own', () => {
    const root = copyProject();
    try {
      // The copy's own brands are fine; the brands the build would take (BRANDS_DIR) are not.
      cpSync(join(root, 'brands'), join(root, 'other-brands'), { recursive: true });
      editJson(root, 'other-brands/teka.json', (b) => (b.theme.primary = 'red'));
      const [own, other] = [[], []] as [string[], string[]];
      const inCopy = { BRANDS_DIR: join(root, 'other-brands'), SCHEMAS_DIR: ` ${join(root, 'schemas')} ` };
      expect(runValidate(['--root', root], (l) => own.push(l), inCopy)).toBe(0);
      expect(runValidate([], (l) => other.push(l), inCopy)).toBe(1);
      expect(other.join('\n')).toMatch(/other-brands\/teka\.json:\d+:\d+ \/theme\/primary: "red": Not a colour this file understands\./m);
    } finally {
      removeProject(root);
    }
  });
});

describe('the validate command', () => {
  const tsx = join(repoRoot, 'node_modules/.bin/tsx');
  const run = (root: string) =>
    spawnSync(tsx, ['src/cli/validate.ts', '--root', root], { cwd: repoRoot, encoding: 'utf8', timeout: 60_000 });

  it('exits 1 and prints file, pointer and sentence for a broken copy', () => {
    const root = copyProject();
    try {
      editJson(root, 'brands/kuppersbusch.json', (b) => {
        b.theme.headerColour = '#000000';
        delete b.header.banner.fr;
      });
      mkdirSync(join(root, 'brands/assets'), { recursive: true });
      const result = run(root);
      expect(result.status).toBe(1);
      expect(result.stdout).toMatch(/^brands\/kuppersbusch\.json:\d+:\d+ \/theme\/headerColour: "headerColour" is not a colour this file knows\. Known colours: primary, onPrimary,/m);
      expect(result.stdout).toMatch(/^brands\/kuppersbusch\.json:\d+:\d+ \/header\/banner: the text in "fr" \(Français\) is missing\./m);
      expect(result.stdout).toContain('2 problems in 1 file.');
    } finally {
      removeProject(root);
    }
  });

  it('exits 0 on an unbroken copy', () => {
    const root = copyProject();
    try {
      const result = run(root);
      expect(result.stderr).toBe('');
      expect(result.status).toBe(0);
      expect(result.stdout).toMatch(/^OK: 6 brand files/m);
    } finally {
      removeProject(root);
    }
  });
});
