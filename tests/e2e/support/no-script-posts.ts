/**
 * Posts of the form without scripts made outside a browser, with the headers a
 * browser sends from the portal's own page (Origin, Fetch Metadata): to reach
 * the pages a browser alone rarely meets (a body cut off, a key reused with
 * other content), then show them in a browser.
 */
import type { NoticeKind } from '../../../src/core/form-seed';
import type { Locale } from '../../../src/core/types';
import { brandById, photoFiles, uniqueEmail, validValues } from './fixtures';

export interface RefusedPage {
  kind: NoticeKind;
  locale: Locale;
  /** Where the browser was when it got the page: the route posted to. */
  url: string;
  status: number;
  html: string;
}

const BOUNDARY = '----portal-e2e-boundary';

function multipart(parts: [name: string, value: string | { file: Buffer; filename: string; type: string }][]): Buffer {
  const chunks: Buffer[] = [];
  for (const [name, value] of parts) {
    if (typeof value === 'string') {
      chunks.push(Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
    } else {
      chunks.push(Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"; filename="${value.filename}"\r\nContent-Type: ${value.type}\r\n\r\n`));
      chunks.push(value.file, Buffer.from('\r\n'));
    }
  }
  chunks.push(Buffer.from(`--${BOUNDARY}--\r\n`));
  return Buffer.concat(chunks);
}

/** A complete, valid form of `brandId`, as the page's controls post it, under `key`. */
async function validForm(brandId: string, key: string, changes: Record<string, string> = {}): Promise<Buffer> {
  const brand = brandById(brandId);
  const [one, two] = await photoFiles();
  const values = { ...validValues(brand, uniqueEmail('refused')), country: 'be', ...changes };
  return multipart([
    ...Object.entries(values).map(([name, value]): [string, string] => [`root_${name}`, value]),
    ...(brand.form === 'extended' ? [['root_isAkkoord', 'on'] as [string, string]] : []),
    ['root_upload_1', { file: one.buffer, filename: one.name, type: one.mimeType }],
    ['root_upload_2', { file: two.buffer, filename: two.name, type: two.mimeType }],
    ['submission', key],
  ]);
}

async function post(baseUrl: string, path: string, body: Buffer, origin = baseUrl) {
  const res = await fetch(`${baseUrl}${path}`, {
    method: 'POST',
    body: new Uint8Array(body),
    redirect: 'manual',
    headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}`, origin, 'sec-fetch-site': origin === baseUrl ? 'same-origin' : 'cross-site' },
  });
  return { status: res.status, html: await res.text() };
}

/** One page of each kind a browser without scripts can meet, in both languages between them. */
export async function refusedPages(baseUrl: string): Promise<RefusedPage[]> {
  const pages: RefusedPage[] = [];
  const add = async (kind: NoticeKind, locale: Locale, path: string, sent: Promise<{ status: number; html: string }>) =>
    pages.push({ kind, locale, url: `${baseUrl}${path}`, ...(await sent) });

  const cut = await validForm('ilve', crypto.randomUUID());
  await add('unreadable', 'fr', '/ilve/fr/be', post(baseUrl, '/ilve/fr/be', cut.subarray(0, cut.length - 5000)));

  const key = crypto.randomUUID();
  const first = await post(baseUrl, '/kuppersbusch/nl/be', await validForm('kuppersbusch', key));
  if (first.status !== 303) throw new Error(`the first post was not stored: ${first.status}`);
  await add('already-sent', 'nl', '/kuppersbusch/nl/be', post(baseUrl, '/kuppersbusch/nl/be', await validForm('kuppersbusch', key, { description: 'Toch iets anders.' })));

  const many = multipart(Array.from({ length: 80 }, (_, i): [string, string] => [`root_x${i}`, 'x']));
  await add('too-large', 'nl', '/teka/nl/be', post(baseUrl, '/teka/nl/be', many));

  await add('cross-site', 'fr', '/teka/fr/be', post(baseUrl, '/teka/fr/be', await validForm('teka', crypto.randomUUID()), 'https://elders.example'));
  return pages;
}
