import type { FastifyRequest, FastifyServerOptions } from 'fastify';
import { scrubText } from './scrub-text';

/** Where the log goes and how much of it; tests pass a stream to read it. */
export interface LogSettings {
  level: string;
  stream?: { write(line: string): void };
}

/**
 * What identifies or reaches a person, or is free text they wrote: never
 * logged as a value, wherever it turns up in a logged object (pino's redact,
 * top level and one level down). The request itself is logged by reference.
 */
const PERSONAL_FIELDS = [
  'last_name',
  'street_name',
  'house_number',
  'house_number_suffix',
  'postal_code',
  'city',
  'client_email',
  'phone_number',
  'phone_number2',
  'serial_number',
  'description',
  'additional_info',
  'notification',
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

/** A request as logged: the path without its query, which may hold a signed link's signature or a form's fields. */
function serializeRequest(req: FastifyRequest) {
  const [path, query] = req.url.split('?', 2);
  return {
    method: req.method,
    url: query === undefined ? path : `${path}?[redacted]`,
    host: req.host,
    remoteAddress: req.ip,
    remotePort: req.socket?.remotePort,
  };
}

/**
 * The server log's options (pino, through Fastify): personal fields redacted
 * by name, requests without their query, errors and refusal reasons
 * scrubbed of addresses and link secrets, and so is every message text.
 */
export function logOptions({ level, stream }: LogSettings): Exclude<FastifyServerOptions['logger'], boolean | undefined> {
  return {
    level,
    ...(stream ? { stream } : {}),
    redact: { paths: PERSONAL_FIELDS.flatMap((field) => [field, `*.${field}`]), censor: '[redacted]' },
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
