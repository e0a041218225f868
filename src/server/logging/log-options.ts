import type { FastifyRequest, FastifyServerOptions } from 'fastify';
import { scrubText } from './scrub-text';

/** Where the log goes and how much of it; tests pass a stream to read it. */
export interface LogSettings {
  level: string;
  stream?: { write(line: string): void };
}

/**
 * Keys that carry an address or a whole request in the portal's own objects
 * (mails, deliveries, headers), never logged as values; the form fields
 * marked personal in the forms' schemas are added (logOptions).
 */
const PERSONAL_KEYS = [
  'email',
  'to',
  'recipient',
  'replyTo',
  'payload',
  'authorization',
  'cookie',
];

/** Error fields worth a log line; others (a database's `detail`, a mail server's `response`) may quote data. */
const ERROR_FIELDS = ['code', 'errno', 'syscall', 'statusCode', 'responseCode', 'command'] as const;

/** An error for the log: its kind, code and scrubbed text, its causes likewise; a string is scrubbed as it is. */
export function serializeError(value: unknown): unknown {
  if (typeof value === 'string') return scrubText(value);
  if (!(value instanceof Error)) return value;
  const fields = value as Error & Record<string, unknown>;
  const out: Record<string, unknown> = { type: value.constructor.name, message: scrubText(value.message) };
  if (value.stack) out.stack = scrubText(value.stack);
  for (const key of ERROR_FIELDS) {
    if (fields[key] !== undefined) out[key] = typeof fields[key] === 'string' ? scrubText(fields[key]) : fields[key];
  }
  if (value.cause !== undefined) out.cause = serializeError(value.cause);
  return out;
}

/**
 * A request as logged: the path without its query, which may hold a signed link's signature or a form's fields,
 * and without an e-mail address typed into it (as it is or %-encoded).
 */
function serializeRequest(req: FastifyRequest) {
  const [rawPath, query] = req.url.split('?', 2);
  const path = scrubText(rawPath.replace(/%40/gi, '@'));
  return {
    method: req.method,
    url: query === undefined ? path : `${path}?[redacted]`,
    host: req.host,
    remoteAddress: req.ip,
    remotePort: req.socket?.remotePort,
  };
}

/**
 * The server log's options (pino, through Fastify): personal data redacted
 * by key, wherever it turns up in a logged object (top level and one level
 * down): the portal's own keys and `personalFields`, the fields the forms
 * mark personal (core/form-model.ts); requests without their query, errors
 * and refusal reasons scrubbed of addresses and link secrets, and so is
 * every message text. The request itself is logged by reference.
 */
export function logOptions({ level, stream }: LogSettings, personalFields: readonly string[]): Exclude<FastifyServerOptions['logger'], boolean | undefined> {
  // A key that is no identifier (a field named "purchase-place") is written in brackets.
  const path = (key: string) => (/^[A-Za-z_$][\w$]*$/.test(key) ? [key, `*.${key}`] : [`[${JSON.stringify(key)}]`, `*[${JSON.stringify(key)}]`]);
  const keys = [...new Set([...PERSONAL_KEYS, ...personalFields])];
  return {
    level,
    ...(stream ? { stream } : {}),
    redact: { paths: keys.flatMap(path), censor: '[redacted]' },
    serializers: {
      req: serializeRequest as never,
      err: serializeError as never,
      reason: serializeError,
    },
    hooks: {
      logMethod(args, method) {
        method.apply(this, args.map((arg) => (typeof arg === 'string' ? scrubText(arg) : arg)) as Parameters<typeof method>);
      },
    },
  };
}
