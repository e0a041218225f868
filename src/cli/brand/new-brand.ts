import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { extname, join, resolve } from 'node:path';
import { idPatternOf } from '../validate/brand-ids';
import { displayPath, isRecord, readJson } from '../validate/files';
import { PROJECT_LAYOUT } from '../validate/project';
import { copyBrandData, formatBrandJson } from './copy-brand';

export interface NewBrandRequest {
  root: string;
  id: string;
  like: string;
  /** The name customers know; default: the id with capitals ("acme-home" → "Acme Home"). */
  name?: string;
}

/** What was made, or why nothing was. */
export type NewBrandResult = { ok: true; created: string[] } | { ok: false; message: string };

/**
 * Copies brands/<like>.json and its logo and favicon under a new id. Every
 * check comes first and no file is ever overwritten, so a refused request
 * leaves the project as it was.
 */
export function newBrand({ root, id, like, name }: NewBrandRequest): NewBrandResult {
  const brandsDir = join(root, PROJECT_LAYOUT.brandsDir);
  const existing = existsSync(brandsDir) ? readdirSync(brandsDir).filter((f) => f.endsWith('.json')).map((f) => f.slice(0, -5)) : [];
  const refusal = idRefusal(id, idPattern(root), existing) ?? likeRefusal(like, existing);
  if (refusal) return { ok: false, message: refusal };

  const sourceFile = join(brandsDir, `${like}.json`);
  const source = readJson(root, sourceFile);
  if (!source.ok || !isRecord(source.data)) {
    return { ok: false, message: `brands/${like}.json cannot be read, so it cannot be copied: run npm run validate and fix it first, or copy another brand.` };
  }
  const sourceAssets = { logo: source.data.logo, favicon: source.data.favicon };
  const targets = { logo: '', favicon: '' };
  const copies: [from: string, to: string][] = [];
  for (const key of ['logo', 'favicon'] as const) {
    const asset = sourceAssets[key];
    if (typeof asset !== 'string' || !existsSync(resolve(brandsDir, asset))) {
      return { ok: false, message: `the ${key} of brands/${like}.json (${String(asset)}) cannot be found, so it cannot be copied. Fix ${like} first, or copy another brand.` };
    }
    targets[key] = `assets/${id}-${key}${extname(asset)}`;
    const to = resolve(brandsDir, targets[key]);
    if (existsSync(to)) return { ok: false, message: `${displayPath(root, to)} already exists. Remove it if it is left over, or choose another id.` };
    copies.push([resolve(brandsDir, asset), to]);
  }

  const fromName = typeof source.data.name === 'string' ? source.data.name : like;
  const data = copyBrandData(source.data, { fromId: like, fromName, id, name: name ?? titleOf(id) }, targets);
  const created: string[] = [];
  try {
    const brandFile = join(brandsDir, `${id}.json`);
    writeFileSync(brandFile, formatBrandJson(data), { flag: 'wx' });
    created.push(brandFile);
    for (const [from, to] of copies) {
      writeFileSync(to, markedAsset(readFileSync(from), displayPath(root, from), fromName, data.name as string), { flag: 'wx' });
      created.push(to);
    }
  } catch (error) {
    for (const file of created) rmSync(file, { force: true });
    return { ok: false, message: `nothing was created: ${error instanceof Error ? error.message : String(error)}` };
  }
  return { ok: true, created: created.map((f) => displayPath(root, f)) };
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

function idPattern(root: string): RegExp {
  const schema = readJson(root, join(root, PROJECT_LAYOUT.brandSchema));
  return idPatternOf(schema.ok ? schema.data : undefined);
}

function titleOf(id: string): string {
  return id.split('-').map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join(' ');
}

/**
 * An SVG copy says in itself that it is a stand-in, and a logo that spells
 * the old name spells the new one; other pictures are copied as they are.
 */
function markedAsset(bytes: Buffer, from: string, fromName: string, name: string): Buffer {
  const text = bytes.toString('utf8');
  const svgStart = text.indexOf('<svg');
  if (svgStart < 0) return bytes;
  const note = `<!-- Placeholder: a copy of ${from}, made by npm run brand. Replace it with the picture of ${name}. -->\n`;
  const svg = [fromName, fromName.toUpperCase(), fromName.toLowerCase()].reduce(
    (result, old, i) => result.split(old).join([name, name.toUpperCase(), name.toLowerCase()][i]),
    text.slice(svgStart),
  );
  return Buffer.from(text.slice(0, svgStart) + note + svg);
}
