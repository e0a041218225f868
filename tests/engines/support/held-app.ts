/**
 * The portal as seen over a line on which the page's app arrives late: every
 * request is passed on to the real portal as it is, except the app's start
 * chunk, which waits until the test releases it. So a test acts on the page
 * while its app is on its way, in any engine.
 */
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface HeldApp {
  baseUrl: string;
  /** Whether the page has asked for the app yet. */
  asked(): boolean;
  release(): void;
  close(): Promise<void>;
}

const APP = /^\/assets\/start-[\w-]+\.js$/;

export async function holdApp(portalUrl: string): Promise<HeldApp> {
  const target = new URL(portalUrl);
  let asked = false;
  let release: () => void = () => undefined;
  const released = new Promise<void>((resolve) => (release = resolve));
  const server: Server = createServer(async (req, res) => {
    if (APP.test(new URL(req.url ?? '/', 'http://x').pathname)) {
      asked = true;
      await released;
    }
    const upstream = request(
      { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    asked: () => asked,
    release,
    close: () =>
      new Promise<void>((resolve) => {
        release();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
