/**
 * Paths inside a project as the checks name them: relative to the project's
 * folder, with forward slashes, starting with ../ for a folder outside it
 * (BRANDS_DIR elsewhere). Pure string work, as node:path's posix functions
 * would do it on the same folders, so the browser and the CLI print the same.
 */

/** Where a project without a known place on disk (the browser's) is taken to be; it shows only in a path that leaves it. */
const NOWHERE = '/<project>';

/** The segments of an absolute or relative path, "." and empty ones dropped, "x/.." folded; a relative path keeps its leading "..". */
function segmentsOf(path: string): string[] {
  const absolute = path.startsWith('/');
  const segments: string[] = [];
  for (const segment of path.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..' && segments.length > 0 && segments.at(-1) !== '..') segments.pop();
    else if (segment !== '..' || !absolute) segments.push(segment);
  }
  return segments;
}

/** "brands/./assets/../acme.json" → "brands/acme.json"; the project folder itself is "". */
export function normalizePath(path: string): string {
  return (path.startsWith('/') ? '/' : '') + segmentsOf(path).join('/');
}

export function joinPath(...parts: string[]): string {
  return normalizePath(parts.filter((part) => part !== '').join('/'));
}

/** The folder a path is in ("" for a file at the project's top). */
export function dirnameOf(path: string): string {
  const segments = segmentsOf(path);
  return (path.startsWith('/') ? '/' : '') + segments.slice(0, -1).join('/');
}

/** The last segment, without `ext` when it ends with it (and is more than it), as node's basename. */
export function basenameOf(path: string, ext = ''): string {
  const name = segmentsOf(path).at(-1) ?? '';
  return ext !== '' && name !== ext && name.endsWith(ext) ? name.slice(0, -ext.length) : name;
}

/** ".svg" of "assets/acme-logo.svg"; "" where the name has no extension (or is a dot-file), as node's extname. */
export function extnameOf(path: string): string {
  const name = basenameOf(path);
  const dot = name.lastIndexOf('.');
  return dot <= 0 || name === '..' ? '' : name.slice(dot);
}

/** A project path (or an absolute one) as an absolute path, the project being at `root`. */
function absolute(path: string, root = NOWHERE): string[] {
  return segmentsOf(path.startsWith('/') ? path : `${root}/${path}`);
}

/**
 * `to` as written from the folder `from` (a $schema reference); both are project paths. Where `from`
 * lies outside the project, the way back in names the project's own folders: `root`, its absolute path.
 */
export function relativePath(from: string, to: string, root?: string): string {
  const [start, end] = [absolute(from, root), absolute(to, root)];
  let common = 0;
  while (common < start.length && common < end.length && start[common] === end[common]) common++;
  return [...start.slice(common).map(() => '..'), ...end.slice(common)].join('/');
}

/** What `ref`, written in a file of the folder `from` (or absolute), names, as a project path. */
export function resolvePath(from: string, ref: string, root?: string): string {
  const base = root ?? NOWHERE;
  return relativePath(base, ref.startsWith('/') ? ref : `/${absolute(from, base).join('/')}/${ref}`, base);
}
