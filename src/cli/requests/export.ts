import { once } from 'node:events';
import { createWriteStream, existsSync, linkSync, renameSync, rmSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Writable } from 'node:stream';
import type { Locale } from '../../core/types';
import type { PortalData } from '../../server/portal-data';
import type { Storage } from '../../server/storage/port';
import { CommandError } from './command-error';
import { csvHeader, csvLine, exportColumns, exportRecord } from './export-rows';
import { timeWithOffset } from './time-with-offset';

export interface ExportOptions {
  format: 'csv' | 'jsonl';
  /** CSV: the language of the headers, and the cell separator. */
  language: Locale;
  separator: string;
  /** The forms (the columns) and the languages (their headers). */
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
 * `export`: every stored request, as CSV for a spreadsheet (UTF-8 with BOM,
 * CRLF, headers in the staff's language, times in the portal's time zone
 * with the offset) or as JSON lines (times in UTC). A file is written under a
 * temporary name and put in place only once complete.
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
  const columns = exportColumns(data.forms.values());
  // CSV records end in CRLF (RFC 4180); JSON lines in LF.
  const end = format === 'csv' ? '\r\n' : '\n';
  const write = async (line: string) => {
    if (!out.write(`${line}${end}`)) await once(out, 'drain');
  };
  const localTime = timeWithOffset(timeZone);
  const utc = (ms: number) => new Date(ms).toISOString();
  if (format === 'csv') await write(`${BOM}${csvHeader(columns, data.forms.values(), { languages: data.languages, language }, separator)}`);
  let count = 0;
  for (let after = 0; ; ) {
    const rows = await storage.requestsAfter(after, PAGE);
    for (const row of rows) {
      await write(format === 'csv' ? csvLine(columns, exportRecord(row, localTime), separator) : JSON.stringify(exportRecord(row, utc)));
    }
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
