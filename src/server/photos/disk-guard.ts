import { statfs } from 'node:fs/promises';
import { HttpError } from '../http-error';
import type { PhotoStore } from '../storage/photo-store';

export interface StorageLimits {
  /** Unclaimed photos one client may keep stored (bytes). */
  perClientBytes: number;
  /** Unclaimed photos all clients together may keep stored (bytes). */
  totalBytes: number;
  /** Free disk space that uploads never eat into (requests still need room to be stored). */
  minFreeDiskBytes: number;
}

/** A busy client retries after this; photos nobody claims expire, submits free the quota at once. */
const RETRY_AFTER_SECONDS = 600;

/**
 * Refuses an upload with 503 + Retry-After before it could fill the disk:
 * when the client's unclaimed photos, or everyone's, reach their quota, or
 * when the upload would leave less free disk space than the minimum.
 */
export class DiskGuard {
  constructor(
    private readonly photos: PhotoStore,
    private readonly dataDir: string,
    private readonly limits: StorageLimits,
  ) {}

  async checkRoom(client: string, incomingBytes: number): Promise<void> {
    const { mine, total } = await this.photos.unclaimedBytes(client);
    if (mine >= this.limits.perClientBytes) {
      throw busy('You have uploaded many photos without sending a request. Send your request, or try again later.');
    }
    if (total >= this.limits.totalBytes) throw busy('The service cannot take more photos right now. Please try again later.');
    const disk = await statfs(this.dataDir);
    if (disk.bavail * disk.bsize - incomingBytes < this.limits.minFreeDiskBytes) {
      throw busy('The service cannot take more photos right now. Please try again later.');
    }
  }
}

function busy(message: string): HttpError {
  return new HttpError(503, message, {}, { retryAfterSeconds: RETRY_AFTER_SECONDS });
}
