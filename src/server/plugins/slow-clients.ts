import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { clientKey } from '../client-key';

export interface SlowClientLimits {
  /** A request body must arrive at least this fast, measured over each window. */
  minBodyBytesPerSecond: number;
  windowMs: number;
  /** Open connections one address may hold; 0 = no cap (behind a proxy every client shares its address). */
  maxConnectionsPerClient: number;
}

/**
 * Slow clients must not hold the server's sockets: a body that trickles in
 * below the minimum rate is cut off (a phone on a weak uplink, 1 Mbit/s =
 * 125 kB/s, is far above it), and one address may not hold more than its
 * share of connections, so others (and the health check) still get in.
 */
export function installSlowClientGuard(app: FastifyInstance, limits: SlowClientLimits): void {
  if (limits.maxConnectionsPerClient > 0) capConnections(app, limits.maxConnectionsPerClient);

  const perWindow = (limits.minBodyBytesPerSecond * limits.windowMs) / 1000;
  app.addHook('onRequest', async (req) => {
    const raw = req.raw;
    const hasBody = Number(raw.headers['content-length'] ?? 0) > 0 || raw.headers['transfer-encoding'] !== undefined;
    if (!hasBody || raw.complete) return;
    const socket = raw.socket;
    let seen = socket.bytesRead;
    const timer = setInterval(() => {
      if (raw.complete || socket.destroyed) return clearInterval(timer);
      if (socket.bytesRead - seen < perWindow) {
        clearInterval(timer);
        req.log.info({ bytesRead: socket.bytesRead }, 'request body too slow: connection closed');
        socket.destroy();
        return;
      }
      seen = socket.bytesRead;
    }, limits.windowMs);
    timer.unref();
    raw.once('close', () => clearInterval(timer));
  });
}

function capConnections(app: FastifyInstance, max: number): void {
  const open = new Map<string, number>();
  app.server.on('connection', (socket: Socket) => {
    const address = clientKey(socket.remoteAddress ?? '');
    const count = (open.get(address) ?? 0) + 1;
    if (count > max) {
      app.log.info({ max }, 'too many connections from one address: refused');
      socket.destroy();
      return;
    }
    open.set(address, count);
    socket.once('close', () => {
      const left = (open.get(address) ?? 1) - 1;
      if (left === 0) open.delete(address);
      else open.set(address, left);
    });
  });
}
