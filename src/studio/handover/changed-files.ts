import { sameBytes, toBytes } from './file-content.ts';
import { HandoverError } from './handover-error.ts';
import { checkProjectPath } from './project-path.ts';
import type { FileChange } from './types.ts';

/** A file that differs from the studio's base, as bytes. */
export type ChangedFile =
  | { path: string; status: 'added'; after: Uint8Array }
  | { path: string; status: 'modified'; before: Uint8Array; after: Uint8Array }
  | { path: string; status: 'deleted'; before: Uint8Array };

/**
 * The files that really change, sorted by path as git orders a diff. Edits
 * that came back to the base are dropped; a path named twice, or a change
 * with neither side, is a caller's mistake and refused.
 */
export function changedFiles(changes: readonly FileChange[]): ChangedFile[] {
  const seen = new Set<string>();
  const files: ChangedFile[] = [];
  for (const change of changes) {
    checkProjectPath(change.path);
    if (seen.has(change.path)) throw new HandoverError(`The file "${change.path}" is named twice in one change.`);
    seen.add(change.path);
    const file = changedFile(change);
    if (file) files.push(file);
  }
  return files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

function changedFile({ path, before, after }: FileChange): ChangedFile | null {
  if (after === undefined) {
    if (before === undefined) throw new HandoverError(`The file "${path}" has neither a content before nor after the change.`);
    return { path, status: 'deleted', before: toBytes(before) };
  }
  if (before === undefined) return { path, status: 'added', after: toBytes(after) };
  const [was, is] = [toBytes(before), toBytes(after)];
  return sameBytes(was, is) ? null : { path, status: 'modified', before: was, after: is };
}

/** Throws where nothing is left to hand over: `git am` refuses an empty patch. */
export function someChangedFiles(changes: readonly FileChange[]): ChangedFile[] {
  const files = changedFiles(changes);
  if (files.length === 0) throw new HandoverError('There is nothing to hand over: no file differs from the project as the studio got it.');
  return files;
}
