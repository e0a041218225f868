import type { HeldRows, Storage } from '../storage/port';
import type { OutboxRow } from '../storage/records';

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
export async function findSubjectData(storage: Pick<Storage, 'subjectData'>, email: string): Promise<SubjectData> {
  const held = await storage.subjectData(email);
  return { requests: held.requests.map(heldRequest), otherMails: held.otherMails.map(heldMail) };
}

/** A stored request with its photos and mails, as shown to a person (and to staff: `show <reference>`). */
export function heldRequest({ request: r, photos, mails }: HeldRows): HeldRequest {
  return {
    id: r.id,
    reference: r.reference,
    brand: r.brand,
    locale: r.locale,
    createdAt: new Date(r.created_at).toISOString(),
    request: JSON.parse(r.payload) as Record<string, unknown>,
    photos,
    mails: mails.map(heldMail),
  };
}

function heldMail(m: OutboxRow): HeldMail {
  return { id: m.id, kind: m.kind, recipient: m.recipient, subject: m.subject, body: m.body, sentAt: iso(m.sent_at), failedAt: iso(m.failed_at) };
}
