import type { FormRevisionRow, OutboxRow, PhotoRow, StoredRequest } from './records';

/** Requests of one batch with what belongs to them, as another storage held them (photos with their bytes). */
export interface RequestBatch {
  requests: StoredRequest[];
  photos: (PhotoRow & { data: Buffer })[];
  mails: OutboxRow[];
}

/** Counts compared after a move, for a set of references. */
export interface MovedCounts {
  requests: number;
  claimedPhotos: number;
  deliveries: number;
  sent: number;
  failed: number;
  pending: number;
}

/**
 * Everything a storage holds, read and written as rows: moving a stopped
 * SQLite server's DATA_DIR into PostgreSQL (npm run requests --
 * migrate-to-postgres) reads one storage and writes the other through this.
 */
export interface Transfer {
  /** The newest migration applied (null: a database from before versions were kept); undefined: no database at all. */
  schemaVersion(): Promise<number | null | undefined>;
  requestCount(): Promise<number>;
  /** Every form revision the requests name. */
  formRevisions(): Promise<FormRevisionRow[]>;
  /** Inserts the revisions not held yet (they are moved before the requests that name them). */
  importFormRevisions(rows: readonly FormRevisionRow[]): Promise<void>;
  /** Every photo row, by name. */
  photoRows(): Promise<PhotoRow[]>;
  photosOfRequests(ids: readonly number[]): Promise<PhotoRow[]>;
  mailsOfRequests(ids: readonly number[]): Promise<OutboxRow[]>;
  /**
   * Inserts the batch's requests that are not held yet (matched by reference, so a move that stopped
   * half-way runs again), with their photos and deliveries, in one transaction; returns how many it inserted.
   * Rows get new ids; a delivery keeps the message id it was sent with.
   */
  importRequests(batch: RequestBatch): Promise<number>;
  /** References, or names of unclaimed photos, in order after `after`, at most `limit`: the move's pages. */
  keysAfter(of: 'references' | 'unclaimed-photos', after: string, limit: number): Promise<string[]>;
  countsFor(references: readonly string[]): Promise<MovedCounts>;
  /** Of these references (or photo names), those held. */
  held(of: 'references' | 'photos', keys: readonly string[]): Promise<string[]>;
  /** Bytes of these photos as kept. */
  photoBytes(names: readonly string[]): Promise<number>;
}
