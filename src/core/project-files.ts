import { basenameOf, dirnameOf, normalizePath } from './project-path.ts';

/**
 * The project's files as the checks and the data assembly read them: paths relative to the project
 * root, forward slashes (starting with ../ for folders outside it). The CLI, the build and the server
 * read them from disk (src/server/disk-files.ts); the browser studio holds them in memory.
 */
export interface ProjectFiles {
  /** The file's text (UTF-8, a byte-order mark kept); undefined when there is no such file. */
  text(path: string): string | undefined;
  /** The file's bytes (pictures); undefined when there is no such file. */
  bytes(path: string): Uint8Array | undefined;
  /** The names of the entries in a folder, sorted; [] when there is no such folder. */
  list(dir: string): string[];
  isFile(path: string): boolean;
  /** The project's folder as an absolute path, where it has one: names the way back into it from a folder outside it. */
  readonly root?: string;
}

// ignoreBOM keeps a leading byte-order mark in the text, as Node's reading of a file as UTF-8 does: the JSON check names it.
const utf8 = new TextDecoder('utf-8', { ignoreBOM: true });
const encoder = new TextEncoder();

/** A file's bytes as its text, as reading it as UTF-8 on disk gives it (a byte-order mark kept). */
export const decodeUtf8 = (bytes: Uint8Array): string => utf8.decode(bytes);

/** Files held in memory (the studio's edits), by project path: text, or bytes for pictures. */
export function inMemoryFiles(entries: Record<string, string | Uint8Array>): ProjectFiles {
  const files = new Map(Object.entries(entries).map(([path, content]) => [normalizePath(path), content]));
  return {
    text: (path) => {
      const content = files.get(normalizePath(path));
      return typeof content === 'string' || content === undefined ? content : decodeUtf8(content);
    },
    bytes: (path) => {
      const content = files.get(normalizePath(path));
      return typeof content === 'string' ? encoder.encode(content) : content;
    },
    list: (dir) => entriesOf([...files.keys()], normalizePath(dir)),
    isFile: (path) => files.has(normalizePath(path)),
  };
}

/** The names directly in `dir` (files, and folders that hold any), sorted. */
function entriesOf(paths: readonly string[], dir: string): string[] {
  const names = new Set<string>();
  for (const path of paths) {
    let child = path;
    while (child !== '' && dirnameOf(child) !== dir) child = dirnameOf(child);
    if (child !== '') names.add(basenameOf(child));
  }
  return [...names].sort();
}
