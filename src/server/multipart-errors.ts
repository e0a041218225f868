import { HttpError } from './http-error';
import { STORE_UNAVAILABLE } from './storage/store-unavailable';

/**
 * What went wrong while reading a multipart body: our own refusals as they
 * are, a server-side fault (a file-system call failed, the database gone) as it is, the
 * multipart plugin's own client errors (a limit, a premature close) as they
 * are, and anything the parser threw (no boundary, a part cut off, a
 * malformed header) as the client's malformed request, in `malformed` words.
 */
export function asClientError(error: unknown, malformed: string): unknown {
  const { syscall, statusCode, code } = error as { syscall?: string; statusCode?: number; code?: string };
  if (error instanceof HttpError || syscall !== undefined || code === STORE_UNAVAILABLE) return error;
  if (statusCode !== undefined && statusCode >= 400 && statusCode < 500) return error;
  return new HttpError(400, malformed);
}
