/**
 * Service-desk commands on stored repair requests (there is no public read API); `npm run requests -- help`.
 * They read the server's own configuration (the environment and .env: DATA_DIR, DATABASE_URL), act
 * only on a store a server of this release made (never creating or migrating one), name it on stderr
 * before acting, and say what went wrong in one line. Safe while the server runs.
 */
import './supported-node.mjs';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { storedReference } from '../core/reference';
import { FALLBACK_LOCALE } from '../core/texts';
import type { PortalData } from '../server/portal-data';
import { FormRevisions } from '../server/revisions/form-revisions';
import type { Storage } from '../server/storage/port';
import { CommandError, runCommand } from './requests/command-error';
import { formatDeliveries, listDeliveries, redeliver, redeliverFailed, sinceTime } from './requests/deliveries';
import { erase } from './requests/erase';
import { EXPORT_FORMATS, exportRequests, refuseOverwrite, type ExportOptions } from './requests/export';
import { retireMailFolder, writeMails } from './requests/mail-copies';
import { migrateToPostgres } from './requests/migrate-to-postgres';
import { showRequest, showSubject } from './requests/show';
import { openStaffStore, staffPortalData, storeConfig, type StaffConfig } from './requests/staff-store';

/** Each command's form, the options it takes, and how many operands (what one is, when it needs one). */
const COMMANDS: Record<string, { usage: string; options: string[]; positionals: [min: number, max: number]; operand?: string }> = {
  export: {
    usage: "export [--out FILE [--force]] [--format xlsx|csv|jsonl] [--language nl|fr|…] [--separator ';'|',']",
    options: ['out', 'force', 'format', 'language', 'separator'],
    positionals: [0, 0],
  },
  show: { usage: 'show <reference> | show --email <address>   [--photos-to FOLDER]', options: ['email', 'photos-to'], positionals: [0, 1] },
  erase: { usage: 'erase --email <address>', options: ['email'], positionals: [0, 0] },
  mails: { usage: 'mails --out FOLDER', options: ['out'], positionals: [0, 0] },
  'retire-mail-folder': { usage: 'retire-mail-folder <folder>', options: [], positionals: [1, 1], operand: 'a folder' },
  deliveries: { usage: 'deliveries', options: [], positionals: [0, 0] },
  redeliver: { usage: 'redeliver <reference> | redeliver --failed [--since <ISO date or time | 90m, 12h, 3d>]', options: ['failed', 'since'], positionals: [0, 1] },
  'migrate-to-postgres': { usage: 'migrate-to-postgres [--allow-missing-photos]', options: ['allow-missing-photos'], positionals: [0, 0] },
};

const HELP = `usage: npm run requests -- <command>
  export [--out FILE [--force]] [--format xlsx|csv|jsonl] [--language nl|fr|…] [--separator ';'|',']
                                  every stored request: a workbook for Excel and LibreOffice (xlsx: every number as typed),
                                  CSV (UTF-8 with BOM, ';') or JSON lines; headers and words in Dutch or another language
                                  of schemas/i18n, times in the portal's time zone; --out writes FILE, in the format its
                                  name ends in (.xlsx, .csv, .jsonl), else CSV
  show <reference>                that request with its deliveries and its photos' names, as JSON (times in the portal's time zone);
                                  the reference in any case, with or without spaces and dashes (k7qm 4xrt 9p)
  show --email <address>          everything held about one person (subject-access request), as JSON
                                  (either: --photos-to FOLDER writes the photos there)
  erase --email <address>         removes everything held about that person; reports counts per table
  mails --out FOLDER              writes the mails kept without SMTP_URL to FOLDER as .eml files
  retire-mail-folder <folder>     forgets a folder servers of an earlier release wrote mails to (erase names it)
  deliveries                      deliveries pending or failed for good, per destination
  redeliver <reference>           queues a request's desk mail and webhook (and failed mails) again
  redeliver --failed [--since <ISO date or time | 90m, 12h, 3d>]
                                  queues every delivery that failed for good again (with --since: those failed since then)
  migrate-to-postgres [--allow-missing-photos]
                                  moves DATA_DIR's SQLite requests and photos into DATABASE_URL (server stopped; docs/postgresql.md)
Where: DATABASE_URL (PostgreSQL) when set, else DATA_DIR (default ./data), from the environment or .env, as the server reads them.`;

const OPTIONS = {
  help: { type: 'boolean' },
  out: { type: 'string' },
  force: { type: 'boolean' },
  format: { type: 'string' },
  language: { type: 'string' },
  separator: { type: 'string' },
  email: { type: 'string' },
  'photos-to': { type: 'string' },
  'allow-missing-photos': { type: 'boolean' },
  failed: { type: 'boolean' },
  since: { type: 'string' },
} as const;

type Values = ReturnType<typeof parseArgs<{ options: typeof OPTIONS; allowPositionals: true }>>['values'];

/** Arguments given wrongly: one line naming the problem and the command's form; exit code 2. */
function misused(problem: string, command?: string): CommandError {
  const form = command ? COMMANDS[command].usage : `${Object.keys(COMMANDS).join(' | ')}`;
  return new CommandError(`${problem}. Usage: npm run requests -- ${form} (npm run requests -- help for more)`, 2);
}

function parse(args: string[]): { command: string; operand: string | undefined; values: Values } {
  let parsed;
  try {
    parsed = parseArgs({ args, options: OPTIONS, allowPositionals: true, strict: true });
  } catch (error) {
    // parseArgs's first sentence names the problem; the rest is about `--`, which no command here needs.
    throw misused((error as Error).message.split('. ')[0].replace(/\.$/, ''), args[0] in COMMANDS ? args[0] : undefined);
  }
  const [command, ...operands] = parsed.positionals;
  const { values } = parsed;
  if (!command) throw misused('No command given');
  const spec = COMMANDS[command];
  if (!spec) throw misused(`Unknown command "${command}"`);
  const stray = Object.keys(values).find((name) => !spec.options.includes(name));
  if (stray) throw misused(`${command} takes no --${stray}`, command);
  const [min, max] = spec.positionals;
  if (operands.length < min) throw misused(`${command} needs ${spec.operand ?? 'a reference'}`, command);
  if (operands.length > max) throw misused(`Unexpected "${operands[max]}"`, command);
  return { command, operand: operands[0], values };
}

/** The format a file's name asks for (aanvragen.xlsx), if it is one the export writes. */
function formatOfName(out: string | undefined): string | undefined {
  const ending = /\.([a-z]+)$/i.exec(out ?? '')?.[1].toLowerCase();
  return EXPORT_FORMATS.find((format) => format === ending);
}

const isExportFormat = (format: string): format is ExportOptions['format'] => (EXPORT_FORMATS as readonly string[]).includes(format);

function exportOptions(values: Values, data: PortalData): Omit<ExportOptions, 'timeZone'> {
  const { out, format = formatOfName(out) ?? 'csv', language = FALLBACK_LOCALE, separator = ';', force = false } = values;
  if (!isExportFormat(format)) throw misused(`--format must be ${EXPORT_FORMATS.join(', ')}, not "${format}"`, 'export');
  // A workbook is a zip file: nothing for a terminal or a pipe into a text tool.
  if (format === 'xlsx' && !out) throw misused('xlsx is written to a file: add --out FILE', 'export');
  if (!data.languages.has(language)) throw misused(`--language must be ${[...data.languages.keys()].join(', ')}, not "${language}"`, 'export');
  // Semicolon for Dutch and French spreadsheets (decimal comma); comma for most others.
  if (separator !== ';' && separator !== ',') throw misused(`--separator must be ';' or ',', not "${separator}"`, 'export');
  if (force && !out) throw misused('--force goes with --out FILE', 'export');
  return { format, language, separator, out, force, data };
}

/** The address `show` and `erase` act on; `erase` takes it only as --email, so a reference is never taken for one. */
function address(values: Values, command: string): string {
  if (!values.email?.includes('@')) throw misused(values.email ? `"${values.email}" is not an e-mail address` : `${command} needs --email <address>`, command);
  return values.email;
}

/** What a command does on the store; made from its arguments before the store is opened, so a command given wrongly opens nothing. */
interface Task {
  readonly: boolean;
  run(storage: Storage, config: StaffConfig): Promise<void>;
}

const print = (lines: string[]) => lines.forEach((line) => console.log(line));

function taskOf(command: string, operand: string | undefined, values: Values, data: PortalData): Task {
  const photosTo = values['photos-to'];
  switch (command) {
    case 'export': {
      const options = exportOptions(values, data);
      refuseOverwrite(options);
      return { readonly: true, run: (storage, { timeZone }) => exportRequests(storage, { ...options, timeZone }) };
    }
    case 'show': {
      if ((operand === undefined) === (values.email === undefined)) throw misused('show takes a reference or --email <address>', 'show');
      if (operand) return { readonly: true, run: (storage, { timeZone }) => showRequest(storage, operand, photosTo, timeZone) };
      const email = address(values, command);
      return { readonly: true, run: (storage, { timeZone }) => showSubject(storage, new FormRevisions(data, storage), email, photosTo, timeZone) };
    }
    case 'erase': {
      const email = address(values, command);
      return {
        readonly: false,
        run: async (storage) => print(await erase(storage, new FormRevisions(data, storage), email)),
      };
    }
    case 'mails': {
      const { out } = values;
      if (!out) throw misused('mails needs --out FOLDER', command);
      return { readonly: true, run: async (storage) => console.log(await writeMails(storage, out)) };
    }
    case 'retire-mail-folder':
      return { readonly: false, run: async (storage) => console.log(await retireMailFolder(storage, operand!)) };
    case 'deliveries':
      return { readonly: true, run: async (storage) => print(formatDeliveries(await listDeliveries(storage))) };
    default: {
      if ((operand === undefined) === (values.failed === undefined)) throw misused('redeliver takes a reference or --failed', 'redeliver');
      if (values.since !== undefined && !values.failed) throw misused('--since goes with --failed', 'redeliver');
      if (operand) return { readonly: false, run: (storage) => queueAgain(storage, operand) };
      const since = values.since === undefined ? undefined : sinceTime(values.since);
      return { readonly: false, run: (storage) => queueFailed(storage, since) };
    }
  }
}

async function main(args: string[]): Promise<number | void> {
  if (args.length === 0) {
    console.error(HELP);
    return 2;
  }
  if (args[0] === 'help' || args.includes('--help')) {
    console.log(HELP);
    return 0;
  }
  const { command, operand, values } = parse(args);
  if (command === 'migrate-to-postgres') return migrateToPostgres({ ...storeConfig(), allowMissingPhotos: values['allow-missing-photos'] ?? false });
  const config = storeConfig();
  // Each request's form says which field holds whose address and which are photos (today's forms: requests not
  // yet given a revision); the languages give the export's words.
  const task = taskOf(command, operand, values, staffPortalData(config));
  const storage = await openStaffStore(config, { readonly: task.readonly });
  try {
    await task.run(storage, config);
  } finally {
    await storage.close();
  }
}

async function queueAgain(storage: Storage, typed: string): Promise<void> {
  const reference = storedReference(typed);
  const queued = await redeliver(storage, reference);
  if (queued === undefined) throw new CommandError(`No request with reference ${reference} in ${storage.description}.`);
  console.log(`Queued ${queued} deliver${queued === 1 ? 'y' : 'ies'} of ${reference} again; the running server sends them within seconds.`);
}

async function queueFailed(storage: Storage, since: number | undefined): Promise<void> {
  const queued = await redeliverFailed(storage, since);
  const which = since === undefined ? 'that failed for good' : `that failed for good since ${new Date(since).toISOString()}`;
  console.log(`Queued ${queued} deliver${queued === 1 ? 'y' : 'ies'} ${which} again; the running server sends them within seconds.`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await runCommand(() => main(process.argv.slice(2)));
