/**
 * Service-desk commands on stored repair requests (there is no public read API):
 *   npm run requests -- export [--format jsonl|csv] [--separator ',' | ';'] [--out file]
 *   npm run requests -- show --email <address>    everything held about one person (JSON)
 *   npm run requests -- erase --email <address>   removes it all (GDPR erasure)
 *   npm run requests -- deliveries                pending and failed deliveries per destination
 *   npm run requests -- redeliver <reference>     queue a request's deliveries again
 * Work on DATA_DIR (default ./data); safe while the server runs.
 */
import { createWriteStream } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { formSchemas, requestFields } from '../core/form-schemas';
import { openDatabase } from '../server/storage/database';
import { findSubjectData } from '../server/privacy/subject-data';
import { formatDeliveries, listDeliveries, redeliver } from './requests/deliveries';
import { eraseSubject } from './requests/subject-access';

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
       npm run requests -- show --email <address>
       npm run requests -- erase --email <address>
       npm run requests -- deliveries
       npm run requests -- redeliver <reference>`;

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
    },
  });
  const dataDir = resolve(process.env.DATA_DIR ?? './data');
  const [command, reference] = positionals;
  if (command === 'deliveries') return showDeliveries(dataDir);
  if (command === 'redeliver') {
    if (!reference) usage();
    return queueAgain(dataDir, reference);
  }
  if (command === 'show' || command === 'erase') {
    if (!values.email?.includes('@')) usage();
    await subjectCommand(command, dataDir, values.email);
    return;
  }
  const { format, separator } = values;
  if (command !== 'export' || (format !== 'jsonl' && format !== 'csv') || !SEPARATORS.includes(separator)) usage();
  await exportRequests(dataDir, format, separator, values.out);
}

function showDeliveries(dataDir: string): void {
  const db = openDatabase(dataDir, { readonly: true });
  try {
    for (const line of formatDeliveries(listDeliveries(db))) console.log(line);
  } finally {
    db.close();
  }
}

function queueAgain(dataDir: string, reference: string): void {
  const db = openDatabase(dataDir);
  let queued: number | undefined;
  try {
    queued = redeliver(db, reference);
  } finally {
    db.close();
  }
  if (queued === undefined) {
    console.error(`No request with reference ${reference}.`);
    process.exit(1);
  }
  console.log(`Queued ${queued} deliver${queued === 1 ? 'y' : 'ies'} of ${reference} again; the running server sends them within seconds.`);
}

async function subjectCommand(command: 'show' | 'erase', dataDir: string, email: string): Promise<void> {
  const db = openDatabase(dataDir, { readonly: command === 'show' });
  try {
    if (command === 'show') {
      console.log(JSON.stringify(findSubjectData(db, dataDir, email), null, 2));
    } else {
      // Counts only: the log of an erasure must not itself hold the personal data.
      console.error(JSON.stringify({ event: 'erasure', at: new Date().toISOString(), ...(await eraseSubject(db, dataDir, email)) }));
    }
  } finally {
    db.close();
  }
}

async function exportRequests(dataDir: string, format: 'jsonl' | 'csv', separator: string, outPath: string | undefined): Promise<void> {
  const db = openDatabase(dataDir, { readonly: true });
  const out = outPath ? createWriteStream(outPath, { flags: 'wx', mode: 0o600 }) : process.stdout;
  // CSV records end in CRLF (RFC 4180); JSON lines in LF.
  const end = format === 'csv' ? '\r\n' : '\n';
  const write = (line: string) => new Promise<void>((done) => (out.write(`${line}${end}`) ? done() : out.once('drain', done)));
  if (format === 'csv') await write(COLUMNS.map(csvCell).join(separator));
  let count = 0;
  for (const row of db.prepare('SELECT reference, created_at, brand, variant, locale, payload FROM requests ORDER BY id').iterate()) {
    await write(exportLine(row as StoredRow, format, separator));
    count++;
  }
  db.close();
  if (out !== process.stdout) await new Promise<void>((done) => out.end(() => done()));
  console.error(`exported ${count} request(s)`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await main();
