import { statfs } from 'node:fs/promises';
import { ownerGroups } from '../client-key';
import { HttpError } from '../http-error';
import type { PhotoStore } from '../storage/photo-store';

export interface StorageLimits {
  /** Unclaimed photos one client may keep stored (bytes). */
  perClientBytes: number;
  /** Unclaimed photos the clients of one network (IPv4 /24, IPv6 /48) may keep stored together (bytes). */
  perNetworkBytes: number;
  /** Unclaimed photos the clients of one provider block (IPv4 /16, IPv6 /32) may keep stored together (bytes). */
  perProviderBytes: number;
  /** Unclaimed photos all clients together may keep stored (bytes). */
  totalBytes: number;
  /** How long a photo is never removed to make room for someone else's: the form it was chosen in may be open. */
  keptForFormMs: number;
  /** Free disk space that uploads never eat into (requests still need room to be stored). */
  minFreeDiskBytes: number;
}

/** What the guard tells the rest (metrics, the log). */
export interface DiskGuardEvents {
  /** Unclaimed photos older than keptForFormMs were removed (the fullest provider block's, oldest first) to make room. */
  evicted(photos: number): void;
}

/** A client at its share retries after this; photos nobody claims expire, submits free the quota at once. */
const RETRY_AFTER_SECONDS = 600;
/** The soonest a client is told to try again when there is no room at all. */
const SOONEST_SECONDS = 60;

/** The share of the total quota past which /readyz warns that unclaimed photos press on it. */
const PRESSURE = 0.8;
/** How long after photos were removed to make room /readyz still warns (the total then hovers just under the quota). */
const PRESSURE_AFTER_EVICTION_MS = 10 * 60_000;

/**
 * An upload refused for now, by the reason it is said in (upload.<reason> in the language files):
 * `overShare`, the client or its network holds its share; `noRoom`, there is no room for anyone.
 */
export class RoomRefusal extends HttpError {
  constructor(
    readonly reason: 'overShare' | 'noRoom',
    retryAfterSeconds: number,
  ) {
    // `refusal` tells the page the error is said for people, in its language (the upload's X-Portal-Locale).
    super(503, reason === 'overShare' ? 'unclaimed photos of this client or its network at their share' : 'no room for unclaimed photos', { refusal: reason }, { retryAfterSeconds });
  }
}

/**
 * Refuses an upload with 503 + Retry-After before it could fill the disk:
 * when the client's unclaimed photos, its network's or its provider block's
 * reach their share, or when the upload would leave less free disk space
 * than the minimum. Past the total quota, unclaimed photos older than
 * keptForFormMs make room (the provider block holding the most first, its
 * oldest first); a younger photo is never removed for someone else's upload,
 * so when only those are left, the upload is refused until the oldest of them
 * may make room, and nothing is removed.
 */
export class DiskGuard {
  private lastEvictionAt = -Infinity;

  constructor(
    private readonly photos: PhotoStore,
    private readonly dataDir: string,
    private readonly limits: StorageLimits,
    private readonly events: DiskGuardEvents = { evicted: () => {} },
  ) {}

  /** `owner` as client-key.ts photoOwner makes it: `<provider> <network> <client>`. */
  async checkRoom(owner: string, incomingBytes: number, now = Date.now()): Promise<void> {
    const { network, provider } = ownerGroups(owner);
    const { mine, groups, total } = await this.photos.unclaimedBytes(owner, [network, provider]);
    const { perClientBytes, perNetworkBytes, perProviderBytes, totalBytes } = this.limits;
    if (mine >= perClientBytes || groups[0] >= perNetworkBytes || groups[1] >= perProviderBytes) throw new RoomRefusal('overShare', RETRY_AFTER_SECONDS);
    const over = total + incomingBytes - totalBytes;
    if (over > 0) await this.makeRoom(over, now);
    const disk = await statfs(this.dataDir);
    if (disk.bavail * disk.bsize - incomingBytes < this.limits.minFreeDiskBytes) throw new RoomRefusal('noRoom', RETRY_AFTER_SECONDS);
  }

  /** Removes `bytes` of photos old enough to go, or refuses (removing none) when those are too few. */
  private async makeRoom(bytes: number, now: number): Promise<void> {
    const { keptForFormMs } = this.limits;
    const { evicted, oldestLeft } = await this.photos.evictUnclaimed(bytes, now - keptForFormMs);
    if (evicted > 0) {
      this.lastEvictionAt = now;
      this.events.evicted(evicted);
      return;
    }
    // Not before the oldest photo left may make room.
    const wait = oldestLeft === undefined ? 0 : (oldestLeft + keptForFormMs - now) / 1000;
    throw new RoomRefusal('noRoom', Math.ceil(Math.min(Math.max(wait, SOONEST_SECONDS), keptForFormMs / 1000)));
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
