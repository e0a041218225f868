import type { FastifyBaseLogger } from 'fastify';
import type { PhotoRegistry } from '../storage/photo-registry';
import type { PhotoFolder } from './photo-folder';

/**
 * Removes photos no request has used within `ttlMs` (abandoned forms).
 * The database row goes first: from then on a submit naming the photo gets
 * 422, so a file is never removed under a request that claimed it.
 */
export async function sweepUnusedPhotos(registry: PhotoRegistry, folder: PhotoFolder, ttlMs: number, now = Date.now()): Promise<number> {
  const names = registry.forgetUnusedBefore(now - ttlMs);
  await Promise.all(names.map((name) => folder.remove(folder.pathOf(name))));
  return names.length;
}

/** Runs the sweep every `intervalMs`; returns a stop function. */
export function schedulePhotoSweep(
  registry: PhotoRegistry,
  folder: PhotoFolder,
  { ttlMs, intervalMs }: { ttlMs: number; intervalMs: number },
  log: FastifyBaseLogger,
): () => void {
  const timer = setInterval(() => {
    sweepUnusedPhotos(registry, folder, ttlMs)
      .then((removed) => removed > 0 && log.info({ removed }, 'removed unused photos'))
      .catch((error: unknown) => log.error({ err: error }, 'photo sweep failed'));
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
