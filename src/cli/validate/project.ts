import { join, resolve } from 'node:path';
import { BRAND_LAYOUT, brandFilesOf, checkProjectBrands } from './brand-project';
import { isRecord, readJson } from './files';
import { checkFormFiles } from './form-files';
import type { Problem } from './problem';
import { checkInterfaceTexts, checkMessages } from './translations';

/** Where the checked files live, relative to the project root. */
export const PROJECT_LAYOUT = {
  ...BRAND_LAYOUT,
  formsDir: 'schemas/forms',
  messages: 'schemas/forms/messages.json',
  interfaceTexts: { nl: 'schemas/i18n/nl.json', fr: 'schemas/i18n/fr.json' },
} as const;

export interface ProjectReport {
  problems: Problem[];
  brandCount: number;
  variants: string[];
}

/** Every check of `npm run validate`, on the project at rootDir. */
export function validateProject(rootDir: string): ProjectReport {
  const root = resolve(rootDir);
  const at = (path: string) => join(root, path);
  const variants = brandVariants(root, at(PROJECT_LAYOUT.brandSchema));
  const problems = [
    ...checkProjectBrands(root),
    ...checkFormFiles(root, at(PROJECT_LAYOUT.formsDir), variants),
    ...checkMessages(root, at(PROJECT_LAYOUT.messages), variants),
    ...checkInterfaceTexts(root, {
      nl: at(PROJECT_LAYOUT.interfaceTexts.nl),
      fr: at(PROJECT_LAYOUT.interfaceTexts.fr),
    }),
  ];
  return { problems, brandCount: brandFilesOf(root).length, variants };
}

/** The form variants a brand file may choose: the brand schema's `variant` enum. */
function brandVariants(root: string, schemaFile: string): string[] {
  const read = readJson(root, schemaFile);
  if (!read.ok || !isRecord(read.data) || !isRecord(read.data.properties)) return [];
  const variant = read.data.properties.variant;
  return isRecord(variant) && Array.isArray(variant.enum) ? variant.enum.map(String) : [];
}
