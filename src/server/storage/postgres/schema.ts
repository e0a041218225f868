import type { PhotosTable, PortalDatabase } from '../schema';

/** PostgreSQL holds the photos' bytes in their rows (every instance serves and attaches them), the shared rate-limit counters, and the mails kept without SMTP. */
export interface PostgresDatabase extends Omit<PortalDatabase, 'photos'> {
  photos: PhotosTable & { data: Buffer };
  rate_limits: { key: string; hits: number; reset_at: number };
  /** Mails kept instead of sent, without SMTP (MailCopies). */
  mail_copies: { outbox_id: number; message_id: string; written_at: number; eml: Buffer };
}
