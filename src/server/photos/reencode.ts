import sharp from 'sharp';

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
 * Decodes and re-encodes a photo. Writing fresh pixels drops EXIF/GPS and
 * anything appended to the file (polyglots); the header is judged first
 * (pixels, 8 bits per channel, as phones write), then `limitInputPixels`
 * guards the decoder itself; `.rotate()` applies the EXIF orientation first
 * so the photo still stands upright without it.
 * Huffman optimisation stays off: it makes libjpeg hold the whole image's
 * coefficients (about 4x the memory for a 15 MP photo) to save ~5% size.
 * Throws on anything sharp cannot decode within the budget.
 */
export async function reencodePhoto(input: string, output: string, format: PhotoFormat, budget: DecodeBudget): Promise<void> {
  const maxPixels = budget.maxPixels[format];
  const { width = 0, height = 0, depth } = await sharp(input).metadata();
  if (width * height > maxPixels) throw new OverBudgetError(`more than ${maxPixels} pixels`);
  if (depth !== 'uchar') throw new OverBudgetError('more than 8 bits per channel');
  const image = sharp(input, { limitInputPixels: maxPixels, failOn: 'error', sequentialRead: true })
    .rotate()
    .timeout({ seconds: budget.timeoutSeconds });
  const encoded = format === 'jpeg' ? image.jpeg({ quality: 85, optimiseCoding: false }) : image.png({ compressionLevel: 6 });
  await encoded.toFile(output);
}
