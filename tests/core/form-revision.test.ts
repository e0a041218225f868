import { describe, expect, it } from 'vitest';
import { formModel } from '../../src/core/form-model';
import { formRevision, revisionLanguages, revisionModel } from '../../src/core/form-revision';
import type { FormSchema, UiSchema } from '../../src/core/form-schema';
import { findText, indexLanguages } from '../../src/core/texts';

/** A small form as a brand owner writes one: a customer address, a choice, one photo. */
const schema: FormSchema = {
  $id: 'garden',
  type: 'object',
  required: ['mail', 'drive', 'photo'],
  properties: {
    mail: { type: 'string', role: 'customer-email' },
    drive: { type: 'string', enum: ['accu', 'petrol'] },
    picker: { type: 'object', formOnly: true },
    photo: { type: 'string' },
  },
};
const uiSchema: UiSchema = {
  'ui:options': { sections: [{ id: 'main', fields: ['mail', 'drive', 'picker'] }] },
  picker: { 'ui:field': 'photoUpload', 'ui:options': { target: 'photo' } },
};

const languages = indexLanguages({
  nl: {
    fields: { mail: 'E-mail', drive: 'Aandrijving', picker: 'Foto van de maaier', unrelated: 'Iets anders' },
    options: { drive: { accu: 'Accu', petrol: 'Benzine' } },
    mail: { desk: { photoNames: { photo: 'maaier' }, yes: 'Ja' } },
    export: { variants: { garden: 'Tuinformulier' } },
  },
  fr: { fields: { drive: 'Motorisation' } },
});

describe('a form revision', () => {
  const revision = formRevision(formModel('garden', schema, uiSchema), languages);

  it('keeps the form and, per language, only the texts about its fields, options, photos and name', () => {
    expect(revisionModel(revision)).toMatchObject({ name: 'garden', roles: { 'customer-email': 'mail' }, photos: [{ picker: 'picker', target: 'photo' }] });
    expect(revision.texts.nl).toEqual({
      fields: { mail: 'E-mail', drive: 'Aandrijving', picker: 'Foto van de maaier' },
      options: { drive: { accu: 'Accu', petrol: 'Benzine' } },
      mail: { desk: { photoNames: { photo: 'maaier' } } },
      export: { variants: { garden: 'Tuinformulier' } },
    });
    expect(revision.texts.fr).toEqual({ fields: { drive: 'Motorisation' } });
  });

  it('is read in today’s words where they name its fields, its own where they no longer do, and names photos as it did', () => {
    const today = indexLanguages({
      nl: {
        // A label corrected since, the photo renamed since, the choice's labels gone with a renamed field.
        fields: { drive: 'Aandrijving (soort)' },
        mail: { desk: { photoNames: { photo: 'machine', other: 'ander' }, yes: 'Ja' } },
      },
    });
    const read = revisionLanguages(revision, today);
    expect(findText(read, 'nl', 'fields.drive')).toBe('Aandrijving (soort)');
    expect(findText(read, 'nl', 'fields.mail')).toBe('E-mail');
    expect(findText(read, 'nl', 'options.drive.accu')).toBe('Accu');
    expect(findText(read, 'nl', 'mail.desk.photoNames.photo')).toBe('maaier');
    expect(findText(read, 'nl', 'mail.desk.photoNames.other')).toBe('ander');
    expect(findText(read, 'fr', 'fields.drive')).toBe('Motorisation');
    expect(findText(read, 'nl', 'mail.desk.yes')).toBe('Ja');
  });

  it('names a photo after its field where the revision named none, though a name was added since', () => {
    const unnamed = formRevision(formModel('garden', schema, uiSchema), indexLanguages({ nl: { fields: {} } }));
    const read = revisionLanguages(unnamed, indexLanguages({ nl: { mail: { desk: { photoNames: { photo: 'later' } } } } }));
    expect(findText(read, 'nl', 'mail.desk.photoNames.photo')).toBeUndefined();
  });
});
