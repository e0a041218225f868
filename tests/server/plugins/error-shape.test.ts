import { STATUS_CODES } from 'node:http';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, startTestServer, type TestServer } from '../helpers';

let server: TestServer;

beforeAll(async () => {
  server = await buildTestApp();
});
afterAll(() => server.dispose());

/** The one error body: a plain message, and field messages where there are some. */
function expectErrorShape(body: string, path?: string) {
  const json = JSON.parse(body) as Record<string, unknown>;
  expect(Object.keys(json).filter((k) => k !== 'fields')).toEqual(['error']);
  expect(typeof json.error).toBe('string');
  expect(body).not.toMatch(/FST_|statusCode|native code|function /);
  if (path) expect(body).not.toContain(path);
}

describe('one error shape for every 4xx and 5xx', () => {
  it.each([
    ['bad URL encoding', { method: 'GET', url: '/api/forms/%zz' }, 400, '%zz'],
    ['bad URL encoding on a POST', { method: 'POST', url: '/api/forms/%zz-evil' }, 400, 'evil'],
    ['overlong brand id', { method: 'POST', url: `/api/forms/${'x'.repeat(300)}`, payload: {} }, 414, 'xxxxxxxxxx'],
    ['unknown API path', { method: 'GET', url: '/api/nothing-here' }, 404, 'nothing-here'],
    ['unknown brand', { method: 'POST', url: '/api/forms/miele', payload: {} }, 404, 'miele'],
    ['JSON that does not parse', { method: 'POST', url: '/api/forms/teka', headers: { 'content-type': 'application/json' }, payload: '{"last_name": tru' }, 400, 'tru'],
    ['a body over the limit', { method: 'POST', url: '/api/forms/teka', headers: { 'content-type': 'application/json' }, payload: `{"a":"${'x'.repeat(200_000)}"}` }, 413, undefined],
    ['an unsupported content type', { method: 'POST', url: '/api/forms/teka', headers: { 'content-type': 'text/x-evil' }, payload: 'x' }, 415, 'x-evil'],
    ['a method not served', { method: 'DELETE', url: '/api/forms/teka' }, 404, undefined],
  ] as const)('%s', async (_name, request, status, echo) => {
    const res = await server.app.inject(request as never);
    expect(res.statusCode).toBe(status);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expectErrorShape(res.body, echo);
  });

  it('does not answer unknown keys named after Object.prototype members with their values', async () => {
    const res = await server.app.inject({
      method: 'POST',
      url: '/api/forms/ilve',
      payload: { constructor: 1, toString: 'x', hasOwnProperty: 2, valueOf: 3 },
    });
    expect(res.statusCode).toBe(400);
    expectErrorShape(res.body);
    const fields = (res.json() as { fields: Record<string, unknown> }).fields;
    for (const key of ['constructor', 'toString', 'hasOwnProperty', 'valueOf']) {
      expect(fields[key]).toEqual([expect.any(String)]);
    }
  });

  it('answers the rate limit with 429 in the same shape', async () => {
    const limited = await buildTestApp({ RATE_LIMIT_SUBMITS: '2' });
    try {
      let res;
      for (let i = 0; i < 3; i++) res = await limited.app.inject({ method: 'POST', url: '/api/forms/fratelli', payload: {} });
      expect(res!.statusCode).toBe(429);
      expect(res!.headers['retry-after']).toBeDefined();
      expectErrorShape(res!.body);
    } finally {
      await limited.dispose();
    }
  });
});

describe('requests Node cannot parse', () => {
  it.each([
    ['a broken request line', 'GARBAGE\r\n\r\n', 400],
    ['headers too large', `GET / HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`, 431],
  ])('%s get the same body shape', async (_name, raw, status) => {
    const live = await startTestServer();
    try {
      const answer = await new Promise<string>((resolve, reject) => {
        const socket = connect({ port: Number(new URL(live.url).port), host: '127.0.0.1' }, () => socket.end(raw));
        let text = '';
        socket.on('data', (d: Buffer) => (text += d.toString()));
        socket.on('close', () => (text ? resolve(text) : reject(new Error('no answer'))));
        socket.on('error', () => {});
      });
      expect(answer.split('\r\n')[0]).toBe(`HTTP/1.1 ${status} ${STATUS_CODES[status]}`);
      expectErrorShape(answer.slice(answer.indexOf('\r\n\r\n') + 4));
    } finally {
      await live.dispose();
    }
  });
});
