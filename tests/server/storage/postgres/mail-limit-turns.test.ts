/**
 * The per-mailbox mail limit on PostgreSQL: requests to a mailbox with room take turns (two counted
 * at once would both find room), but a mailbox that is full keeps no request waiting, however many
 * are sent to it at once (a flood aimed at one address).
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RequestWriter, Storage } from '../../../../src/server/storage/port';
import type { NewRequest } from '../../../../src/server/storage/records';
import { BACKEND, type FreshDatabase } from '../../../support/backend';
import { writerOnPostgres, type WriterOnPostgres } from '../../../support/postgres-writer';
import { postgresMessages } from '../../../support/postgres-messages';

const MAILBOX = 'klant@example.com';

describe.runIf(BACKEND === 'postgres')('the mail limit of one mailbox on PostgreSQL', { timeout: 60_000 }, () => {
  let setup: WriterOnPostgres;
  let db: FreshDatabase;
  let storage: Storage;
  let writer: RequestWriter;
  let n = 0;

  beforeAll(async () => {
    setup = await writerOnPostgres(2);
    ({ db, storage, writer } = setup);
  });

  afterAll(() => setup?.close());

  async function request(mailbox = MAILBOX): Promise<NewRequest> {
    const name = await setup.photo();
    const reference = `ref-${++n}`;
    return {
      brand: 'ilve',
      variant: 'simple',
      formRevision: 'simple-1',
      locale: 'nl',
      payload: JSON.stringify({ client_email: mailbox, image1: name, n }),
      photos: [{ field: 'image1', name }],
      reference,
      deliveries: [{ kind: 'confirmation', channel: 'mail', to: mailbox, limitKey: mailbox, subject: 's', text: 't', language: 'nl', messageId: crypto.randomUUID() }],
    };
  }

  async function stored(item: NewRequest): Promise<number> {
    const started = performance.now();
    const [outcome] = await writer.write([item]);
    if (!outcome.ok) throw new Error(outcome.error.message);
    expect(outcome.value).toMatchObject({ kind: 'stored', replay: false });
    return performance.now() - started;
  }

  it('keeps no request to a full mailbox waiting while another holds the mailbox, and queues no mail past the limit', async () => {
    for (let i = 0; i < 2; i++) await stored(await request());
    // Another session holds the mailbox's turn (as a request to it still being written would).
    const holder = new pg.Client({ connectionString: db.url });
    await holder.connect();
    try {
      await holder.query('SELECT pg_advisory_lock(hashtextextended($1, 7316403))', [MAILBOX]);
      // Before, each waited the 5 s lock_timeout for the turn and was refused.
      const waited = await Promise.all(Array.from({ length: 5 }, async () => stored(await request())));
      console.log(`requests to a full mailbox while its turn was held: ${waited.map((ms) => ms.toFixed(0)).join(', ')} ms`);
    } finally {
      await holder.end();
    }
    expect((await storage.outboxFigures()).pendingByKind.confirmation).toBe(2);
    expect((await storage.requestsAfter(0, 100)).length).toBe(7);
  });

  it('stores a request to a mailbox with room in one round trip, and requests sent to one mailbox at once still take turns', async () => {
    const items = await Promise.all(Array.from({ length: 10 }, (_, i) => request(`klant${i}@example.com`)));
    const before = messagesToPostgres();
    for (const item of items) await stored(item);
    // Before, three: BEGIN with the mailbox's turn, the statement, COMMIT.
    expect((messagesToPostgres() - before) / items.length).toBeLessThan(1.5);

    // Five at once to one mailbox with room for two: each counts the mails of those whose turn came before.
    const flood = await Promise.all(Array.from({ length: 5 }, () => request('vloed@example.com')));
    await Promise.all(flood.map(stored));
    const queued = await storage.mailsByLimitKey('vloed@example.com');
    expect(queued).toHaveLength(2);
  });

  it('stores the requests of one turn in one round trip and one transaction, and batches naming the same mailboxes in other orders wait their turns without a deadlock', async () => {
    const batch = await Promise.all(Array.from({ length: 12 }, (_, i) => request(`beurt${i % 3}@example.com`)));
    const before = messagesToPostgres();
    const outcomes = await writer.write(batch);
    expect(outcomes.every((o) => o.ok && o.value.kind === 'stored' && !o.value.replay)).toBe(true);
    expect(messagesToPostgres() - before).toBeLessThanOrEqual(2);
    const admin = new pg.Client({ connectionString: db.url });
    await admin.connect();
    try {
      // One transaction wrote them all: the same xmin on every row.
      const { rows } = await admin.query('SELECT count(DISTINCT xmin::text) AS n FROM requests WHERE reference = ANY ($1)', [batch.map((b) => b.reference)]);
      expect(Number(rows[0].n)).toBe(1);
      for (let i = 0; i < 3; i++) expect(await storage.mailsByLimitKey(`beurt${i}@example.com`)).toHaveLength(2);

      // Batches at once on four connections, each naming the mailboxes in another order: had a batch taken each
      // request's turn as it came to it, two of them would each hold a mailbox the other waits for.
      const { rows: [{ deadlocks: deadlocksBefore }] } = await admin.query('SELECT deadlocks FROM pg_stat_database WHERE datname = current_database()');
      const orders = [['a', 'b', 'c'], ['c', 'b', 'a'], ['b', 'c', 'a'], ['a', 'c', 'b'], ['c', 'a', 'b'], ['b', 'a', 'c']];
      const crossing = await Promise.all(orders.flatMap((order) => [order, order]).map((order) => Promise.all(order.map((m) => request(`kruis-${m}@example.com`)))));
      const results = (await Promise.all(crossing.map((items) => writer.write(items)))).flat();
      expect(results.filter((o) => !(o.ok && o.value.kind === 'stored'))).toEqual([]);
      for (const m of ['a', 'b', 'c']) expect(await storage.mailsByLimitKey(`kruis-${m}@example.com`)).toHaveLength(2);
      await admin.query('SELECT pg_stat_force_next_flush()');
      const { rows: [{ deadlocks }] } = await admin.query('SELECT deadlocks FROM pg_stat_database WHERE datname = current_database()');
      expect(Number(deadlocks) - Number(deadlocksBefore)).toBe(0);
    } finally {
      await admin.end();
    }
  });
});

/** Messages this process has sent to PostgreSQL on all its connections, one a round trip. */
function messagesToPostgres(): number {
  return [...postgresMessages([process.pid]).values()].reduce((sum, n) => sum + n, 0);
}
