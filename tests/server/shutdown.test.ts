import { request } from 'node:http';
import { describe, expect, it } from 'vitest';
import { closeGracefully } from '../../src/server/shutdown';
import { png, startTestServer } from './helpers';

describe('graceful shutdown', () => {
  it('finishes an upload that is in flight when the server closes, then refuses new connections', async () => {
    const server = await startTestServer();
    const photo = await png();
    const boundary = 'b0undary';
    const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="image"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n`);
    const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
    const { port } = new URL(server.url);

    const answer = new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request(
        {
          host: '127.0.0.1',
          port,
          path: '/api/forms/images',
          method: 'POST',
          headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': head.length + photo.length + tail.length },
        },
        (res) => {
          let body = '';
          res.on('data', (c: Buffer) => (body += c));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        },
      );
      req.on('error', reject);
      // Half the photo now; the rest only after shutdown has begun.
      req.write(Buffer.concat([head, photo.subarray(0, 50)]));
      setTimeout(() => req.end(Buffer.concat([photo.subarray(50), tail])), 300);
    });

    await new Promise((r) => setTimeout(r, 100));
    const closed = closeGracefully(server.app, 5000);
    const result = await answer;
    await closed;
    expect(result.status).toBe(201);
    expect(JSON.parse(result.body)).toEqual({ filename: expect.stringMatching(/\.png$/) });
    await expect(fetch(`${server.url}/healthz`)).rejects.toThrow();
    await server.dispose();
  });
});
