import type { Registry } from '@rjsf/utils';
import type { TFunction } from 'i18next';
import type { ProjectLayout } from '../project/layout';
import type { FileContent, FileMap } from '../project/project-files';

/** What the studio's widgets read besides their own value: the other files, and a way to write pictures. */
export interface FieldContext {
  /** The file being edited (brands/acme.json). */
  path: string;
  files: FileMap;
  layout: ProjectLayout;
  /** The whole file's data as edited (a colour's contrast reads its partner, a text its brand's languages). */
  data: Record<string, unknown>;
  /** Writes other files in the same step (a picture chosen for the logo). */
  writeFiles(changes: Record<string, FileContent | undefined>): void;
  t: TFunction;
  language: string;
}

export function fieldContextOf(registry: Registry): FieldContext {
  return registry.formContext as FieldContext;
}
