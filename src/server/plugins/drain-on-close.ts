import type { FastifyInstance } from 'fastify';

/**
 * Once closing has begun, answers still in flight say `Connection: close`,
 * so their keep-alive sockets end with the answer instead of holding the
 * shutdown until the deadline.
 */
export function installDrainOnClose(app: FastifyInstance): void {
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onSend', async (_req, reply, payload) => {
    if (closing) reply.header('connection', 'close');
    return payload;
  });
}
