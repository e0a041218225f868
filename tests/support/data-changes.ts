/**
 * The changes a brand owner makes as data only, done as docs/forms-as-data.md
 * says, to a project root holding the spec's data (a copy made by
 * installSpecData, support/data-folders.ts): nothing under src/ changes. A
 * change made already is refused, not skipped: the tests that follow would
 * test someone else's form under the same name.
 */
import { copyFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { newLanguage } from '../../src/cli/language/new-language';

function refuseIfThere(root: string, file: string): void {
  if (existsSync(join(root, file))) throw new Error(`${root} has ${file} already: the change is made on the spec's data (installSpecData)`);
}

function editJson(root: string, file: string, edit: (data: any) => void): void {
  const path = join(root, file);
  const data: unknown = JSON.parse(readFileSync(path, 'utf8'));
  edit(data);
  writeFileSync(path, `${JSON.stringify(data, null, 2)}\n`);
}

/** A brand like another, under a new id, with its own logo and favicon (what `npm run brand -- new` does). */
export function addBrandLike(root: string, id: string, like: string, change: (brand: any) => void = () => {}): void {
  refuseIfThere(root, `brands/${id}.json`);
  const brand = JSON.parse(readFileSync(join(root, 'brands', `${like}.json`), 'utf8'));
  for (const asset of ['logo', 'favicon'] as const) {
    const name = `assets/${id}-${asset}.svg`;
    copyFileSync(join(root, 'brands', brand[asset]), join(root, 'brands', name));
    brand[asset] = name;
  }
  Object.assign(brand, { id, name: id[0].toUpperCase() + id.slice(1) });
  change(brand);
  writeFileSync(join(root, 'brands', `${id}.json`), `${JSON.stringify(brand, null, 2)}\n`);
}

/** An optional field "Aankoopplaats" (at most 80 characters) after Aankoopdatum on the extended form. */
export function addPurchasePlace(root: string): void {
  if (readFileSync(join(root, 'schemas/forms/extended.schema.json'), 'utf8').includes('"purchase_place"')) throw new Error(`${root}: the extended form has purchase_place already`);
  editJson(root, 'schemas/forms/extended.schema.json', (s) => {
    s.properties.purchase_place = { type: 'string', maxLength: 80, plainText: 'line', title: 'Purchase place' };
  });
  editJson(root, 'schemas/forms/extended.ui.json', (ui) => {
    const device = ui['ui:options'].sections.find((s: { id: string }) => s.id === 'device');
    device.fields.splice(device.fields.indexOf('purchase_date') + 1, 0, 'purchase_place');
    ui.purchase_place = { 'ui:autocomplete': 'off' };
  });
  editJson(root, 'schemas/i18n/nl.json', (t) => (t.fields.purchase_place = 'Aankoopplaats'));
  editJson(root, 'schemas/i18n/fr.json', (t) => (t.fields.purchase_place = "Lieu d'achat"));
}

/** A form "outdoor": the simple form with one photo and a required whole number "Draaiuren" (0 to 100000). */
export function addOutdoorForm(root: string): void {
  const forms = join(root, 'schemas/forms');
  refuseIfThere(root, 'schemas/forms/outdoor.schema.json');
  copyFileSync(join(forms, 'simple.schema.json'), join(forms, 'outdoor.schema.json'));
  copyFileSync(join(forms, 'simple.ui.json'), join(forms, 'outdoor.ui.json'));
  editJson(root, 'schemas/forms/outdoor.schema.json', (s) => {
    s.$id = 'repair-request-outdoor';
    delete s.properties.upload_2;
    delete s.properties.image2;
    s.required = s.required.filter((f: string) => f !== 'image2');
    s.required.push('operating_hours');
    s.properties.operating_hours = { type: 'integer', minimum: 0, maximum: 100000, title: 'Operating hours' };
  });
  editJson(root, 'schemas/forms/outdoor.ui.json', (ui) => {
    const sections: { id: string; fields: string[] }[] = ui['ui:options'].sections;
    const complaint = sections.find((s) => s.id === 'complaint')!;
    complaint.fields = complaint.fields.filter((f) => f !== 'upload_2');
    sections.find((s) => s.id === 'device')!.fields.push('operating_hours');
    delete ui.upload_2;
    delete ui.image2;
    ui.operating_hours = { 'ui:options': { inputType: 'number', inputMode: 'numeric' } };
  });
  editJson(root, 'schemas/i18n/nl.json', (t) => {
    t.fields.operating_hours = 'Draaiuren';
    t.export.variants.outdoor = 'Buitenformulier';
  });
  editJson(root, 'schemas/i18n/fr.json', (t) => {
    t.fields.operating_hours = 'Heures de fonctionnement';
    t.export.variants.outdoor = 'Formulaire extérieur';
  });
}

/** German, offered by one brand only: started by `npm run language -- new de`, a few texts translated, the rest falls back to Dutch (validate counts it). */
export function addGermanFor(root: string, brandId: string): void {
  refuseIfThere(root, 'schemas/i18n/de.json');
  const started = newLanguage({ root, code: 'de', intl: 'de-BE' });
  if (!started.ok) throw new Error(started.message);
  editJson(root, 'schemas/i18n/de.json', (german) => {
    german.form = { ...german.form, submit: 'Senden' };
    german.fields = { ...german.fields, last_name: 'Name' };
    german.success = { ...german.success, received: 'Wir haben Ihre Anfrage erhalten und melden uns bei Ihnen, um einen Termin zu vereinbaren.' };
    german.mail = { ...german.mail, confirmation: { ...german.mail?.confirmation, subject: '{{brand}} Service: Ihre Reparaturanfrage {{reference}} ist eingegangen' } };
  });
  editJson(root, `brands/${brandId}.json`, (b) => {
    b.locales = ['nl', 'fr', 'de'];
    for (const text of [b.header.banner, b.header.title]) if (text) text.de = text.nl === 'SERVICE' ? 'SERVICE' : 'Reparatur anfragen';
  });
}

/** Germany (five-digit postal codes), served by one brand only. */
export function addGermanyFor(root: string, brandId: string): void {
  editJson(root, 'schemas/countries.json', (c) => (c.countries.de = { postalCode: '^[0-9]{5}$' }));
  editJson(root, `brands/${brandId}.json`, (b) => b.countries.includes('de') || b.countries.push('de'));
}
