/**
 * Service-desk commands on stored repair requests (there is no public read API):
 *   npm run requests -- export [--format jsonl|csv] [--separator ',' | ';'] [--out file]
 *   npm run requests -- show --email <address> [--photos-to <folder>]
 *                                                 everything held about one person (JSON), and their photos
 *   npm run requests -- erase --email <address>   removes it all (GDPR erasure)
 *   npm run requests -- deliveries                pending and failed deliveries per destination
 *   npm run requests -- redeliver <reference>     queue a request's deliveries again
 *   npm run requests -- migrate-to-postgres [--allow-missing-photos]
 *                                                 moves DATA_DIR's SQLite requests and photos into DATABASE_URL
 *                                                 (server stopped; docs/postgresql.md)
 * Work on DATABASE_URL (PostgreSQL) when set, else on DATA_DIR (default ./data); safe while the server runs.
 */
import './supported-node.mjs';
import { createWriteStream, mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { formSchemas, requestFields } from '../core/form-schemas';
import { findSubjectData } from '../server/privacy/subject-data';
import { openStorage } from '../server/storage/open-storage';
import type { Storage } from '../server/storage/port';
import { formatDeliveries, listDeliveries, redeliver } from './requests/deliveries';
import { migrateToPostgres } from './requests/migrate-to-postgres';
import { eraseSubject } from '../server/privacy/erasure';

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

/** Comma for most spreadsheets; Dutch and French ones (decimal comma) expect a semicolon. */
const SEPARATORS = [',', ';'];

/**
 * A CSV cell as OWASP advises against CSV injection: a cell starting with
 * = + - @ tab or CR gets a leading apostrophe, so a spreadsheet shows it as
 * text (a phone number +31… reads as '+31…), and every cell is quoted.
 */
export function csvCell(value: unknown): string {
  if (value === undefined || value === null) return '""';
  let text = String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return `"${text.replace(/"/g, '""')}"`;
}

export function exportLine(row: StoredRow, format: 'jsonl' | 'csv', separator = ','): string {
  const record: Record<string, unknown> = {
    reference: row.reference,
    created_at: new Date(row.created_at).toISOString(),
    brand_id: row.brand,
    variant: row.variant,
    locale: row.locale,
    ...(JSON.parse(row.payload) as Record<string, unknown>),
  };
  return format === 'jsonl' ? JSON.stringify(record) : COLUMNS.map((c) => csvCell(record[c])).join(separator);
}

const USAGE = `usage: npm run requests -- export [--format jsonl|csv] [--separator ',' | ';'] [--out file]
       npm run requests -- show --email <address> [--photos-to <folder>]
       npm run requests -- erase --email <address>
       npm run requests -- deliveries
       npm run requests -- redeliver <reference>
       npm run requests -- migrate-to-postgres [--allow-missing-photos]   (stop the server first; DATA_DIR → DATABASE_URL)`;

function usage(): never {
  console.error(USAGE);
  process.exit(2);
}

async function main(): Promise<void> {
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: {
      format: { type: 'string', default: 'jsonl' },
      out: { type: 'string' },
      separator: { type: 'string', default: ',' },
      email: { type: 'string' },
      'photos-to': { type: 'string' },
      'allow-missing-photos': { type: 'boolean', default: false },
    },
  });
  const dataDir = resolve(process.env.DATA_DIR ?? './data');
  const [command, reference] = positionals;
  const { format, separator } = values;
  if (command === 'migrate-to-postgres') {
    const allowMissingPhotos = values['allow-missing-photos'];
    process.exitCode = await migrateToPostgres({ dataDir, databaseUrl: process.env.DATABASE_URL ?? '', allowMissingPhotos });
    return;
  }
  const known =
    command === 'deliveries' ||
    (command === 'redeliver' && reference) ||
    ((command === 'show' || command === 'erase') && values.email?.includes('@')) ||
    (command === 'export' && (format === 'jsonl' || format === 'csv') && SEPARATORS.includes(separator));
  if (!known) usage();
  const readonly = command === 'deliveries' || command === 'show' || command === 'export';
  const storage = await openStorage({ dataDir, databaseUrl: process.env.DATABASE_URL ?? '', databasePoolSize: 2 }, { readonly });
  try {
    if (command === 'deliveries') for (const line of formatDeliveries(await listDeliveries(storage))) console.log(line);
    else if (command === 'redeliver') await queueAgain(storage, reference);
    else if (command === 'show') await showSubject(storage, values.email!, values['photos-to']);
    else if (command === 'erase') await eraseCommand(storage, dataDir, values.email!);
    else await exportRequests(storage, format as 'jsonl' | 'csv', separator, values.out);
  } finally {
    await storage.close();
  }
}

async function queueAgain(storage: Storage, reference: string): Promise<void> {
  const queued = await redeliver(storage, reference);
  if (queued === undefined) {
    console.error(`No request with reference ${reference}.`);
    process.exit(1);
  }
  console.log(`Queued ${queued} deliver${queued === 1 ? 'y' : 'ies'} of ${reference} again; the running server sends them within seconds.`);
}

/** Prints what is held about the person; with --photos-to, also writes their photos there to hand over. */
async function showSubject(storage: Storage, email: string, photosTo: string | undefined): Promise<void> {
  const held = await findSubjectData(storage, email);
  if (photosTo) {
    mkdirSync(photosTo, { recursive: true, mode: 0o700 });
    for (const name of held.requests.flatMap((r) => r.photos)) {
      const bytes = await storage.photos.read(name);
      if (bytes) writeFileSync(join(photosTo, name), bytes, { mode: 0o600 });
    }
  }
  console.log(JSON.stringify(held, null, 2));
}

async function eraseCommand(storage: Storage, dataDir: string, email: string): Promise<void> {
  const erased = await eraseSubject({ storage, dataDir }, email);
  // Counts only: the log of an erasure must not itself hold the personal data.
  console.error(JSON.stringify({ event: 'erasure', at: new Date().toISOString(), ...erased }));
}

/** Requests read per query: the export streams a large database in pages instead of loading it whole. */
const PAGE = 500;

async function exportRequests(storage: Storage, format: 'jsonl' | 'csv', separator: string, outPath: string | undefined): Promise<void> {
  const out = outPath ? createWriteStream(outPath, { flags: 'wx', mode: 0o600 }) : process.stdout;
  // CSV records end in CRLF (RFC 4180); JSON lines in LF.
  const end = format === 'csv' ? '\r\n' : '\n';
  const write = (line: string) => new Promise<void>((done) => (out.write(`${line}${end}`) ? done() : out.once('drain', done)));
  if (format === 'csv') await write(COLUMNS.map(csvCell).join(separator));
  let count = 0;
  for (let after = 0; ; ) {
    const rows = await storage.requestsAfter(after, PAGE);
    for (const row of rows) await write(exportLine(row, format, separator));
    count += rows.length;
    if (rows.length < PAGE) break;
    after = rows[rows.length - 1].id;
  }
  if (out !== process.stdout) await new Promise<void>((done) => out.end(() => done()));
  console.error(`exported ${count} request(s)`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await main();
