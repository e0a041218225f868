/**
 * Service-desk commands on DATA_DIR (default ./data); safe while the server runs:
 *   npm run requests -- export [--format jsonl|csv] [--out file]   stored requests (there is no public read API)
 *   npm run requests -- deliveries                                 pending and failed deliveries per destination
 *   npm run requests -- redeliver <reference>                      queue a request's deliveries again
 */
import { createWriteStream } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { formSchemas, requestFields } from '../core/form-schemas';
import { openDatabase } from '../server/storage/database';
import { formatDeliveries, listDeliveries, redeliver } from './requests/deliveries';

interface StoredRow {
  reference: string;
  created_at: number;
  brand: string;
  variant: string;
  locale: string;
  payload: string;
}

/** Every request field of every variant, in schema order, for stable CSV columns. */
const FIELDS = [...new Set(Object.values(formSchemas).flatMap(({ schema }) => requestFields(schema)))];
const COLUMNS = ['reference', 'created_at', 'brand_id', 'variant', 'locale', ...FIELDS];

/**
 * A CSV cell; text a spreadsheet would run as a formula (=, @, +/- not
 * followed by a digit, tab, CR) gets a leading apostrophe. Phone numbers
 * like +31… stay as they are.
 */
export function csvCell(value: unknown): string {
  if (value === undefined || value === null) return '';
  let text = String(value);
  if (/^[=@\t\r]|^[+-](?![\d\s(])/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function exportLine(row: StoredRow, format: 'jsonl' | 'csv'): string {
  const record: Record<string, unknown> = {
    reference: row.reference,
    created_at: new Date(row.created_at).toISOString(),
    brand_id: row.brand,
    variant: row.variant,
    locale: row.locale,
    ...(JSON.parse(row.payload) as Record<string, unknown>),
  };
  return format === 'jsonl' ? JSON.stringify(record) : COLUMNS.map((c) => csvCell(record[c])).join(',');
}

async function main(): Promise<void> {
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: { format: { type: 'string', default: 'jsonl' }, out: { type: 'string' } },
  });
  const format = values.format;
  const dataDir = resolve(process.env.DATA_DIR ?? './data');
  if (positionals[0] === 'deliveries') {
    const db = openDatabase(dataDir, { readonly: true });
    for (const line of formatDeliveries(listDeliveries(db))) console.log(line);
    db.close();
    return;
  }
  if (positionals[0] === 'redeliver' && positionals[1]) {
    const db = openDatabase(dataDir);
    const queued = redeliver(db, positionals[1]);
    db.close();
    if (queued === undefined) {
      console.error(`No request with reference ${positionals[1]}.`);
      process.exit(1);
    }
    console.log(`Queued ${queued} deliver${queued === 1 ? 'y' : 'ies'} of ${positionals[1]} again; the running server sends them within seconds.`);
    return;
  }
  if (positionals[0] !== 'export' || (format !== 'jsonl' && format !== 'csv')) {
    console.error(
      'usage: npm run requests -- export [--format jsonl|csv] [--out file]\n' +
        '       npm run requests -- deliveries\n' +
        '       npm run requests -- redeliver <reference>',
    );
    process.exit(2);
  }
  const db = openDatabase(dataDir, { readonly: true });
  const out = values.out ? createWriteStream(values.out, { flags: 'wx', mode: 0o600 }) : process.stdout;
  const write = (line: string) => new Promise<void>((done) => (out.write(`${line}\n`) ? done() : out.once('drain', done)));
  if (format === 'csv') await write(COLUMNS.join(','));
  let count = 0;
  for (const row of db.prepare('SELECT reference, created_at, brand, variant, locale, payload FROM requests ORDER BY id').iterate()) {
    await write(exportLine(row as StoredRow, format));
    count++;
  }
  db.close();
  if (out !== process.stdout) await new Promise<void>((done) => out.end(() => done()));
  console.error(`exported ${count} request(s)`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await main();
