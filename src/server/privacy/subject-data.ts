import type { FormRevisions } from '../revisions/form-revisions';
import type { Storage } from '../storage/port';
import type { OutboxRow, StoredRequest } from '../storage/records';
import { findSubject } from './subject';

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
  /** Other people's requests that give the address as their dealer's. */
  namedAsDealer: { reference: string; brand: string; createdAt: string }[];
  /** Mails addressed to it about other people's requests (a dealer's copy). */
  otherMails: HeldMail[];
}

/** How a held record's times are written: ISO 8601 in UTC unless the caller gives its clock (the staff's `show`). */
export type TimeText = (ms: number) => string;
const utc: TimeText = (ms) => new Date(ms).toISOString();

/**
 * Everything held about the person with this e-mail address (a GDPR
 * subject-access request), by the mailbox it reaches (subject.ts).
 */
export async function findSubjectData(
  storage: Pick<Storage, 'requestsAfter' | 'mailsByLimitKey' | 'photosOfRequests' | 'deliveriesOf'>,
  forms: Pick<FormRevisions, 'of'>,
  email: string,
  time: TimeText = utc,
): Promise<SubjectData> {
  const subject = await findSubject(storage, forms, email);
  const requests: HeldRequest[] = [];
  for (const r of subject.own) requests.push(await heldRequest(storage, r, time));
  return {
    requests,
    namedAsDealer: subject.namedIn.map((r) => ({ reference: r.reference, brand: r.brand, createdAt: time(r.created_at) })),
    otherMails: subject.mails.map((m) => heldMail(m, time)),
  };
}

/** A stored request with its photos and deliveries, as shown to the person (and to staff: `show <reference>`). */
export async function heldRequest(
  storage: Pick<Storage, 'photosOfRequests' | 'deliveriesOf'>,
  r: StoredRequest,
  time: TimeText = utc,
): Promise<HeldRequest> {
  return {
    id: r.id,
    reference: r.reference,
    brand: r.brand,
    locale: r.locale,
    createdAt: time(r.created_at),
    request: JSON.parse(r.payload) as Record<string, unknown>,
    photos: (await storage.photosOfRequests([r.id])).map((p) => p.name),
    mails: (await storage.deliveriesOf([r.id])).map((m) => heldMail(m, time)),
  };
}

function heldMail(m: OutboxRow, time: TimeText): HeldMail {
  const at = (ms: number | null) => (ms === null ? null : time(ms));
  return { id: m.id, kind: m.kind, recipient: m.recipient, subject: m.subject, body: m.body, sentAt: at(m.sent_at), failedAt: at(m.failed_at) };
}
