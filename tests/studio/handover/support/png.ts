import sharp from 'sharp';

/** A real PNG of noise: binary, and hardly compressible, as a photo-like logo is. */
export async function noisyPng(size: number, seed: number): Promise<Uint8Array> {
  const png = await sharp({ create: { width: size, height: size, channels: 4, background: { r: seed % 256, g: 80, b: 160, alpha: 1 }, noise: { type: 'gaussian', mean: 128, sigma: 60 } } })
    .png()
    .toBuffer();
  return new Uint8Array(png);
}
