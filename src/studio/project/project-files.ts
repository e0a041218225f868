/** A file of the project as the studio holds it: text (JSON, SVG) or bytes (a PNG). */
export type FileContent = string | Uint8Array;

/** The project's files by path (brands/acme.json, schemas/i18n/nl.json, …). */
export type FileMap = ReadonlyMap<string, FileContent>;

/** Where the data lies in the project (relative to its folder): brands/ and schemas/, or BRANDS_DIR and SCHEMAS_DIR of the studio's build. */
export interface LayoutFolders {
  brandsDir: string;
  schemasDir: string;
  /** Where the rule files are (brand.schema.json, form.schema.json, form-ui.schema.json, language.schema.json). */
  rulesDir: string;
}

/** What the studio's build wrote beside it (src/cli/vite/studio-project.ts): the project as it was then. */
export interface Snapshot {
  commit?: string;
  layout: LayoutFolders;
  files: Record<string, { text: string } | { base64: string }>;
}

export function fromBase64(text: string): Uint8Array {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

export function toBase64(bytes: Uint8Array): string {
  let binary = '';
  // In slices: String.fromCharCode takes its arguments on the stack.
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

/** The snapshot's files as the studio holds them. */
export function snapshotFiles(snapshot: Snapshot): Map<string, FileContent> {
  return new Map(Object.entries(snapshot.files).map(([path, file]) => [path, 'text' in file ? file.text : fromBase64(file.base64)]));
}

export function sameContent(a: FileContent | undefined, b: FileContent | undefined): boolean {
  if (typeof a === 'string' || typeof b === 'string' || a === undefined || b === undefined) return a === b;
  return a.length === b.length && a.every((byte, i) => byte === b[i]);
}
