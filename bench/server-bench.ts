/**
 * Server figures of `npm run bench` (also runnable alone: `tsx bench/server-bench.ts`),
 * on the real intake server as its own process (server-process.ts); the
 * submit figures are bench/submit-bench.ts's:
 * - time to refuse a 33 MB upload (declared length; the streamed case in detail);
 * - server RSS growth during 8 concurrent 30 MB photo uploads (real JPEGs,
 *   decoded and re-encoded);
 * - a small upload's time while another client (another 127.0.0.x address)
 *   floods large PNGs: photo decoding takes turns between clients.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { pathToFileURL } from 'node:url';
import sharp from 'sharp';
import { largePatternPng } from '../tests/fixtures/photos';
import type { BenchFigure } from './figures';
import { startServer, type Server } from './server-process';

const MB = 1024 * 1024;
function rssMb(pid: number): number {
  const kb = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  return Number(kb) / 1024;
}

/** ms from sending the headers of a 33 MB upload to its 413; `declared` sends Content-Length. */
function refuseTime(server: Server, declared: boolean): Promise<number> {
  const boundary = 'benchboundary';
  const head = `--${boundary}\r\nContent-Disposition: form-data; name="image"; filename="big.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`;
  const headers: Record<string, string | number> = { 'content-type': `multipart/form-data; boundary=${boundary}` };
  if (declared) headers['content-length'] = 33 * MB;
  return new Promise((resolve, reject) => {
    const started = performance.now();
    let answered = false;
    const req = request({ host: '127.0.0.1', port: server.port, path: '/api/forms/images', method: 'POST', headers }, (res) => {
      answered = true;
      const ms = performance.now() - started;
      res.resume();
      res.on('end', () => (res.statusCode === 413 ? resolve(ms) : reject(new Error(`expected 413, got ${res.statusCode}`))));
    });
    // The server closes the socket right after its 413, so the write side may fail (EPIPE)
    // a moment before the answer is read: only an error without an answer is a failure.
    req.on('error', (error) => setTimeout(() => answered || reject(error), 1000));
    req.write(head);
    const chunk = Buffer.alloc(MB, 0xd8);
    let sent = 0;
    const pump = () => {
      while (!answered && sent < 33 * MB) {
        sent += MB;
        if (!req.write(chunk)) return void req.once('drain', pump);
      }
      if (!answered) req.end();
    };
    // With a declared length the refusal must come before any body byte: the body follows only
    // if no answer came within a second (which the figure then shows). Sending it at once raced
    // the server's close, and the EPIPE sometimes arrived before the 413 could be read.
    if (declared) setTimeout(pump, 1000);
    else pump();
  });
}

/** A real JPEG of about `bytes` (noise compresses badly, so the pixel count stays moderate). */
async function largeJpeg(bytes: number): Promise<Buffer> {
  const width = 4096;
  let height = 2048;
  for (;;) {
    const jpeg = await sharp(randomBytes(width * height * 3), { raw: { width, height, channels: 3 } }).jpeg({ quality: 100 }).toBuffer();
    if (jpeg.length >= bytes) return jpeg;
    height = Math.ceil((height * bytes) / jpeg.length) + 16;
  }
}

/** Uploads one photo; `localAddress` (127.0.0.x) makes it another client of the same machine. */
function upload(server: Server, bytes: Buffer, { type = 'image/jpeg', localAddress = '127.0.0.1' } = {}): Promise<number> {
  const boundary = 'benchupload';
  const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="image"; filename="p"\r\nContent-Type: ${type}\r\n\r\n`);
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        localAddress,
        port: server.port,
        path: '/api/forms/images',
        method: 'POST',
        headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': head.length + bytes.length + tail.length },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.write(head);
    // Sent in 1 MB writes, as a network would deliver it, not as one buffer.
    for (let at = 0; at < bytes.length; at += MB) req.write(bytes.subarray(at, at + MB));
    req.end(tail);
  });
}

async function uploadMemory(server: Server): Promise<{ growthMb: number; detail: string }> {
  const photo = await largeJpeg(30 * MB);
  const pid = server.child.pid!;
  await upload(server, await sharp({ create: { width: 64, height: 64, channels: 3, background: '#888' } }).jpeg().toBuffer());
  await new Promise((r) => setTimeout(r, 500));
  const idle = rssMb(pid);
  let peak = idle;
  const sampler = setInterval(() => (peak = Math.max(peak, rssMb(pid))), 20);
  const started = performance.now();
  const statuses = await Promise.all(Array.from({ length: 8 }, () => upload(server, photo)));
  const seconds = (performance.now() - started) / 1000;
  clearInterval(sampler);
  const ok = statuses.filter((s) => s === 201).length;
  return {
    growthMb: Math.round(peak - idle),
    detail: `idle ${Math.round(idle)} MB, peak ${Math.round(peak)} MB; photo ${(photo.length / MB).toFixed(1)} MB JPEG; ${ok}/8 stored in ${seconds.toFixed(1)} s`,
  };
}

/** How long a small upload from one client takes while another floods large PNGs (decoding takes turns). */
async function uploadDuringFlood(server: Server): Promise<{ ms: number; detail: string }> {
  const [big, small] = [await largePatternPng(), await sharp({ create: { width: 64, height: 64, channels: 3, background: '#888' } }).jpeg().toBuffer()];
  const started = performance.now();
  let floodMs = 0;
  const flood = Promise.all(Array.from({ length: 12 }, () => upload(server, big, { type: 'image/png' }))).then((statuses) => {
    floodMs = performance.now() - started;
    return statuses;
  });
  await new Promise((r) => setTimeout(r, 300));
  const t0 = performance.now();
  const status = await upload(server, small, { localAddress: '127.0.0.2' });
  const ms = performance.now() - t0;
  const stored = (await flood).filter((s) => s === 201).length;
  return { ms, detail: `small upload ${status}; flood of 12 × ${(big.length / MB).toFixed(1)} MB 4000×4000 PNG from another client: ${stored}/12 stored in ${(floodMs / 1000).toFixed(1)} s` };
}

export async function runServerBench(): Promise<BenchFigure[]> {
  const server = await startServer();
  let measured;
  try {
    const declared = await refuseTime(server, true);
    const streamed = await refuseTime(server, false);
    const memory = await uploadMemory(server);
    const fairness = await uploadDuringFlood(server);
    measured = { declared, streamed, memory, fairness };
  } finally {
    await server.stop();
  }
  const { declared, streamed, memory, fairness } = measured;
  return [
    {
      name: 'time to refuse a 33 MB upload (declared length)',
      value: Math.round(declared * 10) / 10,
      unit: 'ms',
      budgetKey: 'server.refuseOversizeUploadMs',
      better: 'lower',
      detail: `streamed without Content-Length: refused after ${Math.round(streamed)} ms, once 32 MB had arrived`,
    },
    {
      name: 'server memory growth during 8 concurrent 30 MB uploads',
      value: memory.growthMb,
      unit: 'MB',
      budgetKey: 'server.uploadMemoryMb',
      better: 'lower',
      detail: memory.detail,
    },
    {
      name: 'small upload while another client floods large PNGs',
      value: Math.round(fairness.ms),
      unit: 'ms',
      budgetKey: 'server.smallUploadDuringFloodMs',
      better: 'lower',
      detail: fairness.detail,
    },
  ];
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  for (const figure of await runServerBench()) {
    console.log(`${figure.name}: ${figure.value} ${figure.unit}${figure.detail ? `\n    ${figure.detail}` : ''}`);
  }
}
