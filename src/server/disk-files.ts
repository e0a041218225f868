// Imports name their .ts files: vite.config.ts loads this module (through src/cli/checked-project.ts).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import type { ProjectFiles } from '../core/project-files.ts';

/**
 * The files under `root` on disk, as core's checks and data assembly read them: a project path
 * (forward slashes, ../ for a folder beside the project) is joined to root. Nothing is cached:
 * `npm run dev` checks again after every save.
 */
export function diskFiles(root: string): ProjectFiles {
  const at = (path: string) => join(root, path);
  const isFile = (path: string) => statSync(at(path), { throwIfNoEntry: false })?.isFile() ?? false;
  return {
    root: resolve(root).split(sep).join('/'),
    text: (path) => (isFile(path) ? readFileSync(at(path), 'utf8') : undefined),
    bytes: (path) => (isFile(path) ? readFileSync(at(path)) : undefined),
    list: (dir) => (statSync(at(dir), { throwIfNoEntry: false })?.isDirectory() ? readdirSync(at(dir)).sort() : []),
    isFile,
  };
}

/** Where `path` (absolute) is as a project path of root: relative, with forward slashes, as validate prints it. */
export function projectPath(root: string, path: string): string {
  return relative(root, path).split(sep).join('/');
}
