import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, extname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { XMLParser } from 'fast-xml-parser';

/** A cell as LibreOffice Calc holds it: its type (`string`, `float`, `date`, …), what it shows, and a formula if it runs one. */
export interface CalcCell {
  type: string;
  text: string;
  formula?: string;
}

/**
 * The import options LibreOffice's text-import dialog starts with (its own defaults, in
 * share/registry/main.xcd under Dialogs/CSVImport: separators comma, semicolon and tab, text
 * delimiter ", "quoted field as text", "detect special numbers" and "evaluate formulas" off), on a
 * Dutch system (language 1043), as the CSV filter's tokens: separators, delimiter, UTF-8 (76; the
 * dialog finds it from the byte order mark), first line, no column types, language, quoted as text,
 * special numbers, two export-only tokens, trim spaces, one export-only token, evaluate formulas.
 */
export const DIALOG_DEFAULTS = 'CSV:44/59/9,34,76,1,,1043,false,false,false,false,false,-1,false';

const run = promisify(execFile);

/**
 * Opens `file` in LibreOffice Calc (headless, a profile of its own) as a person gets it by default,
 * and reads back every sheet row: converted to flat ODF, whose cells carry their type and text.
 */
export async function openInLibreOffice(file: string): Promise<CalcCell[][]> {
  const work = mkdtempSync(join(tmpdir(), 'calc-'));
  try {
    const csv = extname(file).toLowerCase() === '.csv';
    const { stdout, stderr } = await run(
      'soffice',
      [
        `-env:UserInstallation=${pathToFileURL(join(work, 'profile')).href}`,
        '--headless',
        '--norestore',
        ...(csv ? [`--infilter=${DIALOG_DEFAULTS}`] : []),
        '--convert-to',
        'fods',
        '--outdir',
        work,
        file,
      ],
      { timeout: 120_000 },
    ).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') throw new Error('LibreOffice (soffice) is not installed: apt-get install libreoffice-calc-nogui');
      throw error;
    });
    const converted = join(work, `${basename(file, extname(file))}.fods`);
    // soffice exits 0 when it cannot read a file, and says so (or nothing) on its outputs.
    if (!existsSync(converted)) throw new Error(`LibreOffice could not open ${file}: ${`${stdout}${stderr}`.trim() || 'it said nothing'}`);
    return sheetRows(readFileSync(converted, 'utf8'));
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

type XmlNode = Record<string, unknown> & { ':@'?: Record<string, string> };

const tagOf = (node: XmlNode) => Object.keys(node).find((k) => k !== ':@')!;
const childrenOf = (node: XmlNode) => (node[tagOf(node)] ?? []) as XmlNode[];
const attr = (node: XmlNode, name: string) => node[':@']?.[`@_${name}`];

function* descendants(nodes: XmlNode[], tag: string): Generator<XmlNode> {
  for (const node of nodes) {
    if (tagOf(node) === tag) yield node;
    else if (Array.isArray(node[tagOf(node)])) yield* descendants(childrenOf(node), tag);
  }
}

/** The text of a paragraph as shown: runs of spaces, tabs and line breaks are elements in ODF. */
function paragraphText(nodes: XmlNode[]): string {
  return nodes
    .map((node) => {
      const tag = tagOf(node);
      if (tag === '#text') return String(node['#text']);
      if (tag === 'text:s') return ' '.repeat(Number(attr(node, 'text:c') ?? 1));
      if (tag === 'text:tab') return '\t';
      if (tag === 'text:line-break') return '\n';
      return paragraphText(childrenOf(node));
    })
    .join('');
}

function cellOf(node: XmlNode): CalcCell {
  const paragraphs = [...descendants(childrenOf(node), 'text:p')].map((p) => paragraphText(childrenOf(p)));
  const formula = attr(node, 'table:formula');
  return { type: attr(node, 'office:value-type') ?? '', text: paragraphs.join('\n'), ...(formula ? { formula } : {}) };
}

/** Rows of the first sheet, repeated cells spelled out, empty rows and trailing empty cells left off. */
export function sheetRows(fods: string): CalcCell[][] {
  const parser = new XMLParser({ preserveOrder: true, ignoreAttributes: false, trimValues: false, parseTagValue: false, processEntities: true });
  const document = parser.parse(fods) as XmlNode[];
  const [table] = descendants(document, 'table:table');
  const rows: CalcCell[][] = [];
  for (const row of descendants(childrenOf(table), 'table:table-row')) {
    const cells: CalcCell[] = [];
    for (const cell of childrenOf(row)) {
      const tag = tagOf(cell);
      if (tag !== 'table:table-cell' && tag !== 'table:covered-table-cell') continue;
      const repeated = Math.min(Number(attr(cell, 'table:number-columns-repeated') ?? 1), 1024);
      for (let i = 0; i < repeated; i++) cells.push(cellOf(cell));
    }
    while (cells.length && !cells.at(-1)!.type && !cells.at(-1)!.text) cells.pop();
    if (cells.length) rows.push(cells);
  }
  return rows;
}

/** Each row under the first as header → cell. */
export function byHeader(rows: CalcCell[][]): Record<string, CalcCell>[] {
  const [header, ...rest] = rows;
  return rest.map((cells) => Object.fromEntries(header.map((h, i) => [h.text, cells[i] ?? { type: '', text: '' }])));
}
