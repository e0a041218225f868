import type { FastifyBaseLogger } from 'fastify';
import type { PhotoStore } from '../storage/photo-store';
import { isStoreUnavailable } from '../storage/store-unavailable';

/** Removes photos no request has used within `ttlMs` (abandoned forms), every `intervalMs`; returns a stop function. */
export function schedulePhotoSweep(
  photos: PhotoStore,
  { ttlMs, intervalMs }: { ttlMs: number; intervalMs: number },
  log: FastifyBaseLogger,
): () => void {
  const timer = setInterval(() => {
    photos
      .removeUnclaimedBefore(Date.now() - ttlMs)
      .then((removed) => removed > 0 && log.info({ removed }, 'removed unused photos'))
      .catch((error: unknown) =>
        isStoreUnavailable(error) ? log.warn('photo sweep postponed: the database is unreachable') : log.error({ err: error }, 'photo sweep failed'),
      );
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
