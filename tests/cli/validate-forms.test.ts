/**
 * What validate says of a form a brand owner adds as data (the "garden": three photos, a required
 * select "Aandrijving", an optional number), in a private copy of the project: everything that would show
 * a code where people read words, overwrite the portal's own values, or be silently off is named in one line.
 */
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { validateProject } from '../../src/cli/validate';
import { PORTAL_KEYS } from '../../src/core/portal-keys';
import { copyProject, editJson, removeProject } from './project-copy';

/** The garden form, complete: every label, photo name and export name in Dutch and French, used by a brand. */
function addGardenForm(root: string): void {
  copyFileSync(join(root, 'schemas/forms/simple.schema.json'), join(root, 'schemas/forms/garden.schema.json'));
  copyFileSync(join(root, 'schemas/forms/simple.ui.json'), join(root, 'schemas/forms/garden.ui.json'));
  editJson(root, 'schemas/forms/garden.schema.json', (s) => {
    s.$id = 'repair-request-garden';
    s.required.push('drive', 'image3');
    Object.assign(s.properties, {
      drive: { type: 'string', enum: ['accu', 'benzine', 'hybride'], title: 'Drive' },
      cutting_width: { type: 'integer', minimum: 10, maximum: 200, title: 'Cutting width' },
      upload_3: { $ref: 'fields.json#/definitions/upload_2' },
      image3: { $ref: 'fields.json#/definitions/image2' },
    });
  });
  editJson(root, 'schemas/forms/garden.ui.json', (ui) => {
    const sections: { id: string; fields: string[] }[] = ui['ui:options'].sections;
    sections.find((s) => s.id === 'device')!.fields.push('drive', 'cutting_width');
    sections.find((s) => s.id === 'complaint')!.fields.push('upload_3');
    Object.assign(ui, {
      drive: { 'ui:widget': 'select' },
      cutting_width: { 'ui:options': { inputType: 'number', inputMode: 'numeric' } },
      upload_3: { 'ui:field': 'photoUpload', 'ui:options': { target: 'image3' } },
      image3: { 'ui:widget': 'hidden' },
    });
  });
  for (const [code, words] of Object.entries({
    nl: { drive: 'Aandrijving', width: 'Maaibreedte (cm)', options: { accu: 'Accu', benzine: 'Benzine', hybride: 'Hybride' }, photo: 'apparaat', photoLabel: 'Foto van het apparaat', form: 'Tuinformulier' },
    fr: { drive: 'Motorisation', width: 'Largeur de coupe (cm)', options: { accu: 'Batterie', benzine: 'Essence', hybride: 'Hybride' }, photo: 'appareil', photoLabel: "Photo de l'appareil", form: 'Formulaire jardin' },
  })) {
    editJson(root, `schemas/i18n/${code}.json`, (t) => {
      Object.assign(t.fields, { drive: words.drive, cutting_width: words.width, upload_3: words.photoLabel });
      t.options = { ...t.options, drive: words.options };
      t.mail.desk.photoNames.image3 = words.photo;
      t.export.variants.garden = words.form;
    });
  }
  editJson(root, 'brands/fratelli.json', (b) => (b.form = 'garden'));
}

describe('validate on a new form', () => {
  let root: string;
  beforeEach(() => {
    root = copyProject();
    addGardenForm(root);
  });
  afterEach(() => removeProject(root));

  const report = () => validateProject(root);
  const gardenWarnings = () => report().warnings.filter((w) => /garden|image3|cutting_width|drive/.test(w.message));

  it('accepts the complete form without a warning of its own', () => {
    expect(report().problems).toEqual([]);
    expect(gardenWarnings()).toEqual([]);
  });

  it('refuses a choice with no label at all: the page would show its code', () => {
    editJson(root, 'schemas/i18n/nl.json', (t) => delete t.options.drive.hybride);
    editJson(root, 'schemas/i18n/fr.json', (t) => delete t.options.drive.hybride);
    expect(report().problems).toEqual([
      expect.objectContaining({
        file: 'schemas/forms/garden.schema.json',
        pointer: '/properties/drive/enum/2',
        message:
          'the choice "hybride" of the field "drive" has no label: add "options": { "drive": { "hybride": "…" } } to schemas/i18n/nl.json (and to the other languages), or the page, the desk\'s mail and the export show the code "hybride".',
      }),
    ]);
  });

  it('refuses a choice with no Dutch label, which every language falls back to', () => {
    editJson(root, 'schemas/i18n/nl.json', (t) => delete t.options.drive.hybride);
    expect(report().problems.map((p) => p.message)).toEqual([
      expect.stringMatching(/^the choice "hybride" of the field "drive" has no Dutch label \(fr has one; Dutch is what every language falls back to\): add "options"/),
    ]);
  });

  it.each(PORTAL_KEYS)('refuses a field named "%s", one of the portal\'s own words, naming them all', (word) => {
    editJson(root, 'schemas/forms/garden.schema.json', (s) => (s.properties[word] = { type: 'string', maxLength: 40, plainText: 'line', title: 'Reference' }));
    editJson(root, 'schemas/forms/garden.ui.json', (ui) => ui['ui:options'].sections[1].fields.push(word));
    editJson(root, 'schemas/i18n/nl.json', (t) => (t.fields[word] = 'Referentie'));
    const problems = report().problems;
    expect(problems).toEqual([expect.objectContaining({ file: 'schemas/forms/garden.schema.json', pointer: `/properties/${word}`, atName: true })]);
    expect(problems[0].message).toBe(
      `"${word}" is one of the portal's own words (reference, created_at, brand_id, variant, form, form_revision, locale), which the export, the mails and the stored request use beside the form's fields: give the field another name (here, in the uiSchema and in the language files).`,
    );
  });

  it('refuses a misspelt option of the form or of a field, naming the one meant and the known ones', () => {
    editJson(root, 'schemas/forms/garden.ui.json', (ui) => {
      ui['ui:options'].errorSumary = true;
      ui.cutting_width['ui:options'].inputMod = 'numeric';
      ui.cutting_width['ui:autocompete'] = 'off';
    });
    expect(report().problems.map((p) => [p.pointer, p.message])).toEqual([
      ['/cutting_width/ui:autocompete', '"ui:autocompete" is not a field\'s setting the portal reads, so it does nothing. Did you mean "ui:autocomplete"? The known ones: "ui:widget", "ui:field", "ui:options" or "ui:autocomplete".'],
      ['/cutting_width/ui:options/inputMod', '"inputMod" is not an option of a field the portal reads, so it does nothing. Did you mean "inputMode"? The known ones: "inputType", "inputMode", "rows", "addressLookup" or "target".'],
      ['/ui:options/errorSumary', '"errorSumary" is not an option of a form the portal reads, so it does nothing. Did you mean "errorSummary"? The known ones: "sections", "errorSummary" or "stopAtMaxLength".'],
    ]);
  });

  it('refuses bounds no answer can meet, in the form or in the shared fields, at the lower bound', () => {
    editJson(root, 'schemas/forms/garden.schema.json', (s) => (s.properties.cutting_width.minimum = 250));
    editJson(root, 'schemas/forms/fields.json', (f) => {
      const text = Object.values(f.definitions as Record<string, { maxLength?: number; minLength?: number }>).find((d) => typeof d.maxLength === 'number')!;
      text.minLength = text.maxLength! + 1;
    });
    const fields = report().problems.filter((p) => p.file === 'schemas/forms/fields.json');
    expect(report().problems.filter((p) => p.file === 'schemas/forms/garden.schema.json').map((p) => [p.pointer, p.message])).toEqual([
      [
        '/properties/cutting_width/minimum',
        '"minimum" (250) is more than "maximum" (200), so no answer can meet both: a customer could never fill in this field, and if it is required, never send the form. Lower "minimum" or raise "maximum".',
      ],
    ]);
    expect(fields).toEqual([expect.objectContaining({ pointer: expect.stringMatching(/^\/definitions\/[a-z_]+\/minLength$/), message: expect.stringMatching(/^"minLength" \(\d+\) is more than "maxLength"/) })]);
  });

  it('refuses whole-number bounds with no whole number between them', () => {
    editJson(root, 'schemas/forms/garden.schema.json', (s) => Object.assign(s.properties.cutting_width, { minimum: 10.2, maximum: 10.8 }));
    expect(report().problems.map((p) => [p.pointer, p.message])).toEqual([
      [
        '/properties/cutting_width/minimum',
        'no whole number lies between "minimum" (10.2) and "maximum" (10.8), and this field takes whole numbers only ("type": "integer"), so no answer can meet both: a customer could never fill in this field, and if it is required, never send the form. Lower "minimum" or raise "maximum".',
      ],
    ]);
    // Exclusive bounds a whole number apart leave none; inclusive ones on whole numbers leave that number.
    editJson(root, 'schemas/forms/garden.schema.json', (s) => {
      delete s.properties.cutting_width.minimum;
      delete s.properties.cutting_width.maximum;
      Object.assign(s.properties.cutting_width, { exclusiveMinimum: 10, exclusiveMaximum: 11 });
    });
    expect(report().problems.map((p) => p.pointer)).toEqual(['/properties/cutting_width/exclusiveMinimum']);
    editJson(root, 'schemas/forms/garden.schema.json', (s) => Object.assign(s.properties.cutting_width, { exclusiveMaximum: 12 }));
    expect(report().problems).toEqual([]);
  });

  it('says once that the shared fields cannot be read, not again at every form field that takes one', () => {
    const file = join(root, 'schemas/forms/fields.json');
    // A brand owner's slip: the comma after one definition's first rule deleted.
    writeFileSync(file, readFileSync(file, 'utf8').replace(/("maxLength": \d+),\n/, '$1\n'));
    expect(report().problems.map((p) => [p.file, p.message])).toEqual([
      ['schemas/forms/fields.json', expect.stringMatching(/^a comma is missing here: .* The forms take their shared fields from it\.$/)],
    ]);
  });

  it('warns of a photo without a name for the desk: its attachments would be named after the field', () => {
    editJson(root, 'schemas/i18n/nl.json', (t) => delete t.mail.desk.photoNames.image3);
    expect(report().problems).toEqual([]);
    expect(gardenWarnings()).toEqual([
      expect.objectContaining({
        file: 'schemas/i18n/nl.json',
        pointer: '/mail/desk/photoNames',
        message:
          'the photo "upload_3" of schemas/forms/garden.ui.json (stored in "image3") has no name for the desk: add "image3": "…" here (and in the other languages). Until then its attachments are named after the field ("<reference>-image3"), and mails sent before you add it keep that name.',
      }),
    ]);
  });

  it('warns of a form without a name for the export', () => {
    editJson(root, 'schemas/i18n/nl.json', (t) => delete t.export.variants.garden);
    expect(report().problems).toEqual([]);
    expect(gardenWarnings()).toEqual([
      expect.objectContaining({
        file: 'schemas/i18n/nl.json',
        pointer: '/export/variants',
        message: 'the form "garden" has no name for the export: add "garden": "…" here (and in the other languages), or the export\'s Formulier column shows "garden".',
      }),
    ]);
  });

  it('warns of a typed text without "plainText", naming the risk, and of a required one without "filled"', () => {
    editJson(root, 'schemas/forms/garden.schema.json', (s) => {
      s.properties.model_name = { type: 'string', maxLength: 80, title: 'Model' };
      s.required.push('model_name');
    });
    editJson(root, 'schemas/forms/garden.ui.json', (ui) => ui['ui:options'].sections[1].fields.push('model_name'));
    editJson(root, 'schemas/i18n/nl.json', (t) => (t.fields.model_name = 'Model'));
    expect(report().problems).toEqual([]);
    expect(report().warnings.filter((w) => w.pointer === '/properties/model_name').map((w) => w.message)).toEqual([
      'the text field "model_name" has no "plainText", so a customer can send control, invisible or direction-changing characters in it, and the desk would read something other than what the page showed. Add "plainText": "line" (or "lines" for a text of several lines).',
      'the required field "model_name" has no "filled": true, so a customer can send it holding only spaces. Add "filled": true.',
    ]);
  });
});
