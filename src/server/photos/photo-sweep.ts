import type { FastifyBaseLogger } from 'fastify';
import type { PhotoStore } from '../storage/photo-store';
import { isStoreUnavailable } from '../storage/store-unavailable';

export interface SweepTimes {
  /** Photos no request used within this are removed (abandoned forms). */
  ttlMs: number;
  /** A client whose unclaimed photos reach `shareBytes` keeps them only this long. */
  overShareTtlMs: number;
  shareBytes: number;
  intervalMs: number;
}

/** Removes photos no request has used in time, every `intervalMs`; returns a stop function. */
export function schedulePhotoSweep(photos: PhotoStore, { ttlMs, overShareTtlMs, shareBytes, intervalMs }: SweepTimes, log: FastifyBaseLogger): () => void {
  const timer = setInterval(() => {
    const now = Date.now();
    Promise.all([photos.removeUnclaimedBefore(now - ttlMs), photos.removeOverShareBefore(now - overShareTtlMs, shareBytes)])
      .then(([expired, overShare]) => expired + overShare > 0 && log.info({ removed: expired + overShare, overShare }, 'removed unused photos'))
      .catch((error: unknown) =>
        isStoreUnavailable(error) ? log.warn('photo sweep postponed: the database is unreachable') : log.error({ err: error }, 'photo sweep failed'),
      );
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
