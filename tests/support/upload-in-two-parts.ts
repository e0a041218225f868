import { request } from 'node:http';

/**
 * Uploads `photo` to the portal at `port` as a slow client does: the first
 * bytes now, the rest 400 ms later; `between` runs 100 ms after the first
 * part, once the server is reading the request (to stop it meanwhile).
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
        headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': head.length + photo.length + tail.length },
      },
      (res) => {
        let body = '';
        res.on('data', (c: Buffer) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on('error', reject);
    req.write(Buffer.concat([head, photo.subarray(0, 50)]));
    setTimeout(between, 100);
    setTimeout(() => req.end(Buffer.concat([photo.subarray(50), tail])), 400);
  });
}
