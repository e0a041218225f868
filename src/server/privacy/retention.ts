import type { FastifyBaseLogger } from 'fastify';
import { isStoreUnavailable } from '../storage/store-unavailable';
import { eraseRequests, type Erased, type Holdings } from './personal-data';

/** Requests removed per transaction: a first run on a large database must not hold the write lock for long. */
const BATCH = 500;

/**
 * Removes every request past its retention period with its photos, mails and files: delivered (no mail
 * of theirs still waiting to be sent) and older than the cutoff, counted from the request or its last
 * delivery attempt, whichever came later.
 */
export async function enforceRetention(held: Holdings, retentionMs: number, now = Date.now()): Promise<Erased> {
  const total: Erased = { requests: 0, photos: 0, mails: 0, files: 0 };
  for (;;) {
    const ids = await held.expiredRequests(now - retentionMs, BATCH);
    const erased = await eraseRequests(held, ids);
    for (const key of Object.keys(total) as (keyof Erased)[]) total[key] += erased[key];
    if (ids.length < BATCH) return total;
  }
}

/**
 * Runs the retention at start and every `intervalMs`; returns a stop
 * function that waits for a round under way (the database closes next).
 * Logs counts only, never personal data.
 */
export function scheduleRetention(
  held: Holdings,
  { retentionMs, intervalMs }: { retentionMs: number; intervalMs: number },
  log: FastifyBaseLogger,
): () => Promise<void> {
  let running: Promise<void> | undefined;
  const run = () => {
    running ??= enforceRetention(held, retentionMs)
      .then((erased) => erased.requests > 0 && log.info({ erased }, 'retention: removed requests past their retention period'))
      .catch((error: unknown) =>
        isStoreUnavailable(error) ? log.warn('retention postponed: the database is unreachable') : log.error({ err: error }, 'retention failed'),
      )
      .then(() => void (running = undefined));
  };
  const first = setTimeout(run, 0);
  const timer = setInterval(run, intervalMs);
  first.unref();
  timer.unref();
  return async () => {
    clearTimeout(first);
    clearInterval(timer);
    await running;
  };
}
