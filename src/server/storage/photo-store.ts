import type { PhotoRow } from './records';

/**
 * The stored photos: a row each (who uploaded it and its size while no
 * request claims it, then the request), and the bytes, wherever the backend
 * keeps them (SQLite: files in DATA_DIR/photos; PostgreSQL: in the row, so
 * every instance can serve and attach every photo). Uploads in progress are
 * temp files in DATA_DIR/photos on either backend.
 */
export interface PhotoStore {
  /** A new temp file's path for an upload in progress, beside where photos are kept. */
  tempPath(): string;
  /** Removes a temp file; missing is fine. */
  removeTemp(path: string): Promise<void>;
  /** Stores a finished temp file under a new generated name, unclaimed, of `owner`; returns the name and size. */
  add(tempPath: string, extension: 'jpg' | 'png', owner: string, now?: number): Promise<{ name: string; bytes: number }>;
  /** A stored photo's bytes; undefined when it is not (or no longer) stored. */
  read(name: string): Promise<Buffer | undefined>;
  /** A stored photo's size in bytes as kept; undefined when its bytes are gone. */
  size(name: string): Promise<number | undefined>;
  /** Bytes of unclaimed photos: everyone's, one owner's, and per group those of owners whose text starts with it (the storage quotas). */
  unclaimedBytes(owner: string, groups?: readonly string[]): Promise<{ total: number; mine: number; groups: number[] }>;
  /**
   * Forgets unclaimed photos made before `before` until at least `bytes` are freed (room for a new client):
   * the provider block holding the most first, its oldest first; how many, and when the oldest unclaimed
   * photo left was made (from then on it may make room).
   */
  evictUnclaimed(bytes: number, before: number): Promise<{ evicted: number; oldestLeft: number | undefined }>;
  /**
   * Forgets photos no request claimed before `cutoff` (abandoned forms). The
   * row goes first: from then on a submit naming the photo gets 422, so the
   * bytes are never removed under a request that claimed it.
   */
  removeUnclaimedBefore(cutoff: number): Promise<number>;
  /** Forgets unclaimed photos made before `cutoff` by owners whose unclaimed photos reach `shareBytes`; returns how many. */
  removeOverShareBefore(cutoff: number, shareBytes: number): Promise<number>;
  /** Rows with their bytes, as another storage held them (the move to PostgreSQL, the bench's seeding); existing names are left. */
  import(rows: readonly (PhotoRow & { data: Buffer })[]): Promise<number>;
  /** Start-up cleanup: temp files a crash left, and kept bytes no row names, once older than `minAgeMs`. */
  tidy(minAgeMs: number): Promise<void>;
}
