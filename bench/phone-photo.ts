import sharp from 'sharp';

/**
 * A 12 MP (4000×3000) phone-like JPEG: smooth light with sensor noise, saved
 * at quality 93 with an EXIF orientation, as phones do. Noise is what makes a
 * photo big; without it a test image would be unrealistically small.
 */
export async function phonePhoto(width = 4000, height = 3000, seed = 7): Promise<Buffer> {
  const pixels = Buffer.alloc(width * height * 3);
  let state = seed;
  const random = () => {
    state = (state * 1103515245 + 12345) & 0x7fffffff;
    return state / 0x7fffffff;
  };
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      const i = (y * width + x) * 3;
      const light = 90 + 110 * (x / width) * (0.6 + 0.4 * Math.sin(y / 180));
      for (let c = 0; c < 3; c += 1) pixels[i + c] = Math.max(0, Math.min(255, light + c * 12 + (random() - 0.5) * 44));
    }
  }
  return sharp(pixels, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 93 })
    .withMetadata({ orientation: 6 })
    .toBuffer();
}
