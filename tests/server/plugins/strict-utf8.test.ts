import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, count, injectUpload, png, simpleRequest, type TestServer } from '../helpers';

let server: TestServer;
beforeAll(async () => {
  server = await buildTestApp();
});
afterAll(() => server.dispose());

describe('a JSON body that is not valid UTF-8', () => {
  it('is refused with 400 and a plain message, and nothing is stored (not a name with U+FFFD in it)', async () => {
    const [a, b] = [await injectUpload(server.app, await png()), await injectUpload(server.app, await png())];
    const json = JSON.stringify(simpleRequest(a, b));
    const at = json.indexOf('"', json.indexOf('"last_name"') + 12) + 1;
    // 0xC3 0x28: a lead byte of a two-byte sequence followed by "(": no character.
    const payload = Buffer.concat([Buffer.from(json.slice(0, at)), Buffer.from([0xc3, 0x28]), Buffer.from(json.slice(at))]);
    const res = await server.app.inject({ method: 'POST', url: '/api/forms/ilve', headers: { 'content-type': 'application/json', accept: 'application/json' }, payload });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: 'The request body is not valid UTF-8 text.' });
    expect(await count(server, 'SELECT count(*) AS n FROM requests')).toBe(0);
    const valid = await server.app.inject({ method: 'POST', url: '/api/forms/ilve', headers: { 'content-type': 'application/json', accept: 'application/json' }, payload: json });
    expect(valid.statusCode).toBe(201);
  });
});
