import type { PhotosTable, PortalDatabase } from '../schema';

/** PostgreSQL holds the photos' bytes in their rows (every instance serves and attaches them), and the shared rate-limit counters. */
export interface PostgresDatabase extends Omit<PortalDatabase, 'photos'> {
  photos: PhotosTable & { data: Buffer };
  rate_limits: { key: string; hits: number; reset_at: number };
}
