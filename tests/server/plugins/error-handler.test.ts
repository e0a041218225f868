import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { HttpError } from '../../../src/server/http-error';
import { installErrorHandler } from '../../../src/server/plugins/error-handler';

function appThrowing(error: Error) {
  const app = Fastify();
  installErrorHandler(app);
  app.get('/', async () => {
    throw error;
  });
  return app;
}

describe('error handler', () => {
  it('answers a full disk with 503 and a plain message, never the errno text', async () => {
    for (const code of ['ENOSPC', 'SQLITE_FULL']) {
      const res = await appThrowing(Object.assign(new Error(`${code}: no space left on device, write '/data/x'`), { code })).inject('/');
      expect(res.statusCode).toBe(503);
      expect(res.body).not.toMatch(/ENOSPC|SQLITE|\/data/);
      expect(res.json()).toEqual({ error: expect.stringContaining('try again later') });
    }
  });

  it('hides other server errors behind a generic 500', async () => {
    const res = await appThrowing(new Error('secret stack detail')).inject('/');
    expect(res.statusCode).toBe(500);
    expect(res.body).not.toContain('secret');
  });

  it('passes HttpErrors through with their details', async () => {
    const res = await appThrowing(new HttpError(422, 'Photo unknown.', { photos: ['image1'] })).inject('/');
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({ error: 'Photo unknown.', photos: ['image1'] });
  });
});
