import { describe, expect, it } from 'vitest';
import { contrastRatio } from '../../../src/core/contrast';
import { checkBrandFiles } from '../../../src/core/validate/brand-files';
import { portalFacts } from '../../../src/core/validate/portal-facts';
import { diskFiles, projectPath } from '../../../src/server/disk-files';
import { SPEC_SCHEMAS_DIR } from '../../support/data-folders';
import { repoRoot } from '../../cli/project-copy';

// The fixtures, the brand schema and the spec's data where they are in this project, named by their project paths.
const files = diskFiles(repoRoot);
const schemaFile = 'schemas/brand.schema.json';
const facts = portalFacts(files, projectPath(repoRoot, SPEC_SCHEMAS_DIR));
const fixture = (kind: 'valid' | 'invalid', name: string) => `tests/fixtures/brands/${kind}/${name}.json`;
const check = (...brandFiles: string[]) => checkBrandFiles(brandFiles, { files, schemaFile, facts }).problems;

/** Each fixture breaks one rule; the one problem must name the file, the field and say it plainly. */
const cases: [fixture: string, pointer: string, message: RegExp][] = [
  ['missing-form', '/form', /"form" is missing; every brand file needs it\. \(Which repair form/],
  ['unknown-form', '/form', /^"deluxe" is not a form of this portal; schemas\/forms has "extended",? .*"simple"\./],
  ['form-with-space', '/form', /^"simple " has a space at its end: write "simple"\. The forms of this portal \(schemas\/forms\): "extended",? .*"simple"\.$/],
  ['form-and-variant', '/variant', /^the form is named twice, under "form" and under "variant" \(its former name\)\. Remove "variant"\.$/],
  ['upper-case-country', '/countries/1', /^"NL": a country code is written in lower case: write "nl"\. schemas\/countries\.json has "be", "fr", "nl",? .*"lu"/],
  ['country-name', '/countries/1', /^"Germany" is not a country code: write the two lower-case letters of ISO 3166; schemas\/countries\.json has "be", "fr", "nl",? .*"lu"/],
  ['unknown-colour-key', '/theme/headerColour', /"headerColour" is not a colour this file knows\. Known colours: primary, onPrimary, /],
  ['missing-fr-text', '/header/title', /^the text in "fr" \(Français\) is missing\./],
  ['empty-fr-text', '/header/title', /^The French \(fr\) text is empty\. Write what visitors of the French page read here\./],
  ['bad-colour', '/theme/primary', /^"#fff": Not a colour .* e\.g\. #1a2b3c/],
  ['bad-url', '/footer/legal/legalNotice', /: Not a full web address\. It must start with https:\/\//],
  ['bad-asset-path', '/logo', /^"logo\.svg": Not a picture in the assets folder/],
  ['missing-asset', '/logo', /the logo file tests\/fixtures\/brands\/invalid\/assets\/missing-logo\.svg does not exist/],
  ['low-contrast', '/theme/headerText', /^theme\.headerText \(#999999\) is text on theme\.headerBackground \(#ffffff\) with a contrast of 2\.84:1; it must be at least 4\.5:1 .*Change theme\.headerText to #[0-9a-f]{6} or theme\.headerBackground to #[0-9a-f]{6} \(each the nearest colour that passes\)\.$/],
  ['wrong-type', '/header/languageSwitch', /must be true or false/],
  ['unknown-field', '/footer/companyname', /"companyname" is not a field this file knows here\. Known fields: companyName, /],
  ['bad-phone', '/footer/phone', /^"call us": Not a phone number/],
  ['schema-ref', '/$schema', /"\$schema" must be "\.\.\/\.\.\/\.\.\/\.\.\/schemas\/brand\.schema\.json"/],
  ['choice-without-options', '/brandField/options', /a dropdown \(mode "choice"\) needs "options"/],
  ['options-without-choice', '/brandField/options', /only used when mode is "choice"/],
  ['extended-brand-field', '/brandField/mode', /^the form "extended" does not ask for the brand: it sends the brand's name itself, so mode must be "fixed"\./],
  ['no-countries', '/countries', /^List the countries this brand serves, at least one and each once, e\.g\. \["be", "nl"\]\.$/],
  ['one-option', '/brandField/options', /^A dropdown needs at least two different brand names/],
  ['id-mismatch', '/id', /the id "fixture" must equal the file name without \.json \("id-mismatch"\)\. Change the id to "id-mismatch", or rename the file to fixture\.json\./],
  ['missing-service-desk', '/serviceDesk', /"serviceDesk" is missing; .*requests would reach no one/],
  ['no-desk-email', '/serviceDesk/emails', /List the desk's e-mail addresses/],
  ['bad-desk-email', '/serviceDesk/emails/0', /Not an e-mail address/],
  ['webhook-http', '/serviceDesk/webhook/url', /It must start with https:\/\//],
  ['webhook-secret-in-file', '/serviceDesk/webhook/secretEnv', /Never write a secret in a brand file/],
  ['webhook-loopback', '/serviceDesk/webhook/url', /^"https:\/\/127\.0\.0\.1:8443\/hooks" points at the portal's own server \(127\.0\.0\.1, a loopback address\).*add "allowPrivateNetwork": true to the webhook\.$/],
  ['webhook-localhost', '/serviceDesk/webhook/url', /points at the portal's own server \(localhost, a loopback address\)/],
  ['webhook-private-address', '/serviceDesk/webhook/url', /points into a private network \(192\.168\.1\.20\)/],
  ['webhook-link-local', '/serviceDesk/webhook/url', /points at a link-local address \(169\.254\.169\.254\)/],
  ['webhook-unspecified', '/serviceDesk/webhook/url', /points at no machine in particular \(0\.0\.0\.0\)/],
  ['webhook-ipv6-unique-local', '/serviceDesk/webhook/url', /points into a private network \(\[fd12:3456::1\]\)/],
  ['webhook-credentials', '/serviceDesk/webhook/url', /^The address has a user name or password in it\. Never write a secret in a brand file/],
];

describe('brand file checks on fixtures', () => {
  it.each(cases)('invalid/%s.json is reported at %s', (name, pointer, message) => {
    const problems = check(fixture('invalid', name));
    expect(problems).toEqual([
      expect.objectContaining({ file: `tests/fixtures/brands/invalid/${name}.json`, pointer, message: expect.stringMatching(message) }),
    ]);
  });

  it('never repeats a password written into a webhook address', () => {
    const [problem] = check(fixture('invalid', 'webhook-credentials'));
    expect(problem.message).not.toMatch(/hunter2|ticketbot/);
  });

  it('accepts a copy of a brand saved under a new id with its own assets', () => {
    expect(check(fixture('valid', 'acme'))).toEqual([]);
  });

  it('accepts the former key "variant" for the form, with a warning that says to rename it', () => {
    const { problems, warnings } = checkBrandFiles([fixture('valid', 'former-variant-key')], { files, schemaFile, facts });
    expect(problems).toEqual([]);
    expect(warnings).toEqual([
      {
        file: 'tests/fixtures/brands/valid/former-variant-key.json',
        pointer: '/variant',
        atName: true,
        message: '"variant" is now called "form": rename it ("form": "simple"). "variant" still works for now.',
      },
    ]);
  });

  it('names the brand file keys of a yellow primary with white text, and colours that would pass', () => {
    const [onPrimary, primary] = check(fixture('invalid', 'yellow-primary'));
    expect(onPrimary).toMatchObject({ pointer: '/theme/onPrimary', message: expect.stringMatching(/^theme\.onPrimary \(#ffffff\) is text on theme\.primary \(#ffd700\) with a contrast of 1\.4\d:1.* Change theme\.onPrimary to (#[0-9a-f]{6}) or theme\.primary to (#[0-9a-f]{6}) /) });
    expect(primary).toMatchObject({ pointer: '/theme/primary', message: expect.stringMatching(/^theme\.primary \(#ffd700\) is text on the white page \(#ffffff\), which no key of the brand file changes, with a contrast .* Change theme\.primary to (#[0-9a-f]{6}) \(the nearest colour that passes\)\.$/) });
    // The colours it suggests do pass: with them, the file has no contrast problem left.
    const [, text, background] = /Change theme\.onPrimary to (#\w+) or theme\.primary to (#\w+)/.exec(onPrimary.message)!;
    const [, link] = /Change theme\.primary to (#\w+)/.exec(primary.message)!;
    expect(contrastRatio(text, '#ffd700')).toBeGreaterThanOrEqual(4.5);
    expect(contrastRatio('#ffffff', background)).toBeGreaterThanOrEqual(4.5);
    expect(contrastRatio(link, '#ffffff')).toBeGreaterThanOrEqual(4.5);
  });

  it('names a country the portal does not serve, and the ones it does', () => {
    expect(check(fixture('invalid', 'unknown-country'))).toEqual([
      expect.objectContaining({
        pointer: '/countries/1',
        // The spec's countries, and any the project gains as data after them.
        message: expect.stringMatching(/^"zz" is not a country of this portal; schemas\/countries\.json has "be", "fr", "nl",? .*"lu".*\. Add it there \(with its postal-code pattern\), or check the spelling\.$/),
      }),
    ]);
  });

  it('names the line and column of a missing comma', () => {
    expect(check(fixture('invalid', 'invalid-json'))).toEqual([
      {
        file: 'tests/fixtures/brands/invalid/invalid-json.json',
        pointer: '',
        line: 4,
        column: 3,
        message: expect.stringMatching(/^a comma is missing here: items of a group or list are separated by commas\./),
      },
    ]);
  });

  it('reports a brand schema that does not compile instead of throwing', () => {
    const { problems } = checkBrandFiles([fixture('valid', 'acme')], {
      files,
      schemaFile: fixture('invalid', 'invalid-json'),
      facts,
    });
    expect(problems).toHaveLength(1);
    expect(problems[0].message).toMatch(/a comma is missing here/);
  });
});
