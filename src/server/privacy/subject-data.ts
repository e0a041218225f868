import type { OutboxRow } from '../outbox/outbox-rows';
import { jsonText, type Sql } from '../storage/sql';

/** One stored request with everything held for it, as shown to the person it is about. */
export interface HeldRequest {
  id: number;
  reference: string;
  brand: string;
  locale: string;
  createdAt: string;
  request: Record<string, unknown>;
  /** The stored photos' names (`npm run requests -- show` can write them out to hand over). */
  photos: string[];
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
export async function findSubjectData(sql: Sql, email: string): Promise<SubjectData> {
  const address = email.trim().toLowerCase();
  const requests = await sql.all<{ id: number; reference: string; brand: string; locale: string; payload: string; created_at: number }>(
    `SELECT id, reference, brand, locale, payload, created_at FROM requests
     WHERE lower(${jsonText(sql, 'payload', 'client_email')}) = ? ORDER BY id`,
    [address],
  );
  const ids = new Set(requests.map((r) => r.id));
  const toAddress = (await sql.all<OutboxRow>('SELECT * FROM outbox WHERE lower(recipient) = ? ORDER BY id', [address])).filter(
    (m) => !ids.has(m.request_id),
  );
  const held: HeldRequest[] = [];
  for (const r of requests) {
    const photos = await sql.all<{ name: string }>('SELECT name FROM photos WHERE request_id = ? ORDER BY name', [r.id]);
    const mails = await sql.all<OutboxRow>('SELECT * FROM outbox WHERE request_id = ? ORDER BY id', [r.id]);
    held.push({
      id: r.id,
      reference: r.reference,
      brand: r.brand,
      locale: r.locale,
      createdAt: new Date(r.created_at).toISOString(),
      request: JSON.parse(r.payload) as Record<string, unknown>,
      photos: photos.map((p) => p.name),
      mails: mails.map(heldMail),
    });
  }
  return { requests: held, otherMails: toAddress.map(heldMail) };
}

function heldMail(m: OutboxRow): HeldMail {
  return { id: m.id, kind: m.kind, recipient: m.recipient, subject: m.subject, body: m.body, sentAt: iso(m.sent_at), failedAt: iso(m.failed_at) };
}
