import type { Unavailability } from '../store-unavailable';

/**
 * Whether a PostgreSQL error means the database cannot be reached or went
 * away, rather than that the request was wrong: the service is at fault, the
 * request may be tried again, and the answer is 503. The one place this is
 * decided. SQLSTATE classes: 08 connection exception, 53 insufficient
 * resources, 57P01–57P03 (terminated by the administrator, a crash, not yet
 * accepting connections), 28 and 3D (login or database refused: the service's
 * configuration), and 55000 when it names a shutdown. Without a SQLSTATE:
 * the socket's errors and node-postgres's own for a broken or timed-out
 * connection.
 */
export function connectionLost(error: unknown): boolean {
  return pgUnavailability(error) !== undefined;
}

/**
 * Why PostgreSQL cannot store now, or undefined when the request or our code
 * is at fault: `busy` for a lock not granted within lock_timeout (55P03) or a
 * deadlock (40P01), `full` for a full disk (53100), `unreachable` for the rest
 * of connectionLost's list.
 */
export function pgUnavailability(error: unknown): Unavailability | undefined {
  const { code } = error as { code?: unknown };
  if (code === '55P03' || code === '40P01') return 'busy';
  if (code === '53100') return 'full';
  return gone(error) ? 'unreachable' : undefined;
}

function gone(error: unknown): boolean {
  const { code, message } = error as { code?: unknown; message?: unknown };
  const text = typeof message === 'string' ? message : '';
  if (typeof code === 'string') {
    if (/^(08|53|28|3D)/.test(code) || /^57P0[123]$/.test(code)) return true;
    if (code === '55000') return /shut(ting)? ?down|terminat|going away/i.test(text);
    return /^E[A-Z]+$/.test(code); // ECONNREFUSED, ECONNRESET, ETIMEDOUT, EPIPE…
  }
  return /Connection terminated|not queryable|timeout exceeded when trying to connect|connection timeout/i.test(text);
}
