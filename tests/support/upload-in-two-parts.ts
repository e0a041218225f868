import { request } from 'node:http';

/**
 * Uploads `photo` to the portal at `port` as a slow client does: the first
 * bytes, then the rest 400 ms later; `between` runs 100 ms after the first
 * part (to stop the server meanwhile). The body waits for the server's
 * "100 Continue", so `between` never runs before the server has accepted the
 * connection and read the head: on a loaded machine a fixed delay alone could
 * stop the server while the connection still sat in its accept queue.
 */
export function uploadInTwoParts(port: string | number, photo: Buffer, between: () => void): Promise<{ status: number; body: string }> {
  const boundary = 'b0undary';
  const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="image"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n`);
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path: '/api/forms/images',
        method: 'POST',
        headers: {
          'content-type': `multipart/form-data; boundary=${boundary}`,
          'content-length': head.length + photo.length + tail.length,
          expect: '100-continue',
        },
      },
      (res) => {
        let body = '';
        res.on('data', (c: Buffer) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on('error', reject);
    req.once('continue', () => {
      req.write(Buffer.concat([head, photo.subarray(0, 50)]));
      setTimeout(between, 100);
      setTimeout(() => req.end(Buffer.concat([photo.subarray(50), tail])), 400);
    });
    req.flushHeaders();
  });
}
