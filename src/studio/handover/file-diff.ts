import { binaryPatchLines } from './binary-patch.ts';
import type { ChangedFile } from './changed-files.ts';
import { diffableText } from './file-content.ts';
import { gitBlobId, NO_BLOB } from './git-blob.ts';
import { textHunkLines } from './text-patch.ts';

const NOTHING = new Uint8Array(0);
// The studio's files are plain files; it never hands over an executable bit.
const MODE = '100644';

/** One file's `diff --git` section, ending in a newline, as `git format-patch --full-index` writes it. */
export function fileDiff(file: ChangedFile): string {
  const before = file.status === 'added' ? NOTHING : file.before;
  const after = file.status === 'deleted' ? NOTHING : file.after;
  const [oldId, newId] = [file.status === 'added' ? NO_BLOB : gitBlobId(before), file.status === 'deleted' ? NO_BLOB : gitBlobId(after)];
  const lines = [`diff --git a/${file.path} b/${file.path}`];
  if (file.status === 'added') lines.push(`new file mode ${MODE}`, `index ${oldId}..${newId}`);
  if (file.status === 'deleted') lines.push(`deleted file mode ${MODE}`, `index ${oldId}..${newId}`);
  if (file.status === 'modified') lines.push(`index ${oldId}..${newId} ${MODE}`);
  lines.push(...contentLines(file, before, after));
  return lines.join('\n') + '\n';
}

function contentLines(file: ChangedFile, before: Uint8Array, after: Uint8Array): string[] {
  const [oldText, newText] = [diffableText(before), diffableText(after)];
  if (oldText === null || newText === null) return binaryPatchLines(before, after);
  const hunks = textHunkLines(oldText, newText);
  // An empty file added or deleted has no hunk, and git then writes no ---/+++ lines either.
  if (hunks.length === 0) return [];
  const oldName = file.status === 'added' ? '/dev/null' : `a/${file.path}`;
  const newName = file.status === 'deleted' ? '/dev/null' : `b/${file.path}`;
  return [`--- ${oldName}`, `+++ ${newName}`, ...hunks];
}
