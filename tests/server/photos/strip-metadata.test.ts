/** Whatever bytes arrive, the metadata walk answers a file or null: it never throws nor reads past the end. */
import fc from 'fast-check';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { stripMetadata } from '../../../src/server/photos/strip-metadata';

describe('stripMetadata on hostile bytes', () => {
  it('answers null or a shorter-or-equal file for any tail after a real header', async () => {
    const jpeg = await sharp({ create: { width: 16, height: 16, channels: 3, background: '#808080' } }).jpeg().toBuffer();
    const png = await sharp({ create: { width: 16, height: 16, channels: 3, background: '#808080' } }).png().toBuffer();
    fc.assert(
      fc.property(fc.constantFrom<['jpeg' | 'png', Buffer]>(['jpeg', jpeg], ['png', png]), fc.nat(), fc.uint8Array({ maxLength: 300 }), (pair, cut, tail) => {
        const [format, file] = pair;
        const bytes = Buffer.concat([file.subarray(0, cut % (file.length + 1)), tail]);
        const kept = stripMetadata(bytes, format, 1);
        expect(kept === null || kept.length <= bytes.length).toBe(true);
      }),
      { numRuns: 3000 },
    );
  });

  it('adds back only the orientation, in a few bytes', async () => {
    const jpeg = await sharp({ create: { width: 16, height: 8, channels: 3, background: '#808080' } }).jpeg().toBuffer();
    const kept = stripMetadata(jpeg, 'jpeg', 6)!;
    expect(kept.length - jpeg.length).toBeLessThanOrEqual(36);
    expect((await sharp(kept).metadata()).orientation).toBe(6);
  });
});
