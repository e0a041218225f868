/**
 * Erase beside the outbox on PostgreSQL: a delivery's result recorded while the same person's requests are
 * erased locks their mails in another order than the erase does. PostgreSQL breaks the cycle by failing one
 * of the two; erase must not be the one that gives up (stop 36's CI run: "database: deadlock detected").
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RequestWriter, Storage } from '../../../../src/server/storage/port';
import { BACKEND, type FreshDatabase } from '../../../support/backend';
import { writerOnPostgres, type WriterOnPostgres } from '../../../support/postgres-writer';

describe.runIf(BACKEND === 'postgres')('erase while a delivery is recorded, on PostgreSQL', { timeout: 60_000 }, () => {
  let setup: WriterOnPostgres;
  let db: FreshDatabase;
  let storage: Storage;
  let writer: RequestWriter;

  beforeAll(async () => {
    setup = await writerOnPostgres(5);
    ({ db, storage, writer } = setup);
  });

  afterAll(() => setup?.close());

  it('erases the request and both its mails once the other transaction is through, though PostgreSQL failed the erase once', async () => {
    const name = await setup.photo();
    const mail = (kind: string, to: string) => ({ kind, channel: 'mail' as const, to, subject: 's', text: 't', language: 'nl', messageId: crypto.randomUUID() });
    const [outcome] = await writer.write([
      {
        brand: 'ilve', variant: 'simple', formRevision: 'simple-1', locale: 'nl', reference: 'ERAS-E000-01',
        payload: JSON.stringify({ client_email: 'klant@example.com', image1: name }), photos: [{ field: 'image1', name }],
        deliveries: [mail('confirmation', 'klant@example.com'), mail('desk', 'desk@example.com')],
      },
    ]);
    expect(outcome).toMatchObject({ ok: true, value: { kind: 'stored' } });
    const other = new pg.Client({ connectionString: db.url });
    await other.connect();
    try {
      // The mails in the order erase meets them (the order it locks them in), and the request's id.
      const { rows } = await other.query<{ id: string; request_id: string }>('SELECT id, request_id FROM outbox ORDER BY ctid');
      const [first, second] = rows.map((r) => r.id);
      // The other transaction (a delivery worker recording two results) holds the mail erase meets second ...
      await other.query('BEGIN');
      await other.query('UPDATE outbox SET attempts = attempts + 1 WHERE id = $1', [second]);
      const erased = storage.eraseRequests([Number(rows[0].request_id)]);
      const settled = erased.then(() => 'erased', (error: Error) => error.message);
      await new Promise((r) => setTimeout(r, 300));
      // ... and then wants the one erase holds: a cycle, which PostgreSQL ends after deadlock_timeout (1 s)
      // by failing the transaction that waited first, the erase.
      await other.query('UPDATE outbox SET attempts = attempts + 1 WHERE id = $1', [first]);
      await other.query('COMMIT');
      expect(await settled).toBe('erased');
      expect(await erased).toMatchObject({ requests: 1, photos: 1 });
      expect((await erased).mails).toHaveLength(2);
      const left = await other.query('SELECT (SELECT count(*)::int FROM outbox) AS mails, (SELECT count(*)::int FROM requests) AS requests');
      expect(left.rows[0]).toEqual({ mails: 0, requests: 0 });
    } finally {
      await other.end();
    }
  });
});
