/**
 * `npm run validate [-- --root <dir>] [--format text|github|json] [--fallbacks]`:
 * checks brand files, forms, languages and countries (brands/ and schemas/, or
 * BRANDS_DIR and SCHEMAS_DIR) and prints each finding
 * as "<file>:<line>:<column> <pointer>: <sentence>" (warnings say so), GitHub
 * Actions annotations, or one JSON object per finding; exits 1 on any
 * problem. The checks live in src/core/validate/, where the browser studio
 * runs them too; this command reads the files from disk.
 */
// Imports name their .ts files: vite.config.ts loads this module (through checked-project.ts).
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ProjectFiles } from '../core/project-files.ts';
import { PROJECT_LAYOUT, type ProjectLayout } from '../core/project-layout.ts';
import { checkProject, OUTPUT_FORMATS, reportLines, type OutputFormat, type ProjectReport } from '../core/validate/index.ts';
import { diskFiles, projectPath } from '../server/disk-files.ts';
import { optionValue } from './option-value.ts';

export type { Problem } from '../core/validate/index.ts';

const defaultRoot = fileURLToPath(new URL('../../', import.meta.url));
const USAGE = `Usage: npm run validate [-- --format ${OUTPUT_FORMATS.join('|')}] [--fallbacks]
  --format github  GitHub Actions annotations (::error file=…,line=…,col=…::…)
  --format json    one JSON object per finding (severity, file, line, column, pointer, message)
  --fallbacks      list each text a language lacks (it shows in Dutch), not only the count`;

/** Where the checked data lives when not in the project's own brands/ and schemas/ (BRANDS_DIR, SCHEMAS_DIR), as absolute paths. */
export interface DataFolders {
  brandsDir?: string;
  schemasDir?: string;
}

/** The project at rootDir as the checks read it: its files on disk, and where its data is (the folders given, as paths from rootDir). */
export function projectOnDisk(rootDir: string, folders: DataFolders = {}): { files: ProjectFiles; layout: ProjectLayout } {
  const root = resolve(rootDir);
  const inProject = (folder: string | undefined, otherwise: string) => (folder === undefined ? otherwise : projectPath(root, folder));
  return {
    files: diskFiles(root),
    layout: { ...PROJECT_LAYOUT, brandsDir: inProject(folders.brandsDir, PROJECT_LAYOUT.brandsDir), schemasDir: inProject(folders.schemasDir, PROJECT_LAYOUT.schemasDir) },
  };
}

/** Every check of `npm run validate`, on the project at rootDir (its brands/ and schemas/, or the folders given); every finding with its line and column. */
export function validateProject(rootDir: string, folders: DataFolders = {}): ProjectReport {
  const { files, layout } = projectOnDisk(rootDir, folders);
  return checkProject(files, layout);
}

/**
 * Runs the checks and prints the result; returns the exit status (2: the command was given wrongly).
 * Without --root, BRANDS_DIR and SCHEMAS_DIR (relative to the project, as the build and the server read them)
 * say where the data is: `npm run build` checks the brands and forms it is about to build the pages of.
 */
export function runValidate(argv: readonly string[], out: (line: string) => void = console.log, env: NodeJS.ProcessEnv = process.env): number {
  const format = optionValue(argv, '--format') ?? 'text';
  if (!(OUTPUT_FORMATS as readonly string[]).includes(format)) {
    out(`"${format}" is not a format validate knows.\n${USAGE}`);
    return 2;
  }
  const root = optionValue(argv, '--root');
  // Another project (--root) is checked in its own brands/ and schemas/.
  const folder = (value: string | undefined) => (root === undefined && value?.trim() ? resolve(defaultRoot, value.trim()) : undefined);
  const report = validateProject(root ?? defaultRoot, { brandsDir: folder(env.BRANDS_DIR), schemasDir: folder(env.SCHEMAS_DIR) });
  for (const line of reportLines(report, { format: format as OutputFormat, fallbacks: argv.includes('--fallbacks') })) out(line);
  return report.problems.length === 0 ? 0 : 1;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  process.exitCode = runValidate(process.argv.slice(2));
}
