import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { decodeUtf8 } from '../project-files.ts';

/** Bigger than any logo needs: a page should not download more for its header. */
export const MAX_ASSET_BYTES = { logo: 200 * 1024, favicon: 100 * 1024 } as const;
const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const MIN_PNG_SIDE = 16;
const MAX_PNG_SIDE = 2048;

/**
 * Why an existing logo or favicon file would not show, or would weigh down
 * the page; undefined when it is a sound SVG or PNG. `shown` is its path as
 * printed (a .png is read as PNG, anything else as SVG).
 */
export function assetFileProblem(bytes: Uint8Array, shown: string, key: 'logo' | 'favicon'): string | undefined {
  const size = bytes.length;
  if (size === 0) return `the ${key} file ${shown} is empty (0 bytes). Save the picture again from your design tool, or copy it once more.`;
  const limit = MAX_ASSET_BYTES[key];
  if (size > limit) {
    return `the ${key} file ${shown} is ${Math.ceil(size / 1024)} kB; at most ${limit / 1024} kB is allowed, so that the page stays quick on a phone. Export it smaller, or as SVG.`;
  }
  return shown.endsWith('.png') ? pngProblem(bytes, shown, key) : svgProblem(decodeUtf8(bytes), shown, key);
}

function svgProblem(text: string, shown: string, key: string): string | undefined {
  const valid = XMLValidator.validate(text);
  if (valid !== true) {
    return `the ${key} file ${shown} is not a well-formed SVG picture (line ${valid.err.line}: ${valid.err.msg}). Export it again as SVG from your design tool.`;
  }
  const document = new XMLParser({ ignoreAttributes: false }).parse(text) as Record<string, unknown>;
  const svg = document.svg as Record<string, unknown> | undefined;
  if (!svg || typeof svg !== 'object') return `the ${key} file ${shown} does not contain an <svg> picture. Export it again as SVG from your design tool.`;
  if (!svg['@_viewBox'] && !(svg['@_width'] && svg['@_height'])) {
    return `the ${key} file ${shown} has no size: its <svg> needs a viewBox (or width and height), or browsers cannot scale it. Export it again as SVG from your design tool.`;
  }
  return undefined;
}

function pngProblem(bytes: Uint8Array, shown: string, key: string): string | undefined {
  if (bytes.length < 24 || PNG_SIGNATURE.some((byte, i) => bytes[i] !== byte)) {
    return `the ${key} file ${shown} is called .png but is not a PNG picture. Export it again as PNG (or SVG) from your design tool.`;
  }
  // The IHDR chunk, always first, holds width and height.
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const [width, height] = [view.getUint32(16), view.getUint32(20)];
  if (Math.min(width, height) < MIN_PNG_SIDE || Math.max(width, height) > MAX_PNG_SIDE) {
    return `the ${key} file ${shown} is ${width} × ${height} pixels; use ${MIN_PNG_SIDE} to ${MAX_PNG_SIDE} pixels per side (e.g. 320 × 80 for a logo, 64 × 64 for a favicon).`;
  }
  return undefined;
}
