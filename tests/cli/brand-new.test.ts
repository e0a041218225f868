import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runBrand } from '../../src/cli/brand';
import { validateProject } from '../../src/cli/validate';
import { copyProject, removeProject } from './project-copy';

describe('npm run brand -- new <id> --like <id>', () => {
  let root: string;
  let lines: string[];
  beforeEach(() => {
    root = copyProject();
    lines = [];
  });
  afterEach(() => removeProject(root));

  const run = (...argv: string[]) => runBrand([...argv, '--root', root], (l) => lines.push(l));
  const read = (path: string) => readFileSync(join(root, path), 'utf8');
  const files = () => [...readdirSync(join(root, 'brands')), ...readdirSync(join(root, 'brands/assets'))].sort();

  it('copies brand file, logo and favicon under the new id, marks the placeholders, and validates', () => {
    expect(run('new', 'acme', '--like', 'kuppersbusch')).toBe(0);
    const acme = JSON.parse(read('brands/acme.json'));
    expect(acme).toMatchObject({
      $schema: '../schemas/brand.schema.json',
      id: 'acme',
      name: 'Acme',
      form: 'extended',
      logo: 'assets/acme-logo.svg',
      favicon: 'assets/acme-favicon.svg',
      footer: { legal: { legalNotice: 'https://www.example.com/acme/juridische-informatie' } },
      privacyPolicy: { default: 'https://www.example.com/acme/nl/privacybeleid' },
    });
    expect(acme.footer.social.map((s: { url: string }) => s.url)).toEqual([
      'https://www.example.com/acme/facebook',
      'https://www.example.com/acme/instagram',
      'https://www.example.com/acme/youtube',
    ]);
    expect(acme.notes).toMatch(/^Made by npm run brand -- new acme --like kuppersbusch\. Placeholders to replace before going live: the colours under theme \(still those of Kuppersbusch\)/);
    expect(JSON.stringify({ ...acme, notes: '' })).not.toMatch(/kuppersbusch/i);
    const logo = read('brands/assets/acme-logo.svg');
    expect(logo).toMatch(/^<!-- Placeholder: a copy of brands\/assets\/kuppersbusch-logo\.svg, made by npm run brand\. Replace it with the picture of Acme\. -->/);
    expect(logo).toMatch(/>ACME</);
    expect(logo.slice(logo.indexOf('<svg'))).not.toMatch(/kuppersbusch/i);
    expect(lines.join('\n')).toMatch(/^Created brands\/acme\.json, brands\/assets\/acme-logo\.svg, brands\/assets\/acme-favicon\.svg as a copy of kuppersbusch\./);
    expect(lines.join('\n')).toMatch(/\nOK: 7 brand files/);
    expect(validateProject(root).problems).toEqual([]);
  });

  it('writes "form" where the brand it copies still says "variant" (its former name), in the same place', () => {
    const teka = JSON.parse(read('brands/teka.json'));
    writeFileSync(join(root, 'brands/teka.json'), JSON.stringify(Object.fromEntries(Object.entries(teka).map(([k, v]) => [k === 'form' ? 'variant' : k, v]))));
    expect(run('new', 'acme', '--like', 'teka')).toBe(0);
    const acme = JSON.parse(read('brands/acme.json'));
    expect(acme).not.toHaveProperty('variant');
    expect(Object.keys(acme).indexOf('form')).toBe(Object.keys(teka).indexOf('form'));
    expect(acme.form).toBe('extended');
  });

  it('never copies the old brand\'s service desk or webhook', () => {
    const teka = JSON.parse(read('brands/teka.json'));
    teka.serviceDesk = { emails: ['planning@teka.example.com'], language: 'fr', webhook: { url: 'https://tickets.example.com/teka', secretEnv: 'TEKA_WEBHOOK_SECRET' } };
    writeFileSync(join(root, 'brands/teka.json'), JSON.stringify(teka));
    expect(run('new', 'acme', '--like', 'teka')).toBe(0);
    const acme = JSON.parse(read('brands/acme.json'));
    expect(acme.serviceDesk).toEqual({ emails: ['servicedesk@acme.example.com'], language: 'fr' });
    expect(acme.notes).toMatch(/the service desk's e-mail under serviceDesk/);
  });

  it('turns the footer details into obvious placeholders', () => {
    expect(run('new', 'acme', '--like', 'ilve')).toBe(0);
    expect(JSON.parse(read('brands/acme.json')).footer).toEqual({
      companyName: 'Acme (voorbeeld)',
      address: 'Voorbeeldstraat 1, 1234 AB Voorbeeldstad',
      phone: '+31 00 000 0000',
    });
  });

  it('gives dropdown brands placeholder options and takes a --name', () => {
    expect(run('new', 'senza', '--like', 'hanant', '--name', 'Senza Nome')).toBe(0);
    const senza = JSON.parse(read('brands/senza.json'));
    expect(senza.name).toBe('Senza Nome');
    expect(senza.brandField).toEqual({ mode: 'choice', options: ['Senza Nome 1 (voorbeeld)', 'Senza Nome 2 (voorbeeld)'] });
    expect(senza.notes).toMatch(/the dropdown options under brandField/);
  });

  it.each([
    [['new', 'Acme', '--like', 'fratelli'], /"Acme" cannot be a brand id: .* Use "acme": capitals are not allowed\./],
    [['new', 'fratelli', '--like', 'teka'], /brands\/fratelli\.json already exists: the brand "fratelli" is there\. Choose a new id, or edit that file\./],
    [['new', 'acme', '--like', 'miele'], /there is no brand "miele" to copy\. Choose one of: airodesign, fratelli, hanant, ilve, kuppersbusch, teka\./],
    [['new', 'a b', '--like', 'teka'], /"a b" cannot be a brand id/],
  ])('refuses %j and changes nothing', (argv, message) => {
    const before = files();
    expect(run(...argv)).toBe(1);
    expect(lines).toEqual([expect.stringMatching(new RegExp(`^Nothing was changed: ${message.source}`))]);
    expect(files()).toEqual(before);
  });

  it('never overwrites a picture left over under the new name', () => {
    writeFileSync(join(root, 'brands/assets/acme-favicon.svg'), '<svg/>');
    expect(run('new', 'acme', '--like', 'fratelli')).toBe(1);
    expect(lines[0]).toBe('Nothing was changed: brands/assets/acme-favicon.svg already exists. Remove it if it is left over, or choose another id.');
    expect(existsSync(join(root, 'brands/acme.json'))).toBe(false);
    expect(read('brands/assets/acme-favicon.svg')).toBe('<svg/>');
  });

  it('prints how to use it when the arguments are incomplete', () => {
    expect(run('new', 'acme')).toBe(2);
    expect(lines[0]).toMatch(/^Usage: npm run brand -- new <id> --like <existing id>/);
  });
});
