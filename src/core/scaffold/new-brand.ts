import { decodeUtf8, type ProjectFiles } from '../project-files.ts';
import { PROJECT_LAYOUT, type ProjectLayout } from '../project-layout.ts';
import { extnameOf, joinPath, resolvePath } from '../project-path.ts';
import { idPatternOf } from '../validate/brand-ids.ts';
import { isRecord, readJson } from '../validate/files.ts';
import { copyBrandData, formatBrandJson } from './copy-brand.ts';

export interface NewBrandRequest {
  id: string;
  /** The id of the brand to copy. */
  like: string;
  /** The name customers know; default: the id with capitals ("acme-home" → "Acme Home"). */
  name?: string;
}

/** The files to make, by project path (the brand file first, then its logo and favicon), or why none are. */
export type NewBrandPlan = { ok: true; files: Record<string, string | Uint8Array> } | { ok: false; message: string };

/**
 * A new brand as a copy of brands/<like>.json and its logo and favicon, under a new id: what
 * `npm run brand -- new` writes and the studio's "New brand like …" adds. Every check comes first
 * and no file that exists is planned, so a refused request changes nothing.
 */
export function planNewBrand(files: ProjectFiles, { id, like, name }: NewBrandRequest, layout: ProjectLayout = PROJECT_LAYOUT): NewBrandPlan {
  const { brandsDir } = layout;
  const existing = files.list(brandsDir).filter((f) => f.endsWith('.json')).map((f) => f.slice(0, -5));
  const schema = readJson(files, layout.brandSchema);
  const refusal = idRefusal(id, idPatternOf(schema.ok ? schema.data : undefined), existing) ?? likeRefusal(like, existing);
  if (refusal) return { ok: false, message: refusal };

  const source = readJson(files, joinPath(brandsDir, `${like}.json`));
  if (!source.ok || !isRecord(source.data)) {
    return { ok: false, message: `brands/${like}.json cannot be read, so it cannot be copied: run npm run validate and fix it first, or copy another brand.` };
  }
  const targets = { logo: '', favicon: '' };
  const copies: { from: string; to: string; bytes: Uint8Array }[] = [];
  for (const key of ['logo', 'favicon'] as const) {
    const asset = source.data[key];
    const bytes = typeof asset === 'string' ? files.bytes(resolvePath(brandsDir, asset, files.root)) : undefined;
    if (typeof asset !== 'string' || bytes === undefined) {
      return { ok: false, message: `the ${key} of brands/${like}.json (${String(asset)}) cannot be found, so it cannot be copied. Fix ${like} first, or copy another brand.` };
    }
    targets[key] = `assets/${id}-${key}${extnameOf(asset)}`;
    const to = resolvePath(brandsDir, targets[key], files.root);
    if (files.isFile(to)) return { ok: false, message: `${to} already exists. Remove it if it is left over, or choose another id.` };
    copies.push({ from: resolvePath(brandsDir, asset, files.root), to, bytes });
  }

  const fromName = typeof source.data.name === 'string' ? source.data.name : like;
  const data = copyBrandData(source.data, { fromId: like, fromName, id, name: name ?? titleOf(id) }, targets);
  return {
    ok: true,
    files: {
      [joinPath(brandsDir, `${id}.json`)]: formatBrandJson(data),
      ...Object.fromEntries(copies.map(({ from, to, bytes }) => [to, markedAsset(bytes, from, fromName, data.name as string)])),
    },
  };
}

function idRefusal(id: string, pattern: RegExp, existing: readonly string[]): string | undefined {
  if (!pattern.test(id)) {
    const lower = id.toLowerCase();
    const hint = lower !== id && pattern.test(lower) ? ` Use "${lower}": capitals are not allowed.` : '';
    return `"${id}" cannot be a brand id: use 2 to 40 lower-case letters, digits and dashes, starting with a letter (it becomes part of the web address).${hint}`;
  }
  if (existing.includes(id)) return `brands/${id}.json already exists: the brand "${id}" is there. Choose a new id, or edit that file.`;
  return undefined;
}

function likeRefusal(like: string, existing: readonly string[]): string | undefined {
  if (existing.includes(like)) return undefined;
  return `there is no brand "${like}" to copy. Choose one of: ${[...existing].sort().join(', ')}.`;
}

function titleOf(id: string): string {
  return id.split('-').map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join(' ');
}

/**
 * An SVG copy says in itself that it is a stand-in, and a logo that spells
 * the old name spells the new one; other pictures are copied as they are.
 */
function markedAsset(bytes: Uint8Array, from: string, fromName: string, name: string): string | Uint8Array {
  const text = decodeUtf8(bytes);
  const svgStart = text.indexOf('<svg');
  if (svgStart < 0) return bytes;
  const note = `<!-- Placeholder: a copy of ${from}, made by npm run brand. Replace it with the picture of ${name}. -->\n`;
  const svg = [fromName, fromName.toUpperCase(), fromName.toLowerCase()].reduce(
    (result, old, i) => result.split(old).join([name, name.toUpperCase(), name.toLowerCase()][i]),
    text.slice(svgStart),
  );
  return text.slice(0, svgStart) + note + svg;
}
