import { readFile, stat, writeFile } from 'node:fs/promises';
import sharp from 'sharp';
import { PHOTO_LIMITS } from '../../core/photo-limits';
import { stripMetadata } from './strip-metadata';

// Every photo is decoded once; libvips' operation cache would only hold memory.
sharp.cache(false);

export type PhotoFormat = 'jpeg' | 'png';

/** What a photo may cost to decode: sized for a phone's camera, not for any image a format allows. */
export interface DecodeBudget {
  /** Most pixels per format: phone cameras shoot JPEG up to ~50 MP; a PNG from a phone is a screenshot. */
  maxPixels: Record<PhotoFormat, number>;
  /** Decoding and encoding give up after this long. */
  timeoutSeconds: number;
}

/** Refused for what it would cost, not for being unreadable. */
export class OverBudgetError extends Error {}

/**
 * Decodes a photo and writes what is kept of it to `output`; answers the
 * format written. The photo is made as the page makes it (PHOTO_LIMITS:
 * upright, at most 2,560 px, JPEG; a PNG's clear parts on white), and
 * writing fresh pixels drops EXIF/GPS and anything appended to the file
 * (polyglots). When that is not smaller than what was sent (a photo already
 * small and compressed harder), the sent bytes are kept instead, stripped of
 * their metadata: a photo never grows on the server.
 * The header is judged first (pixels, 8 bits per channel, as phones write),
 * then `limitInputPixels` guards the decoder itself.
 * Huffman optimisation stays off: it makes libjpeg hold the whole image's
 * coefficients (about 4x the memory for a 15 MP photo) to save ~5% size.
 * Throws on anything sharp cannot decode within the budget.
 */
export async function reencodePhoto(input: string, output: string, format: PhotoFormat, budget: DecodeBudget): Promise<PhotoFormat> {
  const maxPixels = budget.maxPixels[format];
  const { width = 0, height = 0, depth, orientation = 1 } = await sharp(input).metadata();
  if (width * height > maxPixels) throw new OverBudgetError(`more than ${maxPixels} pixels`);
  if (depth !== 'uchar') throw new OverBudgetError('more than 8 bits per channel');
  const side = PHOTO_LIMITS.longestSide;
  const { size } = await sharp(input, { limitInputPixels: maxPixels, failOn: 'error', sequentialRead: true })
    .rotate()
    .resize({ width: side, height: side, fit: 'inside', withoutEnlargement: true })
    .flatten({ background: '#ffffff' })
    .timeout({ seconds: budget.timeoutSeconds })
    .jpeg({ quality: Math.round(PHOTO_LIMITS.jpegQuality * 100), optimiseCoding: false })
    .toFile(output);
  if (size < (await stat(input)).size) return 'jpeg';
  const stripped = stripMetadata(await readFile(input), format, orientation);
  // A file whose structure the walk does not know keeps the (larger) re-encoding: it has no metadata either.
  if (!stripped || !(await samePicture(stripped, width, height, orientation))) return 'jpeg';
  await writeFile(output, stripped);
  return format;
}

async function samePicture(bytes: Buffer, width: number, height: number, orientation: number): Promise<boolean> {
  const kept = await sharp(bytes).metadata();
  return kept.width === width && kept.height === height && (kept.orientation ?? 1) === orientation;
}
