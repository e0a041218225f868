import type { FastifyError, FastifyInstance } from 'fastify';
import { HttpError } from '../http-error';

/** Errors that mean "out of storage": the client may retry later, and must not see the internals. */
const STORAGE_FULL = new Set(['ENOSPC', 'EDQUOT', 'SQLITE_FULL']);

/**
 * Every error becomes `{"error": "<plain message>"}`: our HttpErrors and
 * Fastify's client errors (4xx) as they are, a full disk as 503, anything
 * else as a bare 500. Internals go to the log only.
 */
export function installErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, req, reply) => {
    if (error instanceof HttpError) {
      return reply.code(error.statusCode).send({ error: error.message, ...error.details });
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      return reply.code(status).send({ error: error.message });
    }
    req.log.error({ err: error }, 'request failed');
    if (STORAGE_FULL.has(error.code)) {
      return reply.code(503).header('retry-after', '60').send({ error: 'The service is temporarily unable to store requests. Please try again later.' });
    }
    return reply.code(500).send({ error: 'Something went wrong on our side. Please try again later.' });
  });
}
