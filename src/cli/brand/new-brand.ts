import { planNewBrand, type NewBrandRequest } from '../../core/validate/index.ts';
import { diskFiles } from '../../server/disk-files.ts';
import { writeNewFiles } from '../write-new-files.ts';

/** What was made (project paths), or why nothing was. */
export type NewBrandResult = { ok: true; created: string[] } | { ok: false; message: string };

/**
 * Copies brands/<like>.json and its logo and favicon under a new id in the project at root, as
 * core plans it (every check first); no file is ever overwritten, so a refused or failed request
 * leaves the project as it was.
 */
export function newBrand({ root, ...request }: NewBrandRequest & { root: string }): NewBrandResult {
  const plan = planNewBrand(diskFiles(root), request);
  if (!plan.ok) return plan;
  try {
    writeNewFiles(root, plan.files);
  } catch (error) {
    return { ok: false, message: `nothing was created: ${error instanceof Error ? error.message : String(error)}` };
  }
  return { ok: true, created: Object.keys(plan.files) };
}
