import { planNewLanguage, type NewLanguageRequest } from '../../core/validate/index.ts';
import { diskFiles } from '../../server/disk-files.ts';
import { writeNewFiles } from '../write-new-files.ts';

/** The file made and what went into it, or why nothing was made. */
export type NewLanguageResult = { ok: true; file: string; name: string; intl: string } | { ok: false; message: string };

/** Starts schemas/i18n/<code>.json in the project at root, as core plans it; never overwrites a file. */
export function newLanguage({ root, ...request }: NewLanguageRequest & { root: string }): NewLanguageResult {
  const plan = planNewLanguage(diskFiles(root), request);
  if (!plan.ok) return plan;
  writeNewFiles(root, plan.files);
  return { ok: true, file: plan.file, name: plan.name, intl: plan.intl };
}
