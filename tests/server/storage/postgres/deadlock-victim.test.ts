/**
 * A batch of submits holds the rows of all its requests until its commit (migration 14), so a request
 * stored alone can close a ring with it: it holds an Idempotency-Key the batch waits for, and waits for a
 * photo the batch claimed. PostgreSQL breaks the ring by failing one of the two; nothing of that one was
 * stored, and it is sent again instead of being refused.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RequestWriter } from '../../../../src/server/storage/port';
import type { NewRequest } from '../../../../src/server/storage/records';
import { BACKEND, type FreshDatabase } from '../../../support/backend';
import { writerOnPostgres, type WriterOnPostgres } from '../../../support/postgres-writer';

describe.runIf(BACKEND === 'postgres')('a deadlock between a batch and a request alone on PostgreSQL', { timeout: 60_000 }, () => {
  let setup: WriterOnPostgres;
  let db: FreshDatabase;
  let writer: RequestWriter;
  let n = 0;

  beforeAll(async () => {
    setup = await writerOnPostgres(5);
    ({ db, writer } = setup);
  });

  afterAll(() => setup?.close());

  function request(image1: string, idempotencyKey?: string): NewRequest {
    const mailbox = `klant${++n}@example.com`;
    return {
      brand: 'ilve',
      variant: 'simple',
      formRevision: 'simple-1',
      locale: 'nl',
      payload: JSON.stringify({ client_email: mailbox, image1, n }),
      photos: [{ field: 'image1', name: image1 }],
      reference: `ref-${n}`,
      ...(idempotencyKey === undefined ? {} : { idempotencyKey }),
      deliveries: [{ kind: 'confirmation', channel: 'mail', to: mailbox, limitKey: mailbox, subject: 's', text: 't', language: 'nl', messageId: crypto.randomUUID() }],
    };
  }

  it('answers the one PostgreSQL failed to break the ring, batch or request alone, as it would have been answered after the other', async () => {
    const [contested, own] = [await setup.photo(), await setup.photo()];
    const admin = new pg.Client({ connectionString: db.url });
    await admin.connect();
    try {
      // Both wait for the contested photo, the batch first; the one alone has stored its key by then.
      await admin.query('BEGIN');
      await admin.query('SELECT name FROM photos WHERE name = $1 FOR UPDATE', [contested]);
      const batch = writer.write([request(contested), request(own, 'shared-key')]);
      await waitForWaiters(admin, 1);
      const alone = writer.write([request(contested, 'shared-key')]);
      await waitForWaiters(admin, 2);
      // The batch gets the photo, then waits for the key the one alone holds, which waits for the photo.
      await admin.query('COMMIT');
      const [batchOutcomes, [aloneOutcome]] = await Promise.all([batch, alone]);
      const stored = { ok: true, value: { kind: 'stored', reference: expect.any(String), replay: false } };
      const keyConflict = { ok: true, value: { kind: 'key-conflict' } };
      // Whichever waited its deadlock_timeout out first is failed (on a loaded machine, either), and sent again
      // once the other committed: the photo and the key are the other's by then.
      if (aloneOutcome.ok && aloneOutcome.value.kind === 'stored') {
        expect(aloneOutcome).toEqual(stored);
        expect(batchOutcomes).toEqual([{ ok: true, value: { kind: 'photos-unavailable', fields: ['image1'] } }, keyConflict]);
      } else {
        expect(batchOutcomes).toEqual([stored, stored]);
        expect(aloneOutcome).toEqual(keyConflict);
      }
      const { rows: keys } = await admin.query("SELECT count(*) AS n FROM requests WHERE idempotency_key = 'shared-key'");
      expect(Number(keys[0].n)).toBe(1);
      const { rows } = await admin.query('SELECT deadlocks FROM pg_stat_database WHERE datname = current_database()');
      expect(Number(rows[0].deadlocks)).toBeGreaterThanOrEqual(1);
    } finally {
      await admin.end();
    }
  });
});

/** Waits until `count` sessions wait for a lock. */
async function waitForWaiters(admin: pg.Client, count: number): Promise<void> {
  for (let tries = 0; tries < 200; tries++) {
    const { rows } = await admin.query("SELECT count(*) AS n FROM pg_locks WHERE NOT granted AND locktype IN ('transactionid', 'tuple')");
    if (Number(rows[0].n) >= count) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`fewer than ${count} sessions waited for a lock`);
}
