import { join } from 'node:path';
import { PHOTOS_DIR } from '../storage/data-dirs';
import type { Db } from '../storage/database';

/** One stored request with everything held for it, as shown to the person it is about. */
export interface HeldRequest {
  id: number;
  reference: string;
  brand: string;
  locale: string;
  createdAt: string;
  request: Record<string, unknown>;
  /** The photo files, to hand over with the answer. */
  photos: { name: string; path: string }[];
  mails: HeldMail[];
}

export interface HeldMail {
  id: number;
  kind: string;
  recipient: string;
  subject: string;
  body: string;
  sentAt: string | null;
  failedAt: string | null;
}

export interface SubjectData {
  /** Requests the address was given on as the customer's own e-mail. */
  requests: HeldRequest[];
  /** Mails addressed to it about other people's requests (a dealer's copy). */
  otherMails: HeldMail[];
}

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/**
 * Everything held about the person with this e-mail address (a GDPR
 * subject-access request). Addresses compare without regard to case, as
 * mail servers treat them in practice.
 */
export function findSubjectData(db: Db, dataDir: string, email: string): SubjectData {
  const address = email.trim().toLowerCase();
  const requests = db
    .prepare(
      `SELECT id, reference, brand, locale, payload, created_at FROM requests
       WHERE lower(json_extract(payload, '$.client_email')) = ? ORDER BY id`,
    )
    .all(address) as { id: number; reference: string; brand: string; locale: string; payload: string; created_at: number }[];
  const photosOf = db.prepare('SELECT name FROM photos WHERE request_id = ? ORDER BY name');
  const mailsOf = db.prepare('SELECT * FROM outbox WHERE request_id = ? ORDER BY id');
  const ids = new Set(requests.map((r) => r.id));
  const toAddress = (db.prepare('SELECT * FROM outbox WHERE lower(recipient) = ? ORDER BY id').all(address) as MailRow[]).filter(
    (m) => !ids.has(m.request_id),
  );
  return {
    requests: requests.map((r) => ({
      id: r.id,
      reference: r.reference,
      brand: r.brand,
      locale: r.locale,
      createdAt: new Date(r.created_at).toISOString(),
      request: JSON.parse(r.payload) as Record<string, unknown>,
      photos: (photosOf.all(r.id) as { name: string }[]).map(({ name }) => ({ name, path: join(dataDir, PHOTOS_DIR, name) })),
      mails: (mailsOf.all(r.id) as MailRow[]).map(heldMail),
    })),
    otherMails: toAddress.map(heldMail),
  };
}

interface MailRow {
  id: number;
  request_id: number;
  kind: string;
  recipient: string;
  subject: string;
  body: string;
  sent_at: number | null;
  failed_at: number | null;
}

function heldMail(m: MailRow): HeldMail {
  return { id: m.id, kind: m.kind, recipient: m.recipient, subject: m.subject, body: m.body, sentAt: iso(m.sent_at), failedAt: iso(m.failed_at) };
}
