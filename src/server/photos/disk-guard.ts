import { statfs } from 'node:fs/promises';
import { HttpError } from '../http-error';
import type { PhotoStore } from '../storage/photo-store';

export interface StorageLimits {
  /** Unclaimed photos one client may keep stored (bytes). */
  perClientBytes: number;
  /** Unclaimed photos the clients of one network (IPv4 /24, IPv6 /56) may keep stored together (bytes). */
  perNetworkBytes: number;
  /** Unclaimed photos all clients together may keep stored (bytes); past it those of the network holding the most make room. */
  totalBytes: number;
  /** Free disk space that uploads never eat into (requests still need room to be stored). */
  minFreeDiskBytes: number;
}

/** What the guard tells the rest (metrics). */
export interface DiskGuardEvents {
  /** Unclaimed photos were removed (the fullest network's, oldest first) to make room for an upload. */
  evicted(photos: number): void;
}

/** A busy client retries after this; photos nobody claims expire, submits free the quota at once. */
const RETRY_AFTER_SECONDS = 600;

/** The share of the total quota past which /readyz warns that unclaimed photos press on it. */
const PRESSURE = 0.8;
/** How long after photos were removed to make room /readyz still warns (the total then hovers just under the quota). */
const PRESSURE_AFTER_EVICTION_MS = 10 * 60_000;

/**
 * Refuses an upload with 503 + Retry-After before it could fill the disk:
 * when the client's unclaimed photos, or its network's, reach their share,
 * or when the upload would leave less free disk space than the minimum.
 * All clients' unclaimed photos together never lock out a client within its
 * shares: past the total quota, unclaimed photos are removed to make room, those
 * of the network holding the most first (its oldest first), so a flood makes room
 * from itself, not from a customer's open form (a claimed photo is never among them).
 */
export class DiskGuard {
  private lastEvictionAt = -Infinity;

  constructor(
    private readonly photos: PhotoStore,
    private readonly dataDir: string,
    private readonly limits: StorageLimits,
    private readonly events: DiskGuardEvents = { evicted: () => {} },
  ) {}

  /** `owner` as client-key.ts photoOwner makes it: `<network> <client>`. */
  async checkRoom(owner: string, incomingBytes: number): Promise<void> {
    const network = owner.slice(0, owner.indexOf(' ') + 1);
    const { mine, group, total } = await this.photos.unclaimedBytes(owner, network);
    if (mine >= this.limits.perClientBytes || (network && group >= this.limits.perNetworkBytes)) {
      throw busy('You have uploaded many photos without sending a request. Send your request, or try again later.');
    }
    const over = total + incomingBytes - this.limits.totalBytes;
    if (over > 0) {
      const evicted = await this.photos.evictUnclaimed(over);
      if (evicted === 0) throw busy('The service cannot take more photos right now. Please try again later.');
      this.lastEvictionAt = Date.now();
      this.events.evicted(evicted);
    }
    const disk = await statfs(this.dataDir);
    if (disk.bavail * disk.bsize - incomingBytes < this.limits.minFreeDiskBytes) {
      throw busy('The service cannot take more photos right now. Please try again later.');
    }
  }

  /** The share of the total quota unclaimed photos fill. */
  async quotaUsed(): Promise<number> {
    const { total } = await this.photos.unclaimedBytes('');
    return total / this.limits.totalBytes;
  }

  /** Whether unclaimed photos fill most of the total quota, or made room lately (a warning: uploads still find room). */
  async underPressure(): Promise<boolean> {
    return Date.now() - this.lastEvictionAt < PRESSURE_AFTER_EVICTION_MS || (await this.quotaUsed()) >= PRESSURE;
  }
}

function busy(message: string): HttpError {
  return new HttpError(503, message, {}, { retryAfterSeconds: RETRY_AFTER_SECONDS });
}
