// Imports name their .ts files: vite.config.ts loads this module, and Vite's native config loader will need the extensions.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { brandFromFile } from '../core/brand-file.ts';
import type { Brand } from '../core/types.ts';
import { brandFilesOf, formatProblem } from '../core/validate/index.ts';
import { loadPortalData, type PortalData } from '../server/portal-data.ts';
import { projectOnDisk, validateProject } from './validate.ts';

/** Where the portal's data is: the brand files (brands/, or BRANDS_DIR) and the forms, languages and countries (schemas/, or SCHEMAS_DIR). */
export interface DataFolders {
  brandsDir: string;
  schemasDir: string;
}

/** Thrown when the brand files or the data do not pass npm run validate; the message is validate's own. */
export class ProjectCheckError extends Error {
  constructor(readonly lines: string[]) {
    super(`npm run validate found problems; the page is built from these files, so fix them and save:\n\n${lines.join('\n')}`);
    this.name = 'ProjectCheckError';
    // The message says it all; a stack trace in the dev overlay would only bury it.
    this.stack = '';
  }
}

/** Every file under dir, as absolute paths (none where it is missing). */
function filesUnder(dir: string): string[] {
  const entries = statSync(dir, { throwIfNoEntry: false })?.isDirectory() ? readdirSync(dir, { withFileTypes: true }) : [];
  return entries.flatMap((entry) => (entry.isDirectory() ? filesUnder(join(dir, entry.name)) : [join(dir, entry.name)]));
}

/** Every file the checks and the page read: the brand files with their pictures, the data, the brand schema. */
export function dataFiles(root: string, { brandsDir, schemasDir }: DataFolders): string[] {
  return [...filesUnder(brandsDir), ...filesUnder(schemasDir), join(root, 'schemas', 'brand.schema.json')];
}

/** The files' names, sizes and times: the checks run again only when it changes (every virtual module of a build asks). */
function stampOf(files: string[]): string {
  return files
    .map((file) => {
      const st = statSync(file, { throwIfNoEntry: false });
      return `${file}\0${st?.mtimeMs}\0${st?.size}`;
    })
    .join('\n');
}

const lastCheck = new Map<string, { stamp: string; lines: string[] }>();

/** Validate's problems with the brand files in brandsDir and the data in schemasDir, as printed lines (empty: all is well). */
export function projectProblemLines(root: string, folders: DataFolders): string[] {
  const key = JSON.stringify([root, folders.brandsDir, folders.schemasDir]);
  const stamp = stampOf(dataFiles(root, folders));
  const last = lastCheck.get(key);
  if (last?.stamp === stamp) return last.lines;
  const lines = validateProject(root, folders).problems.map((problem) => formatProblem(problem));
  lastCheck.set(key, { stamp, lines });
  return lines;
}

function refuseProblems(root: string, folders: DataFolders): void {
  const lines = projectProblemLines(root, folders);
  if (lines.length > 0) throw new ProjectCheckError(lines);
}

/**
 * The brand files, parsed, after the same checks as npm run validate: the
 * build, the dev server and npm start never turn a broken brand into a page.
 */
export function checkedBrands(root: string, folders: DataFolders): { files: string[]; brands: Brand[] } {
  refuseProblems(root, folders);
  const project = projectOnDisk(root, folders);
  const files = brandFilesOf(project.files, project.layout.brandsDir).map((file) => join(root, file));
  return { files, brands: files.map((f) => brandFromFile(JSON.parse(readFileSync(f, 'utf8')) as Record<string, unknown>)) };
}

/** The forms, languages and countries, assembled as the server reads them, after the same checks as npm run validate. */
export function checkedPortalData(root: string, folders: DataFolders): PortalData {
  refuseProblems(root, folders);
  return loadPortalData(folders.schemasDir);
}
