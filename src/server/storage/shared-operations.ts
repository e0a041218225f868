import type { MailCopies } from './mail-copies';
import type { ErasedRows, Storage } from './port';
import { messageIdOf } from './records';
import { isStoreUnavailable, unavailability } from './store-unavailable';
import { deliveriesSince, outboxFigures, requeue, requeueFailed, undelivered } from './queries/outbox';
import { adoptFormRevision, allFormRevisions, formRevisionList, formRevisions, registerFormRevisions, unrevisedRequests } from './queries/form-revisions';
import { deliveriesOf, deliveryHolds, eraseMailRows, eraseRequestRows, expiredRequests, mailsByLimitKey, photosOfRequests, rewriteMail, rewriteRequest, type RowsBeside } from './queries/privacy';
import { requestByKey, requestByReference, requestsAfter, type Db } from './queries/requests';

/**
 * Tries of what erase deletes, while the store is busy: a delivery's result recorded at the same time locks
 * the person's mails in another order, and PostgreSQL ends that deadlock by failing one side, often the erase.
 * A failed try keeps nothing, so trying again is safe; a lock held for longer still fails after the last.
 */
const ERASE_TRIES = 3;

async function whenNotBusy<T>(work: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (error) {
      if (attempt === ERASE_TRIES || !isStoreUnavailable(error) || unavailability(error) !== 'busy') throw error;
    }
  }
}

/** What differs between backends, for the operations they share. */
export interface BackendParts {
  db: Db;
  /** Removes the bytes of photos whose rows are gone (SQLite: their files; PostgreSQL: gone with the rows). */
  removePhotoBytes(names: readonly string[]): Promise<void>;
  mailCopies: MailCopies;
  /**
   * Mail copies kept in rows (PostgreSQL): removed in the transaction that removes or rewrites their mails,
   * of requests and of outbox rows by id. Absent: copies are files, removed once their rows are gone.
   */
  copyRows?: { ofRequests: RowsBeside; ofMails: RowsBeside };
}

type SharedOperations = Pick<
  Storage,
  | 'registerFormRevisions' | 'formRevisions' | 'formRevisionList' | 'allFormRevisions' | 'unrevisedRequests' | 'adoptFormRevision' | 'ping' | 'requestByKey' | 'requestByReference' | 'requestsAfter' | 'undelivered' | 'requeue' | 'requeueFailed' | 'outboxFigures' | 'deliveriesSince'
  | 'expiredRequests' | 'eraseRequests' | 'eraseMails' | 'photosOfRequests' | 'deliveriesOf' | 'mailsByLimitKey' | 'rewriteRequest' | 'rewriteMail' | 'deliveryHolds'
>;

/** The operations both backends run as the same queries (queries/, written once with Kysely). */
export function sharedOperations({ db, removePhotoBytes, mailCopies, copyRows }: BackendParts): SharedOperations {
  // Files go after their rows: a mail being written meanwhile is removed by its writer, which finds its row gone.
  const copiesAfter = async (messageIds: readonly string[]) => (copyRows ? 0 : mailCopies.remove(messageIds));
  return {
    registerFormRevisions: (revisions, now) => registerFormRevisions(db, revisions, now),
    formRevisions: (ids) => formRevisions(db, ids),
    formRevisionList: () => formRevisionList(db),
    allFormRevisions: () => allFormRevisions(db),
    unrevisedRequests: (afterId, limit) => unrevisedRequests(db, afterId, limit),
    adoptFormRevision: (revision, ids) => adoptFormRevision(db, revision, ids),
    ping: async () => void (await db.selectFrom('schema_migrations').select('version').limit(1).execute()),
    requestByKey: (key, brand) => requestByKey(db, key, brand),
    requestByReference: (reference) => requestByReference(db, reference),
    requestsAfter: (afterId, limit) => requestsAfter(db, afterId, limit),
    undelivered: () => undelivered(db),
    requeue: (reference, kinds, now) => requeue(db, reference, kinds, now),
    requeueFailed: (since, now) => requeueFailed(db, since, now),
    outboxFigures: () => outboxFigures(db),
    deliveriesSince: (since) => deliveriesSince(db, since),
    expiredRequests: (cutoff, limit) => expiredRequests(db, cutoff, limit),
    async eraseRequests(ids): Promise<ErasedRows> {
      const rows = await whenNotBusy(() => eraseRequestRows(db, ids, copyRows?.ofRequests));
      // Rows first, in one transaction; the bytes follow (a crash in between leaves strays the start-up tidy removes).
      await removePhotoBytes(rows.photos);
      return { requests: rows.requests, photos: rows.photos.length, mails: rows.mails, mailCopies: rows.beside + (await copiesAfter(rows.mails)) };
    },
    async eraseMails(mails) {
      const rows = await whenNotBusy(() => eraseMailRows(db, mails.map((m) => m.id), copyRows?.ofMails));
      return { mails: rows.mails, mailCopies: rows.beside + (await copiesAfter(mails.map(messageIdOf))) };
    },
    photosOfRequests: (ids) => photosOfRequests(db, ids),
    deliveriesOf: (ids) => deliveriesOf(db, ids),
    mailsByLimitKey: (key) => mailsByLimitKey(db, key),
    rewriteRequest: (id, payload) => rewriteRequest(db, id, payload),
    async rewriteMail(mail, subject, body) {
      const removed = await rewriteMail(db, mail.id, subject, body, copyRows?.ofMails);
      return removed + (await copiesAfter([messageIdOf(mail)]));
    },
    deliveryHolds: (id, subject, body) => deliveryHolds(db, id, subject, body),
  };
}
