import { crc32 } from 'node:zlib';

/**
 * The photo as sent, minus everything that is not the picture: EXIF (GPS,
 * camera serials), XMP, IPTC, comments, text chunks and whatever follows
 * the image's end (polyglots, a phone's appended depth maps). Kept: what
 * the pixels need to look the same (tables, colour profile, transparency)
 * and, rebuilt from nothing, the orientation. Null when the file's
 * structure is not the plain one this walk understands.
 *
 * The server keeps these bytes when re-encoding cannot make a photo smaller;
 * no maintained package strips JPEG and PNG metadata losslessly without a
 * native tool, and both walks are short.
 */
export function stripMetadata(bytes: Buffer, format: 'jpeg' | 'png', orientation: number): Buffer | null {
  const upright = orientation >= 2 && orientation <= 8 ? orientationTiff(orientation) : undefined;
  return format === 'jpeg' ? stripJpeg(bytes, upright) : stripPng(bytes, upright);
}

/** A little-endian TIFF header with one IFD entry: Orientation (0x0112, SHORT). */
function orientationTiff(orientation: number): Buffer {
  const tiff = Buffer.alloc(26);
  tiff.write('II', 0, 'latin1');
  tiff.writeUInt16LE(42, 2);
  tiff.writeUInt32LE(8, 4);
  tiff.writeUInt16LE(1, 8);
  tiff.writeUInt16LE(0x0112, 10);
  tiff.writeUInt16LE(3, 12);
  tiff.writeUInt32LE(1, 14);
  tiff.writeUInt16LE(orientation, 18);
  return tiff;
}

/** APPn segments worth keeping, by the signature they start with: JFIF, the ICC profile, Adobe's colour transform. */
const KEPT_APP: Record<number, string> = { 0xe0: 'JFIF\0', 0xe2: 'ICC_PROFILE\0', 0xee: 'Adobe' };

function keepJpegSegment(marker: number, body: Buffer): boolean {
  if (marker === 0xfe) return false; // COM
  if (marker < 0xe0 || marker > 0xef) return true; // tables, frame and scan headers
  const signature = KEPT_APP[marker];
  return signature !== undefined && body.subarray(0, signature.length).toString('latin1') === signature;
}

function stripJpeg(b: Buffer, upright: Buffer | undefined): Buffer | null {
  if (b[0] !== 0xff || b[1] !== 0xd8) return null;
  const parts: Buffer[] = [b.subarray(0, 2)];
  if (upright) parts.push(segment(0xe1, Buffer.concat([Buffer.from('Exif\0\0', 'latin1'), upright])));
  let i = 2;
  while (i + 1 < b.length) {
    if (b[i] !== 0xff) return null;
    const marker = b[i + 1];
    if (marker === 0xff) {
      i += 1; // fill byte
      continue;
    }
    if (marker === 0xd9) return Buffer.concat([...parts, b.subarray(i, i + 2)]);
    if (i + 4 > b.length) return null;
    const end = i + 2 + b.readUInt16BE(i + 2);
    if (end > b.length) return null;
    if (keepJpegSegment(marker, b.subarray(i + 4, end))) parts.push(b.subarray(i, end));
    i = end;
    if (marker === 0xda) {
      // Entropy-coded data runs to the next marker that is neither a stuffed 0xFF00 nor a restart marker.
      let j = i;
      while (j + 1 < b.length && !(b[j] === 0xff && b[j + 1] !== 0 && (b[j + 1] < 0xd0 || b[j + 1] > 0xd7))) j += 1;
      parts.push(b.subarray(i, j));
      i = j;
    }
  }
  return null;
}

function segment(marker: number, body: Buffer): Buffer {
  const head = Buffer.from([0xff, marker, 0, 0]);
  head.writeUInt16BE(body.length + 2, 2);
  return Buffer.concat([head, body]);
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
/** The image, its palette and transparency, and how its colours are meant. */
const KEPT_PNG = new Set(['IHDR', 'PLTE', 'IDAT', 'IEND', 'tRNS', 'gAMA', 'cHRM', 'sRGB', 'iCCP', 'sBIT', 'cICP', 'pHYs']);

function stripPng(b: Buffer, upright: Buffer | undefined): Buffer | null {
  if (!b.subarray(0, 8).equals(PNG_SIGNATURE)) return null;
  const parts: Buffer[] = [PNG_SIGNATURE];
  let i = 8;
  while (i + 12 <= b.length) {
    const end = i + 12 + b.readUInt32BE(i);
    if (end > b.length) return null;
    const type = b.subarray(i + 4, i + 8).toString('latin1');
    if (KEPT_PNG.has(type)) parts.push(b.subarray(i, end));
    if (type === 'IHDR' && upright) parts.push(chunk('eXIf', upright));
    if (type === 'IEND') return Buffer.concat(parts);
    i = end;
  }
  return null;
}

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}
