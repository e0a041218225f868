import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import sharp from 'sharp';
import { buildApp, type AppOptions } from '../../src/server/app';
import { MAIL_FOLDER, mailFileName } from '../../src/server/storage/mail-copies';
import { loadConfig, type ServerConfig } from '../../src/server/config';
import { probeDatabase, type DatabaseProbe } from '../support/database-probe';
import { makeWebRoot } from '../support/web-root';
import { backendEnv } from '../support/backend';
import { SPEC_DATA_ENV } from '../support/data-folders';
import { extendedRequest, simpleRequest } from '../fixtures/requests';
import { freePort } from '../support/free-port';

export interface TestServer {
  app: FastifyInstance;
  url: string;
  config: ServerConfig;
  dataDir: string;
  webRoot: string;
  /** The server's database (SQLite or PostgreSQL, as the test matrix runs), to look into what it stored. */
  sql: DatabaseProbe;
  /** Closes the app (if still open) and removes the temp folders. */
  dispose(): Promise<void>;
}

export { makeWebRoot, SHELL_HTML } from '../support/web-root';

/** The server's config for a fresh temp folder, serving the spec's brands and data; rate limits high unless `env` says otherwise. */
export function testConfig(root: string, env: Record<string, string> = {}, webFiles: Record<string, string> = {}): ServerConfig {
  const webRoot = makeWebRoot(join(root, 'web'), webFiles);
  return loadConfig({
    DATA_DIR: join(root, 'data'),
    WEB_ROOT: webRoot,
    ...SPEC_DATA_ENV,
    RATE_LIMIT_UPLOADS: '100000',
    RATE_LIMIT_SUBMITS: '100000',
    RATE_LIMIT_FORM_POSTS: '100000',
    MAIL_POLL_INTERVAL_MS: '50',
    MIN_FREE_DISK_MB: '0',
    // Tests speak from one address: per-client shares out of the way unless a test sets them.
    MAX_CONNECTIONS_PER_CLIENT: '10000',
    PHOTO_DECODE_PER_CLIENT: '1000',
    PHOTO_QUOTA_PER_CLIENT_MB: '100000',
    MAILS_PER_CLIENT_PER_HOUR: '100000',
    ...env,
  });
}

/** The app on a fresh DATA_DIR, not listening: for `app.inject()`. */
export async function buildTestApp(env: Record<string, string> = {}, options: AppOptions = {}): Promise<TestServer> {
  const root = mkdtempSync(join(tmpdir(), 'intake-test-'));
  const backend = await backendEnv();
  const config = testConfig(root, { ...backend.env, ...env });
  const app = await buildApp(config, options);
  return withDatabase({ app, url: '', config, dataDir: config.dataDir, webRoot: config.webRoot }, root, backend.drop);
}

/** Adds the test's own connection to the server's database, and a dispose that removes everything. */
async function withDatabase(
  server: Omit<TestServer, 'sql' | 'dispose'>,
  root: string,
  drop: () => Promise<void>,
): Promise<TestServer> {
  const probe = probeDatabase(server.config);
  return {
    ...server,
    sql: probe,
    async dispose() {
      await server.app.close();
      await probe.close();
      await drop();
      rmSync(root, { recursive: true, force: true });
    },
  };
}

/** A real server on 127.0.0.1 with a fresh DATA_DIR; rate limits high unless `env` says otherwise. */
export async function startTestServer(
  env: Record<string, string> = {},
  webFiles: Record<string, string> = {},
  options: AppOptions = {},
): Promise<TestServer> {
  const root = mkdtempSync(join(tmpdir(), 'intake-test-'));
  const backend = await backendEnv();
  // The port is chosen first, so signed photo links (PUBLIC_URL) point at this server.
  const port = await freePort();
  const config = testConfig(root, { PORT: String(port), PUBLIC_URL: `http://127.0.0.1:${port}`, ...backend.env, ...env }, webFiles);
  const app = await buildApp(config, options);
  await app.listen({ port, host: '127.0.0.1' });
  return withDatabase({ app, url: `http://127.0.0.1:${port}`, config, dataDir: config.dataDir, webRoot: config.webRoot }, root, backend.drop);
}

export async function jpegWithGps(width = 64, height = 48): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: '#c0392b' } })
    .jpeg()
    .withMetadata({ orientation: 6 })
    .withExif({
      IFD0: { Make: 'TestPhone' },
      IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '52/1 22/1 0/1', GPSLongitudeRef: 'E', GPSLongitude: '4/1 53/1 0/1' },
    })
    .toBuffer();
}

export async function png(width = 40, height = 30): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: '#2980b9' } }).png().toBuffer();
}

export async function uploadPhoto(url: string, bytes: Buffer, name = 'photo.jpg', type = 'image/jpeg'): Promise<Response> {
  const form = new FormData();
  form.append('image', new Blob([new Uint8Array(bytes)], { type }), name);
  return fetch(`${url}/api/forms/images`, { method: 'POST', body: form, headers: { accept: 'application/json' } });
}

export async function uploadedName(url: string, bytes: Buffer, name?: string, type?: string): Promise<string> {
  const res = await uploadPhoto(url, bytes, name, type);
  if (res.status !== 201) throw new Error(`upload failed: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { filename: string }).filename;
}

export { extendedRequest, simpleRequest };
export { brandsWith } from '../support/brands-with';

export function submit(url: string, brand: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${url}/api/forms/${brand}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json', ...headers },
    body: JSON.stringify(body),
  });
}

/** A multipart body with one file part, as a browser sends it (or cut short / altered by the caller). */
export function multipartBody(bytes: Buffer, { field = 'image', name = 'photo.jpg', type = 'image/jpeg', boundary = 'testboundary42' } = {}) {
  const head = `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${name}"\r\nContent-Type: ${type}\r\n\r\n`;
  return {
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, accept: 'application/json' },
    payload: Buffer.concat([Buffer.from(head), bytes, Buffer.from(`\r\n--${boundary}--\r\n`)]),
  };
}

/** Uploads a photo through `app.inject()`; returns its stored name. */
export async function injectUpload(app: FastifyInstance, bytes: Buffer, type = 'image/png', remoteAddress = '127.0.0.1'): Promise<string> {
  const res = await app.inject({ method: 'POST', url: '/api/forms/images', remoteAddress, ...multipartBody(bytes, { type, name: type === 'image/png' ? 'a.png' : 'a.jpg' }) });
  if (res.statusCode !== 201) throw new Error(`upload failed: ${res.statusCode} ${res.body}`);
  return (res.json() as { filename: string }).filename;
}

export function injectSubmit(app: FastifyInstance, brand: string, body: unknown, headers: Record<string, string> = {}) {
  return app.inject({ method: 'POST', url: `/api/forms/${brand}`, headers: { accept: 'application/json', ...headers }, payload: body as object });
}

/** Waits until `probe` gives something truthy (polling every 50 ms); fails after `timeoutMs`. */
export async function until<T>(probe: () => T | undefined | Promise<T | undefined>, what: string, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The photos the server keeps: files in DATA_DIR/photos with SQLite, rows with PostgreSQL (which holds their bytes). */
export async function storedPhotoNames(server: TestServer): Promise<string[]> {
  if (server.sql.dialect === 'postgres') return (await server.sql.all<{ name: string }>('SELECT name FROM photos')).map((r) => r.name).sort();
  return readdirSync(join(server.dataDir, 'photos')).filter((f) => !f.startsWith('.')).sort();
}

/**
 * The mails a server without SMTP_URL kept, wherever its backend keeps them (storage's MailCopies):
 * .eml files in DATA_DIR/outbox with SQLite, rows of mail_copies with PostgreSQL; each by its file name.
 */
export async function keptMails(server: Pick<TestServer, 'sql' | 'dataDir'>): Promise<{ name: string; eml: Buffer }[]> {
  if (server.sql.dialect === 'postgres') {
    const rows = await server.sql.all<{ message_id: string; eml: Buffer }>('SELECT message_id, eml FROM mail_copies ORDER BY outbox_id');
    return rows.map((r) => ({ name: mailFileName(r.message_id), eml: r.eml }));
  }
  const folder = join(server.dataDir, MAIL_FOLDER);
  if (!existsSync(folder)) return [];
  return readdirSync(folder)
    .filter((f) => f.endsWith('.eml'))
    .sort()
    .map((name) => ({ name, eml: readFileSync(join(folder, name)) }));
}

/** A kept mail by its file name (`<reference>.<kind>.eml`); undefined until it is kept. */
export async function keptMail(server: Pick<TestServer, 'sql' | 'dataDir'>, name: string): Promise<Buffer | undefined> {
  return (await keptMails(server)).find((m) => m.name === name)?.eml;
}

/** One number from a COUNT query on the server's database. */
export async function count(server: TestServer, query: string, params: (string | number)[] = []): Promise<number> {
  const [row] = await server.sql.all<{ n: number }>(query, params);
  return row.n;
}

/** A stored photo's bytes, wherever the backend keeps them (file or row). */
export async function storedPhoto(server: TestServer, name: string): Promise<Buffer> {
  if (server.sql.dialect === 'postgres') {
    const [row] = await server.sql.all<{ data: Buffer }>('SELECT data FROM photos WHERE name = ?', [name]);
    if (!row) throw new Error(`photo ${name} is not stored`);
    return row.data;
  }
  return readFileSync(join(server.dataDir, 'photos', name));
}
