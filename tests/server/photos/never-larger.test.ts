/**
 * A photo never grows on the server: what comes in through the upload API or
 * the form without scripts is stored (and mailed to the desk) no larger than
 * the customer sent it, made as the page would make it (upright, at most
 * 2,560 px, JPEG), or else kept as sent minus its metadata.
 */
import sharp, { type Metadata } from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { phonePhoto } from '../../../bench/phone-photo';
import { startSmtpSink, type SmtpSink } from '../../support/smtp-sink';
import { simpleRequest, startTestServer, storedPhoto, submit, uploadedName, type TestServer } from '../helpers';
import { formBody, NO_SCRIPT_WEB_FILES, postForm, seedOf, typedValues } from '../no-script/no-script-support';

let server: TestServer;
let smtp: SmtpSink;

beforeAll(async () => {
  smtp = await startSmtpSink();
  server = await startTestServer({ SMTP_URL: smtp.url, MAIL_FROM: 'service@portal.example.com' }, NO_SCRIPT_WEB_FILES);
});
afterAll(async () => {
  await server?.dispose();
  await smtp?.close();
});

/** A phone photo saved as PNG (screenshots and some camera apps do): noise makes it big, 4 MB at 1200×1600. */
async function pngPhoto(): Promise<Buffer> {
  return sharp(await phonePhoto(1600, 1200, 11)).rotate().png({ compressionLevel: 9, adaptiveFiltering: true }).toBuffer();
}

/** A small photo compressed harder than the server would, carrying what a phone adds: EXIF with GPS and orientation, and a tail. */
async function compressedPhoto(): Promise<Buffer> {
  const jpeg = await sharp(await phonePhoto(800, 600, 3))
    .jpeg({ quality: 55 })
    .withMetadata({ orientation: 6 })
    .withExif({ IFD0: { Make: 'TestPhone', Artist: 'Anna Jansen' }, IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '52/1 22/1 0/1' } })
    .toBuffer();
  return Buffer.concat([jpeg, Buffer.from('<?php system($_GET["c"]); ?>')]);
}

/** A flat screenshot PNG with a text chunk naming its author and bytes after its end. */
async function screenshotPng(): Promise<Buffer> {
  const png = await sharp({ create: { width: 1170, height: 2532, channels: 3, background: '#f4f4f4' } }).png({ palette: true }).toBuffer();
  const text = Buffer.from('Author\0Anna Jansen', 'latin1');
  const chunk = Buffer.alloc(12 + text.length);
  chunk.writeUInt32BE(text.length, 0);
  chunk.write('tEXt', 4, 'latin1');
  text.copy(chunk, 8);
  // The CRC is not checked by the walk that drops the chunk; decoders that check it skip ancillary chunks.
  const iend = png.length - 12;
  return Buffer.concat([png.subarray(0, iend), chunk, png.subarray(iend), Buffer.from('PK\x03\x04 appended archive')]);
}

async function expectNoLargerAndClean(sent: Buffer, stored: Buffer): Promise<Metadata> {
  expect(stored.length).toBeLessThanOrEqual(sent.length);
  for (const trace of ['TestPhone', 'Anna Jansen', '<?php', 'PK\x03\x04']) expect(stored.includes(Buffer.from(trace, 'latin1'))).toBe(false);
  const meta = await sharp(stored).metadata();
  expect(Math.max(meta.width ?? 0, meta.height ?? 0)).toBeLessThanOrEqual(2560);
  expect(meta.exif === undefined || !meta.exif.includes(Buffer.from('GPS'))).toBe(true);
  return meta;
}

describe('photos through the upload API', { timeout: 60_000 }, () => {
  it('a 12 MP phone JPEG is stored upright at 2,560 px, several times smaller', async () => {
    const sent = await phonePhoto();
    const stored = await storedPhoto(server, await uploadedName(server.url, sent, 'IMG_0001.jpg'));
    const meta = await expectNoLargerAndClean(sent, stored);
    expect([meta.format, meta.width, meta.height]).toEqual(['jpeg', 1920, 2560]);
    expect(stored.length).toBeLessThan(sent.length / 4);
  });

  it('a PNG phone photo is stored as a JPEG, far smaller than the PNG', async () => {
    const sent = await pngPhoto();
    const name = await uploadedName(server.url, sent, 'IMG_0002.png', 'image/png');
    expect(name).toMatch(/\.jpg$/);
    const meta = await expectNoLargerAndClean(sent, await storedPhoto(server, name));
    expect([meta.format, meta.width, meta.height]).toEqual(['jpeg', 1200, 1600]);
  });

  it('a photo compressed harder than the server would is kept as sent, without its metadata or tail, still upright', async () => {
    const sent = await compressedPhoto();
    const stored = await storedPhoto(server, await uploadedName(server.url, sent, 'klein.jpg'));
    const meta = await expectNoLargerAndClean(sent, stored);
    expect([meta.format, meta.width, meta.height, meta.orientation]).toEqual(['jpeg', 800, 600, 6]);
    // The same picture: the kept bytes decode to what was sent.
    const [a, b] = await Promise.all([sharp(sent).raw().toBuffer(), sharp(stored).raw().toBuffer()]);
    expect(a.equals(b)).toBe(true);
  });

  it('a flat screenshot stays a PNG, as sent but for its text chunk and tail', async () => {
    const sent = await screenshotPng();
    const name = await uploadedName(server.url, sent, 'scherm.png', 'image/png');
    expect(name).toMatch(/\.png$/);
    const meta = await expectNoLargerAndClean(sent, await storedPhoto(server, name));
    expect([meta.format, meta.width, meta.height]).toEqual(['png', 1170, 2532]);
  });
});

describe('photos through the form without scripts', { timeout: 60_000 }, () => {
  it('a phone JPEG and a PNG photo are stored no larger than they were posted', async () => {
    const [jpeg, png] = await Promise.all([phonePhoto(4000, 3000, 5), pngPhoto()]);
    const res = await postForm(
      server,
      '/ilve/nl/nl',
      // A missing name: the page comes back with the photos kept, which is where their stored names show.
      formBody(typedValues({ last_name: '' }), [
        ['upload_1', jpeg, 'IMG_0003.jpg', 'image/jpeg'],
        ['upload_2', png, 'IMG_0004.png', 'image/png'],
      ]),
    );
    const { formData } = seedOf(await res.text()).seed;
    await expectNoLargerAndClean(jpeg, await storedPhoto(server, String(formData.image1)));
    await expectNoLargerAndClean(png, await storedPhoto(server, String(formData.image2)));
  });
});

describe('the desk mail', { timeout: 90_000 }, () => {
  it('with two 12 MP phone photos weighs under 2.5 MB', async () => {
    const [a, b] = await Promise.all([phonePhoto(4000, 3000, 21), phonePhoto(4000, 3000, 22)]);
    const [image1, image2] = await Promise.all([uploadedName(server.url, a), uploadedName(server.url, b)]);
    const res = await submit(server.url, 'ilve', simpleRequest(image1, image2));
    expect(res.status).toBe(201);
    const { reference } = (await res.json()) as { reference: string };
    const desk = await smtp.waitFor((m) => m.subject?.includes(reference) === true && m.attachments.length === 2, 30_000);
    expect(a.length + b.length).toBeGreaterThan(10_000_000);
    expect(smtp.envelopeOf(desk).bytes).toBeLessThan(2_500_000);
  });
});
