import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { HttpError } from '../http-error';
import { STORE_UNAVAILABLE } from '../storage/store-unavailable';

/** Errors that mean "cannot store now" (disk full, writer down): the client may retry later, and must not see the internals. */
const STORAGE_FULL = new Set(['ENOSPC', 'EDQUOT', 'SQLITE_FULL', STORE_UNAVAILABLE]);

/**
 * Plain words for the framework's own client errors. Its messages may quote
 * the path, a header or the body, so they go to the log, never to the client.
 */
const CLIENT_MESSAGES: Record<number, string> = {
  400: 'The request is malformed.',
  404: 'Not found.',
  408: 'The request took too long.',
  413: 'The request body is too large.',
  414: 'The address is too long.',
  415: 'Unsupported content type.',
  429: 'Too many requests. Please try again later.',
  431: 'The request headers are too large.',
};

function clientMessage(status: number): string {
  return CLIENT_MESSAGES[status] ?? `${STATUS_CODES[status] ?? 'Bad request'}.`;
}

/** What a client is told of an error: a status, a plain message (plus details of a refused form), and when to retry. */
export interface ErrorAnswer {
  status: number;
  message: string;
  details: Record<string, unknown>;
  retryAfterSeconds?: number;
}

/**
 * Every error becomes `{"error": "<plain message>"}` (plus `fields` for a
 * refused form): our HttpErrors as they are, Fastify's client errors (4xx)
 * in plain words, a full disk as 503, anything else as a bare 500.
 * Client errors are logged at info level, internals at error level, and
 * neither reaches the client.
 */
export function installErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, req, reply) => sendError(error, req, reply));
}

/** Also Fastify's `frameworkErrors` (a bad URL, an overlong parameter), which bypass the error handler. */
export function sendError(error: FastifyError, req: FastifyRequest, reply: FastifyReply) {
  const answer = errorAnswer(error, req);
  if (answer.retryAfterSeconds !== undefined) reply.header('retry-after', String(answer.retryAfterSeconds));
  return reply.code(answer.status).send({ error: answer.message, ...answer.details });
}

/** How often a flood of refusals of one reason is summed up in the log. */
const REFUSAL_SUMMARY_MS = 60_000;

/**
 * Refusals "for now" come in floods (a full quota refuses every upload of a
 * client): the first of each reason is logged at warn, the rest are counted and
 * summed up once a minute while they go on, so the log stays readable.
 */
class RefusalTally {
  private readonly counts = new Map<string, number>();
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly log: FastifyInstance['log']) {}

  note(statusCode: number, reason: string): void {
    const more = this.counts.get(reason);
    if (more === undefined) this.log.warn({ statusCode, reason }, 'request refused for now');
    this.counts.set(reason, (more ?? -1) + 1);
    this.timer ??= setTimeout(() => this.sumUp(), REFUSAL_SUMMARY_MS).unref();
  }

  private sumUp(): void {
    this.timer = undefined;
    let flooding = false;
    for (const [reason, more] of this.counts) {
      if (more === 0) this.counts.delete(reason);
      else {
        this.log.warn({ reason, count: more }, `${more} more requests refused for now in the last minute`);
        this.counts.set(reason, 0);
        flooding = true;
      }
    }
    if (flooding) this.timer = setTimeout(() => this.sumUp(), REFUSAL_SUMMARY_MS).unref();
  }
}

const tallies = new WeakMap<FastifyInstance, RefusalTally>();

function refusedForNow(req: FastifyRequest, statusCode: number, reason: string): void {
  let tally = tallies.get(req.server);
  if (!tally) tallies.set(req.server, (tally = new RefusalTally(req.server.log)));
  tally.note(statusCode, reason);
}

/** The answer to an error, logged once: for the JSON body above, or a page (routes/no-script-form.ts). */
export function errorAnswer(error: FastifyError, req: FastifyRequest): ErrorAnswer {
  if (error instanceof HttpError) {
    if (error.statusCode < 500) req.log.info({ statusCode: error.statusCode, reason: error.message }, 'request refused');
    else refusedForNow(req, error.statusCode, error.message);
    return { status: error.statusCode, message: error.said ?? error.message, details: error.details, retryAfterSeconds: error.headers.retryAfterSeconds };
  }
  const status = error.statusCode ?? 500;
  if (status >= 400 && status < 500) {
    req.log.info({ statusCode: status, code: error.code, reason: error.message }, 'request refused');
    return { status, message: clientMessage(status), details: {} };
  }
  if (STORAGE_FULL.has(error.code)) {
    // A state of the service, told once when it changes (DatabaseState, the disk guard): no line per request.
    req.log.debug({ statusCode: 503, code: error.code }, 'request refused for now: storage unavailable');
    const retryAfterSeconds = error.code === STORE_UNAVAILABLE ? 10 : 60;
    return { status: 503, message: 'The service is temporarily unable to store requests. Please try again later.', details: {}, retryAfterSeconds };
  }
  req.log.error({ err: error }, 'request failed');
  return { status: 500, message: 'Something went wrong on our side. Please try again later.', details: {} };
}

/**
 * Fastify's `clientErrorHandler`: a request Node could not even parse (a
 * broken request line, headers too large, too slow) gets the same body
 * shape, written to the socket before it closes.
 */
export function answerUnparsableRequest(error: Error & { code?: string }, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const status = error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : error.code === 'HPE_HEADER_OVERFLOW' ? 431 : 400;
  const body = JSON.stringify({ error: clientMessage(status) });
  if (!socket.writable) return void socket.destroy(error);
  // end, not destroy: bytes the client is still sending would otherwise make the kernel reset
  // the connection, and the client could lose the answer. The timer bounds a client that never closes.
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nContent-Type: application/json; charset=utf-8\r\nConnection: close\r\n\r\n${body}`,
  );
  setTimeout(() => socket.destroy(), 1000).unref();
}
