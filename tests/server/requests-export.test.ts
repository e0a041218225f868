import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { csvCell } from '../../src/cli/requests';
import { png, simpleRequest, startTestServer, submit, uploadedName, type TestServer } from './helpers';

let server: TestServer;
let reference: string;

beforeAll(async () => {
  server = await startTestServer();
  const photo = await png();
  const [image1, image2] = [await uploadedName(server.url, photo, 'a.png', 'image/png'), await uploadedName(server.url, photo, 'b.png', 'image/png')];
  const res = await submit(server.url, 'hanant', { ...simpleRequest(image1, image2), last_name: '=HYPERLINK("x")', brand: 'Senza Nome' });
  reference = ((await res.json()) as { reference: string }).reference;
});
afterAll(() => server.dispose());

function exportRequests(...args: string[]): string {
  return execFileSync(process.execPath, ['--import', 'tsx', join(process.cwd(), 'src/cli/requests.ts'), 'export', ...args], {
    env: { ...process.env, DATA_DIR: server.dataDir },
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'ignore'],
  });
}

describe('npm run requests -- export', () => {
  it('writes stored requests as JSON lines', () => {
    const [line, ...rest] = exportRequests().trim().split('\n');
    expect(rest).toEqual([]);
    expect(JSON.parse(line)).toMatchObject({ reference, brand_id: 'hanant', locale: 'nl', brand: 'Senza Nome', city: 'Utrecht' });
  });

  it('writes CSV with a header and formula-safe cells', () => {
    const [header, row] = exportRequests('--format', 'csv').trim().split('\n');
    expect(header.split(',').slice(0, 6)).toEqual(['reference', 'created_at', 'brand_id', 'variant', 'locale', 'last_name']);
    expect(row).toContain(`${reference},`);
    expect(row).toContain(`"'=HYPERLINK(""x"")"`);
  });

  it('keeps phone numbers but defuses formulas', () => {
    expect(csvCell('+31 6 1234')).toBe('+31 6 1234');
    expect(csvCell('-5')).toBe('-5');
    expect(csvCell('+cmd|x')).toBe("'+cmd|x");
    expect(csvCell('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvCell('a,b')).toBe('"a,b"');
  });
});
