import { basenameOf } from '../project-path.ts';
import { isRecord } from './files.ts';

/** A brand file as far as its id is concerned. */
export interface IdEntry {
  /** Project path, as printed (brands/acme.json). */
  file: string;
  /** The "id" value inside, if it is text. */
  id: string | undefined;
}

/**
 * Advice about a brand file's id and name, right for each case: the file
 * whose name equals its id owns that id, so a copy (boretti.json still saying
 * "fratelli") is the one told to change, and no advice ever renames a file
 * onto a brand that exists. Returns the messages per file (its /id).
 */
export function idProblems(entries: readonly IdEntry[], idPattern: RegExp): Map<string, string[]> {
  const fileIds = new Map(entries.map((e) => [basenameOf(e.file, '.json'), e]));
  const taken = (id: string, self: IdEntry) => fileIds.has(id) && fileIds.get(id) !== self;
  const result = new Map<string, string[]>();
  for (const entry of entries) {
    const fileId = basenameOf(entry.file, '.json');
    const message = idAdvice(entry, fileId, idPattern, (id) => taken(id, entry) ? fileIds.get(id)!.file : undefined);
    if (message) result.set(entry.file, [message]);
  }
  return result;
}

function idAdvice(entry: IdEntry, fileId: string, idPattern: RegExp, ownerOf: (id: string) => string | undefined): string | undefined {
  const { id } = entry;
  const idValid = id !== undefined && idPattern.test(id);
  if (!idPattern.test(fileId)) {
    const name = `${fileId}.json`;
    const rule = `the file name "${name}" cannot be a brand id: ids use only lower-case letters, digits and dashes, starting with a letter, because the id is part of the web address.`;
    const suggestion = [idValid ? id : undefined, slug(fileId)].find((s): s is string => s !== undefined && idPattern.test(s) && !ownerOf(s));
    if (!suggestion) return `${rule} Rename the file to a new id of your own, and write the same id in "id".`;
    const keep = id === suggestion ? ` (the id inside, "${id}", then matches)` : `, and change the id to "${suggestion}"`;
    return `${rule} Rename the file to ${suggestion}.json${keep}.`;
  }
  if (id === undefined || id === fileId) return undefined;
  const owner = idValid ? ownerOf(id) : undefined;
  if (owner) {
    return `the id "${id}" belongs to ${owner}; this file is ${entry.file}, so its id must be "${fileId}". Change the id to "${fileId}" (every brand needs its own id, equal to its file name).`;
  }
  const rename = idValid ? `, or rename the file to ${id}.json` : '';
  return `the id "${id}" must equal the file name without .json ("${fileId}"). Change the id to "${fileId}"${rename}.`;
}

/** A file name as an id: "Boretti" → "boretti", "acme copy" → "acme-copy". */
function slug(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

/** The id rule, from the brand schema (one place): ids and file names are checked against it. */
export function idPatternOf(schema: unknown): RegExp {
  const id = isRecord(schema) && isRecord(schema.properties) ? schema.properties.id : undefined;
  return new RegExp(isRecord(id) && typeof id.pattern === 'string' ? id.pattern : '^[a-z][a-z0-9-]*$');
}
