import { once } from 'node:events';
import { createWriteStream, existsSync, linkSync, renameSync, rmSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Writable } from 'node:stream';
import { findText } from '../../core/texts';
import type { Locale } from '../../core/types';
import type { PortalData } from '../../server/portal-data';
import { FormRevisions } from '../../server/revisions/form-revisions';
import type { Storage } from '../../server/storage/port';
import type { StoredRequest } from '../../server/storage/records';
import { CommandError } from './command-error';
import { csvLine, ExportColumns, exportRecord, sheetRow, type SheetCell } from './export-rows';
import { timeWithOffset } from './time-with-offset';

export const EXPORT_FORMATS = ['csv', 'xlsx', 'jsonl'] as const;

export interface ExportOptions {
  format: (typeof EXPORT_FORMATS)[number];
  /** CSV and workbook: the staff's language (headers, words); CSV: the cell separator. */
  language: Locale;
  separator: string;
  /** Today's forms (requests not yet given a revision; the first columns) and the languages (headers, words). */
  data: Pick<PortalData, 'forms' | 'languages'>;
  /** The file to write; none: stdout. */
  out: string | undefined;
  /** Overwrite `out` if it exists. */
  force: boolean;
  /** PORTAL_TIME_ZONE: the CSV's clock. */
  timeZone: string;
}

/** Requests read per query: the export streams a large database in pages instead of loading it whole. */
const PAGE = 500;
/** Excel reads a CSV file as UTF-8 only when it starts with the byte order mark (else as the system's code page). */
const BOM = '\uFEFF';

const existsAlready = (path: string) => new CommandError(`${path} exists already: name another file, or add --force to overwrite it.`);

/** Refuses, before any work, to write over a file the operator did not say may go. */
export function refuseOverwrite({ out, force }: Pick<ExportOptions, 'out' | 'force'>): void {
  if (out && !force && existsSync(out)) throw existsAlready(out);
}

/**
 * `export`: every stored request, for the staff as a workbook (.xlsx: text cells, numbers as typed)
 * or a CSV (UTF-8 with BOM, CRLF), both with headers and words in the staff's language and times
 * in the portal's time zone with the offset; or for scripts as JSON lines (as stored, times in UTC).
 * A file is written under a temporary name and put in place only once complete.
 */
export async function exportRequests(storage: Storage, options: ExportOptions): Promise<void> {
  const target = options.out ? await partialFile(options.out) : undefined;
  const out: Writable = target?.stream ?? process.stdout;
  try {
    const count = await writeRequests(storage, out, options);
    if (target) await target.finish(options.force);
    console.error(`Exported ${count} request${count === 1 ? '' : 's'}${options.out ? ` to ${options.out}` : ''}.`);
  } catch (error) {
    target?.abandon();
    throw error;
  }
}

async function writeRequests(storage: Storage, out: Writable, { format, separator, language, timeZone, data }: ExportOptions): Promise<number> {
  // CSV records end in CRLF (RFC 4180); JSON lines in LF.
  const end = format === 'csv' ? '\r\n' : '\n';
  const write = async (line: string) => {
    if (!out.write(`${line}${end}`)) await once(out, 'drain');
  };
  const utc = (ms: number) => new Date(ms).toISOString();
  if (format === 'jsonl') return eachRequest(storage, (row) => write(JSON.stringify(exportRecord(row, utc))));

  // Each request is read by the form it was sent with; the columns are every field of those forms, so a first pass gathers them.
  const forms = new FormRevisions(data, storage);
  const gathered = new ExportColumns(data.forms, data.languages);
  await eachRequest(storage, async (row) => gathered.add(row, await forms.of(row)));
  const columns = gathered.columns;
  const header = gathered.header(language, data.languages);
  const localTime = timeWithOffset(timeZone);
  const words = { languages: data.languages, language };
  // The workbook is written whole at the end (a zip of XML); its rows are gathered meanwhile.
  const sheet: SheetCell[][] = [];
  if (format === 'csv') await write(`${BOM}${csvLine(header, separator)}`);
  const count = await eachRequest(storage, async (row) => {
    const cells = sheetRow(columns, row, await forms.of(row), words, localTime);
    if (format === 'xlsx') sheet.push(cells);
    else await write(csvLine(cells, separator));
  });
  if (format === 'xlsx') {
    // Loaded only for a workbook: the other commands start without it.
    const { xlsxWorkbook } = await import('./export-xlsx');
    if (!out.write(await xlsxWorkbook(findText(data.languages, language, 'export.sheet') ?? 'Requests', header, sheet))) await once(out, 'drain');
  }
  return count;
}

/** Every stored request in order, read a page at a time (a large database is never loaded whole); how many. */
async function eachRequest(storage: Storage, take: (row: StoredRequest) => Promise<void> | void): Promise<number> {
  let count = 0;
  for (let after = 0; ; ) {
    const rows = await storage.requestsAfter(after, PAGE);
    for (const row of rows) await take(row);
    count += rows.length;
    if (rows.length < PAGE) return count;
    after = rows[rows.length - 1].id;
  }
}

/** A file beside `path` that becomes `path` when finished, or goes away. Personal data: owner only. */
async function partialFile(path: string) {
  const partial = `${path}.${process.pid}.partial`;
  const stream = createWriteStream(partial, { flags: 'wx', mode: 0o600 });
  try {
    await once(stream, 'open');
  } catch (error) {
    const { code } = error as NodeJS.ErrnoException;
    throw new CommandError(`Cannot write ${path}: ${code === 'ENOENT' ? `the folder ${dirname(path)} does not exist` : (error as Error).message}`);
  }
  return {
    stream,
    async finish(force: boolean) {
      await new Promise<void>((done, fail) => stream.end((error?: Error | null) => (error ? fail(error) : done())));
      if (force) renameSync(partial, path);
      else {
        // A link is made only where no file is: one that appeared meanwhile is not overwritten either.
        try {
          linkSync(partial, path);
        } catch (error) {
          throw (error as NodeJS.ErrnoException).code === 'EEXIST' ? existsAlready(path) : error;
        }
        rmSync(partial);
      }
    },
    abandon() {
      stream.destroy();
      rmSync(partial, { force: true });
    },
  };
}
