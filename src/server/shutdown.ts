import type { FastifyInstance } from 'fastify';

/**
 * Stops accepting connections, lets in-flight requests finish, and after
 * `deadlineMs` cuts whatever is still open (idle keep-alive sockets would
 * otherwise hold the exit for keepAliveTimeout). Then the app's onClose
 * hooks commit what is queued and close the database.
 */
export async function closeGracefully(app: FastifyInstance, deadlineMs: number): Promise<void> {
  const deadline = setTimeout(() => app.server.closeAllConnections(), deadlineMs);
  deadline.unref();
  try {
    await app.close();
  } finally {
    clearTimeout(deadline);
  }
}

/** SIGTERM/SIGINT → graceful close, then exit; a second signal exits at once. */
export function exitOnSignals(app: FastifyInstance, deadlineMs: number): void {
  let closing = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (closing) process.exit(1);
    closing = true;
    app.log.info({ signal }, 'shutting down');
    closeGracefully(app, deadlineMs).then(
      () => process.exit(0),
      (error: unknown) => {
        app.log.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
}
