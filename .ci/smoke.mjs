// The smoke path on one Node line, run in a clean clone after `npm ci` and
// `npm run build`: npm start, the page, two photo uploads and a submit, then
// SIGTERM to npm's own process (as a terminal or systemd sends it). The build
// and npm start take the spec's brands and data (BRANDS_DIR=tests/fixtures/brands/spec,
// SCHEMAS_DIR=tests/fixtures/schemas/spec, set by .ci/run), so what brands/ and
// schemas/ hold cannot break it. Passes
// when every answer is right, npm exits 0 within 10 s, nothing it started is
// left running, and nothing aborted. Plain Node: it runs before any dev tool.
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';

const freePort = () =>
  new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });

function check(ok, what) {
  if (!ok) throw new Error(`smoke: ${what}`);
  console.log(`  ok  ${what}`);
}

const port = await freePort();
const base = `http://127.0.0.1:${port}`;
let output = '';
const npm = spawn('npm', ['start'], {
  detached: true,
  env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: mkdtempSync(join(tmpdir(), 'smoke-data-')), LOG_LEVEL: 'warn' },
  stdio: ['ignore', 'pipe', 'pipe'],
});
for (const stream of [npm.stdout, npm.stderr]) stream.on('data', (d) => (output += d));
const exited = new Promise((resolve) => npm.on('exit', (code, signal) => resolve({ code, signal })));

try {
  for (let i = 0; ; i++) {
    if (npm.exitCode !== null) throw new Error(`smoke: npm start ended with ${npm.exitCode}:\n${output}`);
    if (await fetch(`${base}/healthz`).then((r) => r.ok, () => false)) break;
    if (i > 600) throw new Error(`smoke: the server did not answer within a minute:\n${output}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  const page = await fetch(`${base}/ilve/nl/be`);
  check(page.status === 200 && (await page.text()).includes('<title>Ilve | Service</title>'), 'GET /ilve/nl/be serves the page');

  const photo = (format) => sharp({ create: { width: 640, height: 480, channels: 3, background: '#2980b9' } })[format]().toBuffer();
  const upload = async (bytes, type, name) => {
    const form = new FormData();
    form.append('image', new Blob([bytes], { type }), name);
    const res = await fetch(`${base}/api/forms/images`, { method: 'POST', body: form, headers: { accept: 'application/json' } });
    return res.status === 201 ? (await res.json()).filename : undefined;
  };
  const image1 = await upload(await photo('jpeg'), 'image/jpeg', 'plate.jpg');
  const image2 = await upload(await photo('png'), 'image/png', 'receipt.png');
  check(Boolean(image1 && image2), 'two photos uploaded (JPEG, PNG)');

  const request = {
    last_name: 'Jansen', street_name: 'Kerkstraat', house_number: 12, postal_code: '1000', city: 'Brussel', country: 'be',
    client_email: 'smoke@example.com', phone_number: '+32 2 123 45 67', brand: 'Ilve', type: 'P90', serial_number: 'SN-1',
    purchase_date: '2024', description: 'De oven wordt niet warm.', image1, image2,
  };
  const submit = await fetch(`${base}/api/forms/ilve`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json', 'idempotency-key': crypto.randomUUID() },
    body: JSON.stringify(request),
  });
  check(submit.status === 201 && typeof (await submit.json()).reference === 'string', 'the request is stored (201 with a reference)');

  const signalled = Date.now();
  process.kill(npm.pid, 'SIGTERM');
  const { code } = await Promise.race([exited, new Promise((r) => setTimeout(() => r({ code: 'still running after 10 s' }), 10_000))]);
  check(code === 0, `SIGTERM to npm start: exit ${code} after ${Date.now() - signalled} ms`);
  let left = true;
  try {
    process.kill(-npm.pid, 0);
  } catch {
    left = false;
  }
  check(!left, 'nothing npm start began is left running');
  check(!/Assertion failed|Segmentation fault|Aborted|core dumped/.test(output), 'no abort in the output');
} finally {
  try {
    process.kill(-npm.pid, 'SIGKILL');
  } catch {
    // already gone
  }
}
