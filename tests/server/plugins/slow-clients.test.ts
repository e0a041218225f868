import { request } from 'node:http';
import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { multipartBody, startTestServer, type TestServer } from '../helpers';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.dispose();
  server = undefined;
});

const portOf = (s: TestServer) => Number(new URL(s.url).port);

/** Opens a socket and sends the head of an upload whose body then trickles in (or never comes). */
function slowUpload(port: number, localAddress = '127.0.0.1'): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect({ port, host: '127.0.0.1', localAddress }, () => {
      socket.write(
        'POST /api/forms/images HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: multipart/form-data; boundary=b\r\nContent-Length: 1000000\r\n\r\n--b\r\n',
      );
      resolve(socket);
    });
    socket.on('error', () => {});
    socket.once('error', reject);
  });
}

const closed = (socket: Socket) => new Promise<void>((resolve) => (socket.destroyed ? resolve() : socket.once('close', () => resolve())));

/** Sends `body` in chunks at about `bytesPerSecond`; resolves with the status. */
function pacedPost(port: number, body: { headers: Record<string, string>; payload: Buffer }, bytesPerSecond: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(
      { port, host: '127.0.0.1', path: '/api/forms/images', method: 'POST', headers: { ...body.headers, 'content-length': body.payload.length } },
      (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      },
    );
    req.on('error', reject);
    const chunk = Math.max(1, Math.round(bytesPerSecond / 10));
    let at = 0;
    const timer = setInterval(() => {
      req.write(body.payload.subarray(at, (at += chunk)));
      if (at >= body.payload.length) {
        clearInterval(timer);
        req.end();
      }
    }, 100);
  });
}

describe('slow clients', () => {
  it('cuts off a body that trickles in below the minimum rate', { timeout: 30_000 }, async () => {
    server = await startTestServer({ MIN_BODY_BYTES_PER_S: '2000', MIN_BODY_RATE_WINDOW_MS: '1000' });
    const socket = await slowUpload(portOf(server));
    const trickle = setInterval(() => socket.writable && socket.write('x'), 200);
    const started = Date.now();
    await closed(socket);
    clearInterval(trickle);
    // Within a couple of windows, not the 5-minute request timeout.
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('lets an upload through that is slow but above the minimum rate', { timeout: 60_000 }, async () => {
    // Scaled down from a 32 MB photo at 1 Mbit/s against the default 8 kB/s: the same ratio of 15.
    server = await startTestServer({ MIN_BODY_BYTES_PER_S: '1000', MIN_BODY_RATE_WINDOW_MS: '1000' });
    const photo = await sharp({ create: { width: 200, height: 200, channels: 3, background: '#777', noise: { type: 'gaussian', mean: 128, sigma: 60 } } })
      .jpeg({ quality: 95 })
      .toBuffer();
    const body = multipartBody(photo);
    expect(body.payload.length).toBeGreaterThan(30_000); // two seconds and more on the wire
    expect(await pacedPost(portOf(server), body, 15_000)).toBe(201);
  });

  it('caps the connections of one address, and the health check from elsewhere still answers', { timeout: 30_000 }, async () => {
    server = await startTestServer({ MAX_CONNECTIONS_PER_CLIENT: '5' });
    const port = portOf(server);
    const held = await Promise.all(Array.from({ length: 5 }, () => slowUpload(port)));
    const extra = await slowUpload(port);
    await closed(extra);
    expect(held.every((s) => !s.destroyed)).toBe(true);

    const health = await new Promise<number>((resolve, reject) => {
      request({ port, host: '127.0.0.1', localAddress: '127.0.0.2', path: '/healthz' }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      })
        .on('error', reject)
        .end();
    });
    expect(health).toBe(200);
    for (const s of held) s.destroy();
  });

  it('closes a connection whose headers trickle in, soon after HEADERS_TIMEOUT_MS (not at Node’s next 30 s check)', { timeout: 30_000 }, async () => {
    server = await startTestServer({ HEADERS_TIMEOUT_MS: '2000' });
    const socket = await new Promise<Socket>((resolve, reject) => {
      const s = connect({ port: portOf(server!), host: '127.0.0.1' }, () => resolve(s));
      s.on('error', () => {});
      s.once('error', reject);
    });
    socket.write('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n');
    // One header line a second: never complete, never silent.
    const trickle = setInterval(() => socket.writable && socket.write('X-Slow: y\r\n'), 1000);
    const started = Date.now();
    await closed(socket);
    clearInterval(trickle);
    expect(Date.now() - started).toBeLessThan(6000);
  });
});

