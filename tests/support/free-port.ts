import { createServer } from 'node:net';

/**
 * Below Linux's ephemeral range (32768–60999): ports the kernel hands out for port 0 and outgoing
 * connections never land here. A port the kernel handed out and took back goes to the next asker
 * soon after, so two test files starting servers side by side were given the same port: the one
 * whose server took longer to start (a build first) then talked to the other's.
 */
const [LOW, HIGH] = [20_000, 32_767];

const listensOn = (port: number): Promise<boolean> =>
  new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', (error: NodeJS.ErrnoException) => (error.code === 'EADDRINUSE' || error.code === 'EACCES' ? resolve(false) : reject(error)));
    srv.listen(port, '127.0.0.1', () => srv.close(() => resolve(true)));
  });

/** A port free on 127.0.0.1 right now, chosen at random, for a server started as a separate process. */
export async function freePort(): Promise<number> {
  for (;;) {
    const port = LOW + Math.floor(Math.random() * (HIGH - LOW + 1));
    if (await listensOn(port)) return port;
  }
}
