import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkBrandFiles } from '../../src/cli/validate/brand-files';
import { fixturesDir, repoRoot } from './project-copy';

const schemaFile = join(repoRoot, 'schemas/brand.schema.json');
const check = (...files: string[]) => checkBrandFiles(files, { root: repoRoot, schemaFile });

/** Each fixture breaks one rule; the one problem must name the file, the field and say it plainly. */
const cases: [fixture: string, pointer: string, message: RegExp][] = [
  ['missing-variant', '/variant', /"variant" is missing; .*Which repair form/],
  ['unknown-variant', '/variant', /"deluxe" is not allowed here\. Choose one of: "extended", "simple"/],
  ['unknown-colour-key', '/theme/headerColour', /"headerColour" is not a colour this file knows\. Known colours: primary, onPrimary, /],
  ['missing-fr-text', '/header/title', /^the French \(fr\) text is missing\./],
  ['empty-fr-text', '/header/title', /^the French \(fr\) text is empty\./],
  ['bad-colour', '/theme/primary', /"#fff" is not a colour .* e\.g\. #1a2b3c/],
  ['bad-url', '/footer/legal/legalNotice', /is not a full web address\. It must start with https:\/\//],
  ['bad-asset-path', '/logo', /"logo\.svg" is not a file name in the assets folder/],
  ['missing-asset', '/logo', /the logo file tests\/fixtures\/brands\/invalid\/assets\/missing-logo\.svg does not exist/],
  ['low-contrast', '/theme/headerText', /#999999.*#ffffff.* contrast of 2\.84:1; it must be at least 4\.5:1/],
  ['wrong-type', '/header/languageSwitch', /must be true or false/],
  ['unknown-field', '/footer/companyname', /"companyname" is not a field this file knows here\. Known fields: companyName, /],
  ['bad-phone', '/footer/phone', /"call us" is not a phone number/],
  ['schema-ref', '/$schema', /"\$schema" must be "\.\.\/\.\.\/\.\.\/\.\.\/schemas\/brand\.schema\.json"/],
  ['choice-without-options', '/brandField/options', /a dropdown \(mode "choice"\) needs "options"/],
  ['options-without-choice', '/brandField/options', /only used when mode is "choice"/],
  ['extended-brand-field', '/brandField/mode', /extended form .* mode must be "fixed", not "text"/],
  ['id-mismatch', '/id', /the id "fixture" must equal the file name without \.json \("id-mismatch"\)/],
  ['invalid-json', '', /not valid JSON near line 4/],
];

describe('brand file checks on fixtures', () => {
  it.each(cases)('invalid/%s.json is reported at %s', (fixture, pointer, message) => {
    const problems = check(join(fixturesDir, 'invalid', `${fixture}.json`));
    expect(problems).toEqual([
      { file: `tests/fixtures/brands/invalid/${fixture}.json`, pointer, message: expect.stringMatching(message) },
    ]);
  });

  it('accepts a copy of a brand saved under a new id with its own assets', () => {
    expect(check(join(fixturesDir, 'valid', 'acme.json'))).toEqual([]);
  });

  it('names the first owner of an id that two files use', () => {
    const problems = check(join(fixturesDir, 'invalid', 'id-mismatch.json'), join(fixturesDir, 'invalid', 'id-mismatch.json'));
    expect(problems.map((p) => p.message)).toContainEqual(
      'the id "fixture" is already used by tests/fixtures/brands/invalid/id-mismatch.json. Every brand needs its own id.',
    );
  });

  it('reports a brand schema that does not compile instead of throwing', () => {
    const problems = checkBrandFiles([join(fixturesDir, 'valid', 'acme.json')], {
      root: repoRoot,
      schemaFile: join(fixturesDir, 'invalid', 'invalid-json.json'),
    });
    expect(problems).toHaveLength(1);
    expect(problems[0].message).toMatch(/not valid JSON/);
  });
});
