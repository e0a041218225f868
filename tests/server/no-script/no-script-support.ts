import { request } from 'node:http';
import { form } from '../../support/portal-data';
import { jpegWithGps, png, simpleRequest, startTestServer, type TestServer } from '../helpers';

/**
 * Stands in for the SSR build (dist/web/ssr): renders the seed it is given, so
 * the tests read exactly what the route decided. The real render is covered
 * by tests/e2e/no-script.spec.ts.
 */
export const SSR_STANDIN =
  'export async function render(url, seed) { return { title: "Ilve | Service", html: `<form><input type="hidden" name="submission" value=""/></form><pre id="seed">${JSON.stringify({ url, seed })}</pre>` }; }\n';

const page = (lang: string) =>
  `<!doctype html><html lang="${lang}"><head><title>Ilve</title></head><body><div id="root"><form><input type="hidden" name="submission" value=""/></form></div></body></html>`;

/** The web files a no-script test server needs: the SSR stand-in and the prerendered pages it fills. */
export const NO_SCRIPT_WEB_FILES = {
  'ssr/entry-server.js': SSR_STANDIN,
  'pages/ilve/nl/nl.html': page('nl'),
  'pages/ilve/fr/be.html': page('fr'),
  'pages/404.html': '<!doctype html><html lang="nl"><head><title>404 - Pagina niet gevonden</title></head><body><div id="root"></div></body></html>',
};

export function startNoScriptServer(env: Record<string, string> = {}): Promise<TestServer> {
  return startTestServer(env, NO_SCRIPT_WEB_FILES);
}

export interface Seed {
  url: string;
  seed: {
    brandId: string;
    formData: Record<string, unknown>;
    errors: Record<string, string[]>;
    sentTo?: string;
    notice?: { kind: string; reference?: string };
  };
}

export function seedOf(html: string): Seed {
  const json = /<pre id="seed">(.*)<\/pre>/s.exec(html)?.[1];
  if (!json) throw new Error(`no seed in ${html.slice(0, 300)}`);
  return JSON.parse(json) as Seed;
}

export type PhotoPart = [control: string, bytes: Buffer, filename: string, type: string];

/** The simple form as a browser posts it: root_<field> text parts, the photo pickers, then the hidden key. */
export function formBody(values: Record<string, unknown>, photos: PhotoPart[] = [], key = 'key-1'): FormData {
  const body = new FormData();
  for (const [name, value] of Object.entries(values)) body.append(`root_${name}`, String(value));
  for (const [name, bytes, filename, type] of photos) body.append(`root_${name}`, new Blob([new Uint8Array(bytes)], { type }), filename);
  body.append('submission', key);
  return body;
}

/** The simple form's values, without the photo names (the browser posts the photos themselves). */
export function typedValues(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  const values = simpleRequest('', '');
  for (const { target } of form('simple').photos) delete values[target];
  return { ...values, ...overrides };
}

export async function twoPhotos(): Promise<PhotoPart[]> {
  return [
    ['upload_1', await jpegWithGps(), 'plaatje.jpg', 'image/jpeg'],
    ['upload_2', await png(), 'bon.png', 'image/png'],
  ];
}

/** What a browser sends with a form posted from the portal's own page. */
export const sameOrigin = (server: TestServer) => ({ origin: server.url, 'sec-fetch-site': 'same-origin' });

/** Posts a form as the portal's own page would (Origin and Fetch Metadata of the portal). */
export function postForm(server: TestServer, path: string, body: FormData, headers: Record<string, string> = {}) {
  return fetch(`${server.url}${path}`, { method: 'POST', body, headers: { ...sameOrigin(server), ...headers }, redirect: 'manual' });
}

export interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** Sends exactly these bytes (and these headers, nothing added but Host and Content-Length), as a hostile client can. */
export function rawPost(server: TestServer, path: string, headers: Record<string, string>, payload: Buffer): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const req = request(`${server.url}${path}`, { method: 'POST', headers: { ...headers, 'content-length': payload.length } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    // The server may answer before reading everything (and close): the answer is what counts.
    req.on('error', reject);
    req.end(payload);
  });
}

/** A multipart body as a browser builds it, from text fields and files in the order given, with a chosen boundary. */
export function multipartOf(boundary: string, parts: ([name: string, value: string] | PhotoPart)[]): Buffer {
  const bytes: Buffer[] = [];
  for (const part of parts) {
    if (part.length === 2) {
      bytes.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${part[0]}"\r\n\r\n${part[1]}\r\n`));
      continue;
    }
    const [name, content, filename, type] = part;
    bytes.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"; filename="${filename}"\r\nContent-Type: ${type}\r\n\r\n`));
    bytes.push(content, Buffer.from('\r\n'));
  }
  bytes.push(Buffer.from(`--${boundary}--\r\n`));
  return Buffer.concat(bytes);
}

/** Words of stack traces and parsers that must never reach a visitor. */
export const INTERNALS = /at \w+ \(|node_modules|busboy|multipart:|Unexpected end|Malformed|FST_|ENOENT|ENOSPC|\.ts:\d+|\.js:\d+/i;
