import { describe, expect, it } from 'vitest';
import { ExportColumns, exportRecord, sheetRow } from '../../../src/cli/requests/export-rows';
import { formModel } from '../../../src/core/form-model';
import type { FormSchema } from '../../../src/core/form-schema';
import { indexLanguages } from '../../../src/core/texts';
import type { StoredRequest } from '../../../src/server/storage/records';

const languages = indexLanguages({
  nl: {
    fields: { reference: 'Uw kenmerk', drive: 'Aandrijving', mail: 'E-mail', phone: 'Telefoon' },
    options: { drive: { accu: 'Accu' } },
    export: { columns: { reference: 'Referentie', created_at: 'Ontvangen', brand_id: 'Merkpagina', variant: 'Formulier', locale: 'Taal van de pagina' }, variants: { garden: 'Tuinformulier' } },
  },
});

const form = (properties: FormSchema['properties']) =>
  formModel('garden', { $id: 'garden', type: 'object', required: [], properties }, { 'ui:options': { sections: [{ id: 'a', fields: Object.keys(properties) }] } });

const row = (payload: Record<string, unknown>, id = 1): StoredRequest => ({
  id,
  reference: 'K7QM-4XRT-9P',
  brand: 'tuinco',
  variant: 'garden',
  locale: 'nl',
  payload: JSON.stringify(payload),
  idempotency_key: null,
  payload_hash: 'h',
  created_at: 0,
  form_revision: 'r1',
});

describe('the export of stored requests', () => {
  it('keeps the portal’s reference and a form field of the same name apart (a request stored before validate refused the name)', () => {
    // A form of earlier days with a field named like the portal's own column.
    const earlier = form({ reference: { type: 'string' }, drive: { type: 'string', enum: ['accu', 'petrol'] } });
    const gathered = new ExportColumns(new Map(), languages);
    const stored = row({ reference: 'my own note', drive: 'accu' });
    gathered.add(stored, { model: earlier, languages });
    expect(gathered.header('nl', languages)).toEqual(['Referentie', 'Ontvangen', 'Merkpagina', 'Formulier', 'Taal van de pagina', 'Uw kenmerk', 'Aandrijving']);
    const cells = sheetRow(gathered.columns, stored, { model: earlier, languages }, { languages, language: 'nl' }, () => 'then');
    expect(cells).toEqual(['K7QM-4XRT-9P', 'then', 'tuinco', 'Tuinformulier', 'nl', 'my own note', 'Accu']);
    // For scripts: the portal's keys and the request's fields, each in its own place; the choice as stored.
    expect(exportRecord(stored, () => 'then')).toMatchObject({ reference: 'K7QM-4XRT-9P', form_revision: 'r1', request: { reference: 'my own note', drive: 'accu' } });
  });

  it('has a column for every field of every form the requests were sent with, today’s first, and each value under its own', () => {
    const today = form({ mail: { type: 'string' }, drive: { type: 'string' } });
    const before = form({ phone: { type: 'string' }, mail: { type: 'string' } });
    const gathered = new ExportColumns(new Map([['garden', today]]), languages);
    const old = row({ phone: '0612', mail: 'a@example.com' }, 1);
    const unknown = { ...row({ note: 'x' }, 2), variant: 'retired', form_revision: null };
    gathered.add(old, { model: before, languages });
    gathered.add(unknown, undefined);
    expect(gathered.columns.slice(5)).toEqual([
      { field: 'mail', kind: 'string' },
      { field: 'drive', kind: 'string' },
      { field: 'phone', kind: 'string' },
      { field: 'note' },
    ]);
    expect(sheetRow(gathered.columns, old, { model: before, languages }, { languages, language: 'nl' }, () => 't').slice(5)).toEqual(['a@example.com', undefined, '0612', undefined]);
    expect(sheetRow(gathered.columns, unknown, undefined, { languages, language: 'nl' }, () => 't').slice(5)).toEqual([undefined, undefined, undefined, 'x']);
  });

  it('gives a name a later form reuses for something else a column of its own, and tells columns of one label apart', () => {
    // Once "drive" was typed in; today it is a choice. And "mail" was renamed "email", its label kept.
    const today = form({ email: { type: 'string' }, drive: { type: 'string', enum: ['accu', 'petrol'] } });
    const before = form({ mail: { type: 'string' }, drive: { type: 'string' } });
    const gathered = new ExportColumns(new Map([['garden', today]]), indexLanguages({ nl: { fields: { email: 'E-mail', mail: 'E-mail', drive: 'Aandrijving' }, options: { drive: { accu: 'Accu' } } } }));
    const words = indexLanguages({ nl: { fields: { email: 'E-mail', mail: 'E-mail', drive: 'Aandrijving' }, options: { drive: { accu: 'Accu' } } } });
    const old = row({ mail: 'a@example.com', drive: 'benzine, 2 takt' }, 1);
    const now = row({ email: 'b@example.com', drive: 'accu' }, 2);
    gathered.add(old, { model: before, languages: words });
    gathered.add(now, { model: today, languages: words });
    expect(gathered.header('nl', words).slice(5)).toEqual(['E-mail (email)', 'Aandrijving', 'E-mail (mail)', 'Aandrijving (2)']);
    expect(sheetRow(gathered.columns, old, { model: before, languages: words }, { languages: words, language: 'nl' }, () => 't').slice(5)).toEqual([undefined, undefined, 'a@example.com', 'benzine, 2 takt']);
    expect(sheetRow(gathered.columns, now, { model: today, languages: words }, { languages: words, language: 'nl' }, () => 't').slice(5)).toEqual(['b@example.com', 'Accu', undefined, undefined]);
  });
});
