// Imports name their .ts files: vite.config.ts loads this module.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Plugin } from 'vite';
import { languageCodes } from '../../core/portal-data.ts';
import { diskFiles } from '../../server/disk-files.ts';
import { checkedPortalData, dataFiles, type DataFolders } from '../checked-project.ts';
import { compileVariant } from './form-modules.ts';
import { forThePage } from './page-texts.ts';

/** The page's data, as modules made from SCHEMAS_DIR at build (and dev) time: nothing is written into src/. */
export const DATA_MODULES = {
  /** Every language file, by code, without what only the server reads. */
  languages: 'virtual:portal-languages',
  /** countries.json, without what only the server reads. */
  countries: 'virtual:portal-countries',
  /** Each form's loader: `() => import('virtual:portal-form/<name>')`, one chunk per form. */
  forms: 'virtual:portal-forms',
  /** Prefix of one form's module: its precompiled validators, schema and uiSchema (form-modules.ts). */
  form: 'virtual:portal-form/',
} as const;

/**
 * What a precompiled validator imports of ajv at run time (maxLength counts characters, enum compares):
 * pre-bundled when `npm run dev` starts, as Vite cannot find imports of modules made by a plugin before
 * they are loaded (it would bundle them on the first page load, and reload the page).
 */
const AJV_RUNTIME = ['ajv/dist/runtime/ucs2length.js', 'ajv/dist/runtime/equal.js', 'ajv/dist/runtime/uri.js'];

const readJson = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;

/**
 * Serves the DATA_MODULES from the data in `folders.schemasDir`, after npm run validate's checks (a problem
 * is validate's message, in the dev overlay or the build's error), so two builds of different data never
 * share a file, and `npm run dev` shows a changed form, text or country on the next load.
 */
export function portalDataModules(root: string, folders: DataFolders): Plugin {
  const ids = new Set<string>([DATA_MODULES.languages, DATA_MODULES.countries, DATA_MODULES.forms]);
  const owned = (id: string) => ids.has(id) || id.startsWith(DATA_MODULES.form);
  return {
    name: 'repair-portal:data-modules',
    config: () => ({ optimizeDeps: { include: AJV_RUNTIME } }),
    resolveId: (source) => (owned(source) ? `\0${source}` : undefined),
    load(id) {
      if (!id.startsWith('\0') || !owned(id.slice(1))) return undefined;
      const source = id.slice(1);
      const data = checkedPortalData(root, folders);
      for (const file of dataFiles(root, folders)) this.addWatchFile(file);
      const { schemasDir } = folders;
      if (source === DATA_MODULES.languages) {
        const files = Object.fromEntries(languageCodes(diskFiles(schemasDir), '').map((code) => [code, forThePage(readJson(join(schemasDir, 'i18n', `${code}.json`)))]));
        return `export default ${JSON.stringify(files)};`;
      }
      if (source === DATA_MODULES.countries) return `export default ${JSON.stringify(forThePage(readJson(join(schemasDir, 'countries.json'))))};`;
      if (source === DATA_MODULES.forms) {
        const loaders = [...data.forms.keys()].map((name) => `${JSON.stringify(name)}: () => import(${JSON.stringify(DATA_MODULES.form + name)})`);
        return `export default { ${loaders.join(', ')} };`;
      }
      const model = data.forms.get(source.slice(DATA_MODULES.form.length));
      if (!model) throw new Error(`${source}: there is no such form in ${schemasDir}`);
      return compileVariant(model, data.rules);
    },
  };
}
