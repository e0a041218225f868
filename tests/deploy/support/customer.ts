/** A customer of the shipped brands (the data the image was built with): pages, photos, requests. */
import { randomUUID } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { checkedBrands } from '../../../src/cli/checked-project';
import { brandLocales } from '../../../src/core/locale';
import { brandPaths } from '../../../src/core/brands';
import type { FormModel } from '../../../src/core/form-model';
import type { Brand } from '../../../src/core/types';
import { loadPortalData } from '../../../src/server/portal-data';
import { SHIPPED_BRANDS_DIR, SHIPPED_SCHEMAS_DIR } from '../../support/data-folders';
import { sampleRequest } from '../../support/sample-request';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
// The shipped data: what the Dockerfile copies into the image, and the image serves.
const FOLDERS = { brandsDir: SHIPPED_BRANDS_DIR, schemasDir: SHIPPED_SCHEMAS_DIR };

const { brands } = checkedBrands(ROOT, FOLDERS);
const { forms, rules } = loadPortalData(FOLDERS.schemasDir);

/** Every page of every brand in the image (/<id>/<locale>/<country>). */
export const PAGES = brandPaths(brands);

/** The first brand whose form takes two photos, as the spec's forms do (else the first brand). */
export const BRAND: Brand = brands.find((b) => forms.get(b.form)!.photos.length >= 2) ?? brands[0];
const FORM: FormModel = forms.get(BRAND.form)!;

/** The address the desk mail answers to, for a request numbered `n`. */
export const customerEmail = (n: number | string) => `deploy-${n}@example.com`;

const jpeg = sharp({ create: { width: 640, height: 480, channels: 3, background: { r: 40, g: 120, b: 200 } } })
  .jpeg({ quality: 80 })
  .toBuffer();

/** One photo uploaded as the page uploads it; its stored name, or the status that refused it. */
export async function upload(baseUrl: string): Promise<{ status: number; filename?: string }> {
  const body = new FormData();
  body.append('image', new Blob([new Uint8Array(await jpeg)], { type: 'image/jpeg' }), 'foto.jpg');
  const response = await fetch(`${baseUrl}/api/forms/images`, { method: 'POST', body, headers: { accept: 'application/json' } });
  return response.status === 201 ? { status: 201, filename: ((await response.json()) as { filename: string }).filename } : { status: response.status };
}

/** The body of a request with the photos given, made from the brand's form (tests/support/sample-request.ts). */
export function requestBody(photos: readonly string[], email: string): Record<string, unknown> {
  return sampleRequest(FORM, rules, { brand: BRAND, locale: brandLocales(BRAND).at(-1)!, country: BRAND.countries.at(-1)!, photos, email });
}

/** The photos the brand's form takes, uploaded; throws naming the status of one refused. */
export async function uploadPhotos(baseUrl: string): Promise<string[]> {
  const names: string[] = [];
  for (const _ of FORM.photos) {
    const { status, filename } = await upload(baseUrl);
    if (!filename) throw new Error(`an upload to ${baseUrl} answered ${status}`);
    names.push(filename);
  }
  return names;
}

/** A submit as the page sends it; the status and, when stored, the reference. Network failures count as status 0. */
export async function submit(baseUrl: string, body: Record<string, unknown>, key: string): Promise<{ status: number; reference?: string }> {
  try {
    const response = await fetch(`${baseUrl}/api/forms/${BRAND.id}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json', 'idempotency-key': key },
      body: JSON.stringify(body),
    });
    const text = await response.text();
    return response.status === 201 ? { status: 201, reference: (JSON.parse(text) as { reference: string }).reference } : { status: response.status };
  } catch {
    return { status: 0 };
  }
}

/** A GET from a loopback address of the caller's choosing (127.0.0.0/8 is all loopback), with the headers given. */
export function getFrom(url: string, localAddress: string, headers: Record<string, string> = {}): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { localAddress, headers, agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end();
  });
}

/** What one customer's request went through: the statuses of the submits refused before it was stored (0: no answer). */
export interface Sent {
  key: string;
  reference: string;
  refused: number[];
}

/**
 * A customer who presses Send again after a refusal (a 502 or 503 while an instance stops, or no answer),
 * as the page does with the same Idempotency-Key, until the request is stored: photos and request both.
 */
export async function sendUntilStored(baseUrl: string, email: string, giveUpAfterMs = 60_000): Promise<Sent> {
  const giveUpAt = Date.now() + giveUpAfterMs;
  const photos: string[] = [];
  while (photos.length < FORM.photos.length) {
    const { status, filename } = await upload(baseUrl).catch(() => ({ status: 0, filename: undefined }));
    if (filename) photos.push(filename);
    else if (Date.now() > giveUpAt) throw new Error(`a photo not taken within ${giveUpAfterMs} ms: the last answer ${status}`);
    else await sleep(200);
  }
  return resendUntilStored(baseUrl, requestBody(photos, email), randomUUID(), [], giveUpAt);
}

/** The same request sent again with its key, 200 ms apart, until it is stored; `refused` holds the statuses met (before this call too). */
export async function resendUntilStored(baseUrl: string, body: Record<string, unknown>, key: string, refused: number[], giveUpAt = Date.now() + 60_000): Promise<Sent> {
  for (;;) {
    const { status, reference } = await submit(baseUrl, body, key);
    if (reference) return { key, reference, refused };
    refused.push(status);
    if (Date.now() > giveUpAt) throw new Error(`the request not stored in time: submits refused ${refused.join(', ')}`);
    await sleep(200);
  }
}

/**
 * A submit whose body arrives in two halves, `between` run while the server holds the first: a request
 * in flight at a chosen moment (nginx streams bodies through, so the instance holds it too). Its status
 * (0: no answer) and, when stored, the reference.
 */
export function submitInHalves(baseUrl: string, body: Record<string, unknown>, key: string, between: () => Promise<void>): Promise<{ status: number; reference?: string }> {
  const bytes = Buffer.from(JSON.stringify(body));
  return new Promise((resolve) => {
    const req = httpRequest(`${baseUrl}/api/forms/${BRAND.id}`, {
      method: 'POST',
      agent: false,
      headers: { 'content-type': 'application/json', accept: 'application/json', 'idempotency-key': key, 'content-length': bytes.length },
    });
    req.on('response', (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve(res.statusCode === 201 ? { status: 201, reference: (JSON.parse(text) as { reference: string }).reference } : { status: res.statusCode ?? 0 }));
    });
    req.on('error', () => resolve({ status: 0 }));
    req.write(bytes.subarray(0, bytes.length >> 1));
    void between().then(() => req.end(bytes.subarray(bytes.length >> 1)));
  });
}
