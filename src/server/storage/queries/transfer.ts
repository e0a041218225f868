import type { PhotoRow } from '../records';
import type { MovedCounts, RequestBatch, Transfer } from '../transfer';
import { allFormRevisions } from './form-revisions';
import { pending } from './outbox';
import { deliveriesOf, photosOfRequests } from './privacy';
import { requestCount, type Db } from './requests';

const PHOTO_COLUMNS = ['name', 'created_at', 'request_id', 'owner', 'bytes'] as const;

export interface TransferParts {
  db: Db;
  /** The newest migration applied, or undefined without a migrations table. */
  schemaVersion(): Promise<number | null | undefined>;
  /** Photo rows with their bytes, kept where the backend keeps them, inside the transaction `tx`. */
  insertPhotos(tx: Db, rows: readonly (PhotoRow & { data: Buffer })[], skipExisting: boolean): Promise<number>;
  photoBytes(names: readonly string[]): Promise<number>;
}

/** The Transfer of a storage: queries written once, and the backend's own way with photo bytes. */
export function transferOf({ db, schemaVersion, insertPhotos, photoBytes }: TransferParts): Transfer {
  return {
    schemaVersion,
    requestCount: () => requestCount(db),
    formRevisions: () => allFormRevisions(db),
    importFormRevisions: async (rows) => {
      if (rows.length > 0) await db.insertInto('form_revisions').values([...rows]).onConflict((oc) => oc.column('id').doNothing()).execute();
    },
    photoRows: () => db.selectFrom('photos').select(PHOTO_COLUMNS).orderBy('name').execute(),
    photosOfRequests: (ids) => photosOfRequests(db, ids),
    mailsOfRequests: (ids) => deliveriesOf(db, ids),
    importRequests: (batch) => db.transaction().execute((tx) => importBatch(tx, batch, insertPhotos)),
    keysAfter: async (of, after, limit) =>
      of === 'references'
        ? (await db.selectFrom('requests').select('reference as key').where('reference', '>', after).orderBy('reference').limit(limit).execute()).map((r) => r.key)
        : (
            await db.selectFrom('photos').select('name as key').where('request_id', 'is', null).where('name', '>', after).orderBy('name').limit(limit).execute()
          ).map((r) => r.key),
    countsFor: (references) => countsFor(db, references),
    held: async (of, keys) => {
      if (keys.length === 0) return [];
      const rows =
        of === 'references'
          ? await db.selectFrom('requests').select('reference as key').where('reference', 'in', keys).execute()
          : await db.selectFrom('photos').select('name as key').where('name', 'in', keys).execute();
      return rows.map((r) => r.key);
    },
    photoBytes,
  };
}

async function importBatch(tx: Db, batch: RequestBatch, insertPhotos: TransferParts['insertPhotos']): Promise<number> {
  const inserted = await tx
    .insertInto('requests')
    .values(batch.requests.map(({ id: _id, ...request }) => request))
    .onConflict((oc) => oc.column('reference').doNothing())
    .returning(['id', 'reference'])
    .execute();
  if (inserted.length === 0) return 0;
  const idOf = new Map(inserted.map((r) => [r.reference, r.id]));
  // Old id → new id, for the rows that point at a request.
  const newId = new Map(batch.requests.filter((r) => idOf.has(r.reference)).map((r) => [r.id, idOf.get(r.reference)!]));
  const photos = batch.photos.filter((p) => newId.has(p.request_id!)).map((p) => ({ ...p, request_id: newId.get(p.request_id!)! }));
  await insertPhotos(tx, photos, false);
  const mails = batch.mails.filter((m) => newId.has(m.request_id));
  if (mails.length > 0) {
    await tx
      .insertInto('outbox')
      .values(
        mails.map(({ id, ...mail }) => ({
          ...mail,
          request_id: newId.get(mail.request_id)!,
          // The id the workers derived for old rows, so a retry keeps the Message-ID / webhook-id receivers already saw.
          message_id: mail.message_id ?? `outbox-${id}`,
        })),
      )
      .execute();
  }
  return inserted.length;
}

async function countsFor(db: Db, references: readonly string[]): Promise<MovedCounts> {
  const none: MovedCounts = { requests: 0, claimedPhotos: 0, deliveries: 0, sent: 0, failed: 0, pending: 0 };
  if (references.length === 0) return none;
  const ids = (await db.selectFrom('requests').select('id').where('reference', 'in', references).execute()).map((r) => r.id);
  if (ids.length === 0) return none;
  const count = async (query: Promise<{ n: number | string | bigint }>) => Number((await query).n);
  const mails = () => db.selectFrom('outbox').select((eb) => eb.fn.countAll<number>().as('n')).where('request_id', 'in', ids);
  return {
    requests: ids.length,
    claimedPhotos: await count(db.selectFrom('photos').select((eb) => eb.fn.countAll<number>().as('n')).where('request_id', 'in', ids).executeTakeFirstOrThrow()),
    deliveries: await count(mails().executeTakeFirstOrThrow()),
    sent: await count(mails().where('sent_at', 'is not', null).executeTakeFirstOrThrow()),
    failed: await count(mails().where('sent_at', 'is', null).where('failed_at', 'is not', null).executeTakeFirstOrThrow()),
    pending: await count(mails().where(pending).executeTakeFirstOrThrow()),
  };
}
