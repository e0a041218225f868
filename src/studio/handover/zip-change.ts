import { zipSync, type Zippable } from 'fflate';
import { someChangedFiles } from './changed-files.ts';
import { HandoverError } from './handover-error.ts';
import type { FileChange } from './types.ts';

/** Beside the files, at the zip's top: the note, and the files to delete. */
export const ZIP_NOTE = 'CHANGE.txt';
// The zip format's first day: with no date given, the same change gives the same bytes.
const ZIP_EPOCH = new Date(Date.UTC(1980, 0, 1));

export interface ZipChangeOptions {
  /** A few lines for whoever receives the zip, e.g. the change's message. */
  note?: string;
  /** The files' modification time; the zip format's first day (1980-01-01) when absent. */
  date?: Date;
}

/** The new and changed files at their paths in the project, for those who mail a change. */
export function zipChange(changes: FileChange[], options: ZipChangeOptions = {}): Uint8Array {
  const files = someChangedFiles(changes);
  const mtime = zipTime(options.date ?? ZIP_EPOCH);
  const entries: Zippable = {};
  for (const file of files) {
    if (file.path === ZIP_NOTE) throw new HandoverError(`A project file named ${ZIP_NOTE} cannot travel in the zip beside its note.`);
    if (file.status !== 'deleted') entries[file.path] = [file.after, { mtime }];
  }
  const deleted = files.filter((file) => file.status === 'deleted').map((file) => `- ${file.path}`);
  const note = [options.note?.trim() ?? '', deleted.length > 0 ? ['Delete these files from the project:', ...deleted].join('\n') : '']
    .filter((part) => part !== '')
    .join('\n\n');
  if (note !== '') entries[ZIP_NOTE] = [new TextEncoder().encode(`${note}\n`), { mtime }];
  return zipSync(entries, { level: 9 });
}

/**
 * Zip stores a local date and time without a zone, and fflate reads them
 * from the Date in the machine's zone: a Date whose local fields are the UTC
 * ones makes the bytes the same in every zone.
 */
function zipTime(date: Date): Date {
  return new Date(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate(), date.getUTCHours(), date.getUTCMinutes(), date.getUTCSeconds());
}
