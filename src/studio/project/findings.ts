import { checkProject, inMemoryFiles, jsonFindings, type JsonFinding } from '../../core/validate';
import type { ProjectLayout } from './layout';
import type { FileMap } from './project-files';

/** One finding of `npm run validate`, exactly as `--format json` prints it. */
export type Finding = JsonFinding;

/**
 * The findings of CI's own checks over the files as edited: the same module as `npm run validate`
 * (core/validate) and the objects its `--format json` prints, so the studio shows CI's words and places.
 */
export function findingsOf(files: FileMap, layout: ProjectLayout): Finding[] {
  return jsonFindings(checkProject(inMemoryFiles(Object.fromEntries(files)), layout.checks));
}
