import { describe, expect, it } from 'vitest';
import { closeGracefully } from '../../src/server/shutdown';
import { uploadInTwoParts } from '../support/upload-in-two-parts';
import { png, startTestServer } from './helpers';

describe('graceful shutdown', () => {
  it('finishes an upload that is in flight when the server closes, then refuses new connections', async () => {
    const server = await startTestServer();
    const photo = await png();
    const { port } = new URL(server.url);
    let closed: Promise<void> = Promise.resolve();
    const result = await uploadInTwoParts(port, photo, () => (closed = closeGracefully(server.app, 5000)));
    await closed;
    expect(result.status).toBe(201);
    expect(JSON.parse(result.body)).toEqual({ filename: expect.stringMatching(/\.png$/) });
    await expect(fetch(`${server.url}/healthz`)).rejects.toThrow();
    await server.dispose();
  });
});
