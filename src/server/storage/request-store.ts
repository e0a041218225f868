import { createHash, randomUUID } from 'node:crypto';
import type { Locale, RepairRequest, Variant } from '../../core/types';
import type { OutgoingMail } from '../mail/compose-mails';
import type { Db } from './database';
import { GroupCommit } from './group-commit';

export interface Submission {
  brand: string;
  variant: Variant;
  locale: Locale;
  payload: RepairRequest;
  idempotencyKey?: string;
  /** Mails to queue with the request; built by the caller for the reference given to it. */
  mails: (reference: string) => OutgoingMail[];
}

export type SubmitOutcome =
  | { kind: 'stored'; reference: string; replay: boolean }
  /** image1/image2 not stored here, or already used by another request. */
  | { kind: 'photos-unavailable'; fields: ('image1' | 'image2')[] }
  /** The key was used before with a different request. */
  | { kind: 'key-conflict' };

type PhotoField = 'image1' | 'image2';
const PHOTO_FIELDS: PhotoField[] = ['image1', 'image2'];

/** Stores repair requests with their photos claimed and their mails queued, in one transaction. */
export class RequestStore {
  private readonly commits: GroupCommit<Submission, SubmitOutcome>;

  constructor(db: Db) {
    const byKey = db.prepare('SELECT reference, payload_hash FROM requests WHERE idempotency_key = ?');
    const photoRows = db.prepare('SELECT name, request_id FROM photos WHERE name IN (?, ?)');
    const insertRequest = db.prepare(
      `INSERT INTO requests (reference, brand, variant, locale, payload, idempotency_key, payload_hash, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    const claimPhotos = db.prepare('UPDATE photos SET request_id = ? WHERE name IN (?, ?) AND request_id IS NULL');
    const queueMail = db.prepare(
      'INSERT INTO outbox (request_id, kind, recipient, subject, body, next_attempt_at) VALUES (?, ?, ?, ?, ?, ?)',
    );

    const write = (s: Submission): SubmitOutcome => {
      const payload = JSON.stringify(s.payload);
      const hash = createHash('sha256').update(`${s.brand}\n${payload}`).digest('hex');
      if (s.idempotencyKey !== undefined) {
        const [earlier] = byKey.all(s.idempotencyKey) as { reference: string; payload_hash: string }[];
        if (earlier) {
          return earlier.payload_hash === hash
            ? { kind: 'stored', reference: earlier.reference, replay: true }
            : { kind: 'key-conflict' };
        }
      }
      const { image1, image2 } = s.payload;
      const rows = photoRows.all(image1, image2) as { name: string; request_id: number | null }[];
      const free = new Set(rows.filter((r) => r.request_id === null).map((r) => r.name));
      const unavailable = PHOTO_FIELDS.filter((f) => !free.has(s.payload[f]));
      if (image1 === image2) unavailable.push('image2');
      if (unavailable.length > 0) return { kind: 'photos-unavailable', fields: [...new Set(unavailable)] };

      const now = Date.now();
      const reference = randomUUID();
      const { lastInsertRowid: id } = insertRequest.run(
        reference, s.brand, s.variant, s.locale, payload, s.idempotencyKey ?? null, hash, now,
      );
      claimPhotos.run(id, image1, image2);
      for (const mail of s.mails(reference)) queueMail.run(id, mail.kind, mail.to, mail.subject, mail.text, now);
      return { kind: 'stored', reference, replay: false };
    };

    this.commits = new GroupCommit(db, write);
  }

  /** Resolves once the outcome is durably committed. */
  submit(submission: Submission): Promise<SubmitOutcome> {
    return this.commits.submit(submission);
  }

  /** Commits anything still queued (shutdown). */
  flush(): void {
    this.commits.flush();
  }
}
