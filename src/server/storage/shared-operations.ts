import type { ErasedRows, Storage } from './port';
import { isStoreUnavailable, unavailability } from './store-unavailable';
import { deliveriesSince, outboxFigures, requeue, requeueFailed, undelivered } from './queries/outbox';
import { adoptFormRevision, allFormRevisions, formRevisions, registerFormRevisions, unrevisedRequests } from './queries/form-revisions';
import { deliveriesOf, deliveryHolds, eraseMailRows, eraseRequestRows, expiredRequests, mailsByLimitKey, photosOfRequests, rewriteMail, rewriteRequest } from './queries/privacy';
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
}

type SharedOperations = Pick<
  Storage,
  | 'registerFormRevisions' | 'formRevisions' | 'allFormRevisions' | 'unrevisedRequests' | 'adoptFormRevision' | 'ping' | 'requestByKey' | 'requestByReference' | 'requestsAfter' | 'undelivered' | 'requeue' | 'requeueFailed' | 'outboxFigures' | 'deliveriesSince'
  | 'expiredRequests' | 'eraseRequests' | 'eraseMails' | 'photosOfRequests' | 'deliveriesOf' | 'mailsByLimitKey' | 'rewriteRequest' | 'rewriteMail' | 'deliveryHolds'
>;

/** The operations both backends run as the same queries (queries/, written once with Kysely). */
export function sharedOperations({ db, removePhotoBytes }: BackendParts): SharedOperations {
  return {
    registerFormRevisions: (revisions, now) => registerFormRevisions(db, revisions, now),
    formRevisions: (ids) => formRevisions(db, ids),
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
      const rows = await whenNotBusy(() => eraseRequestRows(db, ids));
      // Rows first, in one transaction; the bytes follow (a crash in between leaves strays the start-up tidy removes).
      await removePhotoBytes(rows.photos);
      return { requests: rows.requests, photos: rows.photos.length, mails: rows.mails };
    },
    eraseMails: (ids) => whenNotBusy(() => eraseMailRows(db, ids)),
    photosOfRequests: (ids) => photosOfRequests(db, ids),
    deliveriesOf: (ids) => deliveriesOf(db, ids),
    mailsByLimitKey: (key) => mailsByLimitKey(db, key),
    rewriteRequest: (id, payload) => rewriteRequest(db, id, payload),
    rewriteMail: (id, subject, body) => rewriteMail(db, id, subject, body),
    deliveryHolds: (id, subject, body) => deliveryHolds(db, id, subject, body),
  };
}
