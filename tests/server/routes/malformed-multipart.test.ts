import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, jpegWithGps, type TestServer } from '../helpers';
import { captureLogs, ERROR_LEVEL } from '../log-capture';

const BOUNDARY = 'brokenboundary7';
const logs = captureLogs();
let server: TestServer;

beforeAll(async () => {
  server = await buildTestApp({}, { logger: logs.logger });
});
afterAll(() => server.dispose());

function post(contentType: string, payload: Buffer | string) {
  return server.app.inject({ method: 'POST', url: '/api/forms/images', headers: { 'content-type': contentType }, payload });
}

describe('broken multipart bodies', () => {
  it('answers garbage sent as multipart with 400, logged as a client error', async () => {
    const before = logs.lines.length;
    for (const type of ['multipart/form-data', `multipart/form-data; boundary=${BOUNDARY}`]) {
      const res = await post(type, 'garbage');
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ error: expect.any(String) });
      expect(res.body).not.toMatch(/at \w+ \(|node_modules|busboy/i);
    }
    const logged = logs.lines.slice(before);
    expect(logged.filter((l) => l.level >= ERROR_LEVEL)).toEqual([]);
  });

  it('answers a part cut off after the JPEG magic bytes with 400 and keeps no file', async () => {
    const jpeg = await jpegWithGps();
    const head = `--${BOUNDARY}\r\nContent-Disposition: form-data; name="image"; filename="a.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`;
    const before = logs.lines.length;
    const res = await post(`multipart/form-data; boundary=${BOUNDARY}`, Buffer.concat([Buffer.from(head), jpeg.subarray(0, 4)]));
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: expect.any(String) });
    expect(readdirSync(join(server.dataDir, 'photos'))).toEqual([]);
    expect(logs.lines.slice(before).filter((l) => l.level >= ERROR_LEVEL)).toEqual([]);
  });
});
