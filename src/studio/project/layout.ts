import { createContext, useContext } from 'react';
import type { FileMap, LayoutFolders } from './project-files';

export type { LayoutFolders };

/** The kinds of file a brand owner opens, by where they live. */
export type FileKind = 'brand' | 'asset' | 'form' | 'uiSchema' | 'sharedFields' | 'language' | 'countries' | 'rules';

const FORM_SUFFIX = '.schema.json';

/** The project's paths, as `npm run validate` prints them: each file of the data by what it is. */
export class ProjectLayout implements LayoutFolders {
  readonly brandsDir: string;
  readonly schemasDir: string;
  readonly rulesDir: string;

  constructor({ brandsDir, schemasDir, rulesDir }: LayoutFolders) {
    [this.brandsDir, this.schemasDir, this.rulesDir] = [brandsDir, schemasDir, rulesDir];
  }

  brandFile = (id: string) => `${this.brandsDir}/${id}.json`;
  /** A picture a brand file names ("assets/acme-logo.svg"), from the brand files' folder. */
  picture = (named: string) => `${this.brandsDir}/${named}`;
  languageFile = (code: string) => `${this.schemasDir}/i18n/${code}.json`;
  formFile = (name: string) => `${this.schemasDir}/forms/${name}${FORM_SUFFIX}`;
  get countriesFile() {
    return `${this.schemasDir}/countries.json`;
  }
  ruleFile = (name: string) => `${this.rulesDir}/${name}`;

  kind(path: string): FileKind {
    const inside = (folder: string) => (path.startsWith(`${folder}/`) ? path.slice(folder.length + 1) : undefined);
    const brands = inside(this.brandsDir);
    if (brands !== undefined && /^[^/]+\.json$/.test(brands)) return 'brand';
    if (brands?.startsWith('assets/')) return 'asset';
    const data = inside(this.schemasDir);
    if (data === 'forms/fields.json') return 'sharedFields';
    if (data !== undefined && /^forms\/[^/]+\.ui\.json$/.test(data)) return 'uiSchema';
    if (data !== undefined && /^forms\/[^/]+\.schema\.json$/.test(data)) return 'form';
    if (data !== undefined && /^i18n\/[^/]+\.json$/.test(data)) return 'language';
    if (data === 'countries.json') return 'countries';
    return 'rules';
  }

  /** The id, form name or language code a file is named after (brands/acme.json → acme). */
  stem(path: string): string {
    return path.slice(path.lastIndexOf('/') + 1).replace(/(\.schema|\.ui)?\.json$/, '');
  }

  private namesIn(files: FileMap, folder: string, suffix: string): string[] {
    return [...files.keys()]
      .filter((path) => path.startsWith(`${folder}/`) && !path.slice(folder.length + 1).includes('/') && path.endsWith(suffix))
      .map((path) => path.slice(folder.length + 1, -suffix.length))
      .sort();
  }

  brandIds = (files: FileMap) => this.namesIn(files, this.brandsDir, '.json');
  languageCodes = (files: FileMap) => this.namesIn(files, `${this.schemasDir}/i18n`, '.json');
  formNames = (files: FileMap) => this.namesIn(files, `${this.schemasDir}/forms`, FORM_SUFFIX);

  /** The layout as validate's checks and the scaffolds of core take it. */
  get checks(): { brandsDir: string; schemasDir: string; brandSchema: string } {
    return { brandsDir: this.brandsDir, schemasDir: this.schemasDir, brandSchema: this.ruleFile('brand.schema.json') };
  }

  get folders(): LayoutFolders {
    return { brandsDir: this.brandsDir, schemasDir: this.schemasDir, rulesDir: this.rulesDir };
  }
}

/** The project's layout (set once, from the studio's snapshot). */
export const LayoutContext = createContext(new ProjectLayout({ brandsDir: 'brands', schemasDir: 'schemas', rulesDir: 'schemas' }));

export function useLayout(): ProjectLayout {
  return useContext(LayoutContext);
}
