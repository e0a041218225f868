import type { ProjectLayout } from '../project/layout';
import type { FileMap } from '../project/project-files';

/** The parsed JSON of a text, or undefined where it is missing or not JSON (the findings say why). */
export function parseJson(text: unknown): unknown {
  if (typeof text !== 'string') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** The parsed JSON of a file, or undefined where it is missing or not JSON. */
export const jsonOf = (files: FileMap, path: string): unknown => parseJson(files.get(path));

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Each language file's code and its own name ("de" → "Deutsch"), in code order. */
export function languagesOf(files: FileMap, layout: ProjectLayout): Map<string, string> {
  return new Map(
    layout.languageCodes(files).map((code) => {
      const data = jsonOf(files, layout.languageFile(code));
      const name = isRecord(data) && isRecord(data.language) && typeof data.language.name === 'string' ? data.language.name : code;
      return [code, name];
    }),
  );
}

/** The countries of countries.json, in its order. */
export function countryCodes(files: FileMap, layout: ProjectLayout): string[] {
  const data = jsonOf(files, layout.countriesFile);
  return isRecord(data) && isRecord(data.countries) ? Object.keys(data.countries) : [];
}
