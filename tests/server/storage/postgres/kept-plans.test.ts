/**
 * What PostgreSQL plans, and how often, on the pool's connections: a submit's statement (photos and
 * requests looked up by key) is planned once per connection and kept, not planned again at every
 * call, and the plan kept reads only the photos the request names; a mailbox's count reads only its
 * day's mails, however the outbox grew since the connection's first submits; the due deliveries, whose
 * rows depend on the outbox as it is, are planned at each call. Tests in this file run in order, on one
 * database (30 requests by the last).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Kysely } from 'kysely';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DatabaseState } from '../../../../src/server/storage/database-state';
import { openStorage } from '../../../../src/server/storage/open-storage';
import { PortalPostgresDialect } from '../../../../src/server/storage/postgres/kysely-dialect';
import { leaseDue } from '../../../../src/server/storage/postgres/lease';
import { openPool } from '../../../../src/server/storage/postgres/pool';
import { PostgresSql } from '../../../../src/server/storage/postgres/postgres-sql';
import { PostgresRequestWriter } from '../../../../src/server/storage/postgres/request-writer';
import type { PortalDatabase } from '../../../../src/server/storage/schema';
import type { NewRequest } from '../../../../src/server/storage/records';
import { DAY_MS } from '../../../../src/server/storage/store-rules';
import { BACKEND, freshPostgres, type FreshDatabase } from '../../../support/backend';

describe.runIf(BACKEND === 'postgres')('plans kept on the pool of PostgreSQL', { timeout: 60_000 }, () => {
  let dir: string;
  let fresh: FreshDatabase;
  let pool: pg.Pool;
  let db: Kysely<PortalDatabase>;
  let sql: PostgresSql;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'kept-plans-'));
    fresh = await freshPostgres();
    // Migrated as a server does, then one connection of its own, so that connection's statements can be read.
    const storage = await openStorage({ dataDir: dir, databaseUrl: fresh.url, databasePoolSize: 1, deliveryLeaseMs: 60_000 });
    await storage.close();
    pool = openPool({ url: fresh.url, poolSize: 1 });
    const state = new DatabaseState();
    db = new Kysely<PortalDatabase>({ dialect: new PortalPostgresDialect(pool, state) });
    sql = new PostgresSql(pool, state);
  });

  afterAll(async () => {
    await db?.destroy();
    await fresh?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  const request = (n: number): NewRequest => ({
    brand: 'ilve',
    variant: 'simple',
    formRevision: 'simple-1',
    locale: 'nl',
    payload: JSON.stringify({ client_email: `klant${n}@example.com`, n }),
    photos: [],
    reference: `ref-${n}`,
    deliveries: [
      { kind: 'confirmation', channel: 'mail', to: `klant${n}@example.com`, limitKey: `klant${n}@example.com`, subject: 's', text: 't', language: 'nl', messageId: crypto.randomUUID() },
    ],
  });

  /** The plans the connection made for its kept statements whose text holds `part`. */
  async function plans(part: string): Promise<{ generic: number; custom: number }[]> {
    const { rows } = await pool.query<{ generic_plans: string; custom_plans: string }>(
      'SELECT generic_plans, custom_plans FROM pg_prepared_statements WHERE statement LIKE $1',
      [`%${part}%`],
    );
    return rows.map((r) => ({ generic: Number(r.generic_plans), custom: Number(r.custom_plans) }));
  }

  it('a submit is planned once per connection, then its plan is kept (not planned again at each of 20 submits)', async () => {
    const writer = new PostgresRequestWriter(sql, db, { mailsPerRecipientPerDay: 5 });
    for (let n = 1; n <= 20; n++) {
      const [outcome] = await writer.write([request(n)]);
      expect(outcome).toEqual({ ok: true, value: { kind: 'stored', reference: `ref-${n}`, replay: false } });
    }
    const [submit] = await plans('INSERT INTO requests');
    // PostgreSQL tries a few custom plans before it keeps the generic one (plancache.c: five).
    expect(submit.custom).toBeLessThanOrEqual(5);
    expect(submit.generic).toBeGreaterThanOrEqual(15);
    // Each request's mail was queued, counted per mailbox from the outbox as it is.
    const queued = await db.selectFrom('outbox').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    expect(Number(queued.n)).toBe(20);
  });

  it('the plan of a submit with photos is kept, and looks each photo up by its name, not through the index of the unclaimed ones', async () => {
    // Unclaimed photos few beside those claimed (customers upload, then send): the kept plan once scanned them all.
    await pool.query(
      `INSERT INTO photos (name, created_at, request_id, bytes, data)
       SELECT 'claimed-' || i, 0, (SELECT min(id) FROM requests), 1, '\\x00' FROM generate_series(1, 20000) i`,
    );
    await pool.query(`INSERT INTO photos (name, created_at, owner, bytes, data) SELECT 'waiting-' || i, 0, '192.0.2.1', 1, '\\x00' FROM generate_series(1, 2000) i`);
    await pool.query('ANALYZE photos');
    const writer = new PostgresRequestWriter(sql, db, { mailsPerRecipientPerDay: 5 });
    const genericSubmits = async () => (await plans('INSERT INTO requests')).reduce((sum, p) => sum + p.generic, 0);
    const genericBefore = await genericSubmits();
    for (let n = 101; n <= 110; n++) {
      const item = { ...request(n), photos: [{ field: 'image1', name: `waiting-${n}` }, { field: 'image2', name: `waiting-${n + 1000}` }] };
      const [outcome] = await writer.write([item]);
      expect(outcome).toEqual({ ok: true, value: { kind: 'stored', reference: `ref-${n}`, replay: false } });
    }
    // Kept, not planned again at each submit: of these ten, five at most were planned.
    expect((await genericSubmits()) - genericBefore).toBeGreaterThanOrEqual(5);
    const { rows } = await pool.query<{ name: string; types: string[] }>(
      "SELECT name, parameter_types::text[] AS types FROM pg_prepared_statements WHERE statement LIKE '%INSERT INTO requests%' ORDER BY cardinality(parameter_types) DESC",
    );
    const [{ name, types }] = rows;
    const values = types.map((t) => (t === 'bigint' ? '0' : "'[]'")).join(', ');
    const plan = (await pool.query<{ 'QUERY PLAN': string }>(`EXPLAIN EXECUTE ${name}(${values})`)).rows.map((r) => r['QUERY PLAN']).join('\n');
    expect(plan).toMatch(/Index Cond: \(name = /);
    // Neither through the index of the unclaimed photos, nor by reading every photo (the kept plan took a JSON
    // list of names for 100 rows, and hash-joined it to all 22,000 photos).
    expect(plan).not.toMatch(/photos_unclaimed/);
    expect(plan).not.toMatch(/Seq Scan on photos/);
  });

  it("a mailbox's count reads only that mailbox's mails of the day, through its index, however the outbox grew since its plan was made", async () => {
    const count = async (keys: string[]) => {
      // In one transaction, so the scans it made can be read from the backend's own statistics.
      const client = await pool.connect();
      try {
        const scans = async () =>
          (await client.query<{ seq: string; index: string }>("SELECT seq_scan AS seq, idx_scan AS index FROM pg_stat_xact_user_tables WHERE relname = 'outbox'")).rows[0];
        // The backend's counts not yet reported hold earlier transactions' scans too: only this call's are read.
        await client.query('BEGIN');
        const before = await scans();
        const { rows } = await client.query<{ limit_key: string; n: string }>('SELECT * FROM portal_mails_after_turns($1, 7316403, $2)', [keys, Date.now() - DAY_MS]);
        const after = await scans();
        await client.query('COMMIT');
        return {
          counted: Object.fromEntries(rows.map((r) => [r.limit_key, Number(r.n)])),
          seqScans: Number(after.seq) - Number(before.seq),
          indexScans: Number(after.index) - Number(before.index),
        };
      } finally {
        client.release();
      }
    };
    // Its plan is made while the outbox is small (30 mails), and kept on this connection.
    for (let i = 0; i < 10; i++) expect((await count([`klant${i + 1}@example.com`])).counted).toEqual({ [`klant${i + 1}@example.com`]: 1 });
    // Months later: 60,000 mails sent, most of them to one mailbox (a shop's, or an attack's), all but 3 older than a day.
    await pool.query(
      `INSERT INTO outbox (request_id, kind, channel, recipient, limit_key, subject, body, attempts, next_attempt_at, sent_at, due_at, queued_at, message_id, language)
       SELECT (SELECT min(id) FROM requests), 'confirmation', 'mail', m, m, 's', 't', 1, $1::bigint, $1::bigint, $1::bigint, $1::bigint, 'old-' || i, 'nl'
       FROM generate_series(1, 60000) i, LATERAL (SELECT CASE WHEN i % 10 = 0 THEN 'klant' || i || '@example.com' ELSE 'winkel@example.com' END AS m) mailbox`,
      [Date.now() - 2 * DAY_MS],
    );
    await pool.query(`UPDATE outbox SET queued_at = $1 WHERE message_id IN ('old-1', 'old-2', 'old-3')`, [Date.now()]);
    const expected = { 'winkel@example.com': 3, 'klant5@example.com': 1 };
    for (const keys of [['winkel@example.com'], ['klant5@example.com', 'winkel@example.com'], ['nieuw@example.com']]) {
      const { counted, seqScans, indexScans } = await count(keys);
      expect(counted).toEqual(Object.fromEntries(Object.entries(expected).filter(([k]) => keys.includes(k))));
      expect(seqScans).toBe(0);
      expect(indexScans).toBeGreaterThan(0);
    }
  });

  it('the due deliveries are planned for the outbox as it is at each call: no plan of them is kept', async () => {
    for (let i = 0; i < 8; i++) await leaseDue(sql, 60_000, 'webhook', 10, new Set(), Date.now());
    const due = await leaseDue(sql, 60_000, 'mail', 50, new Set(), Date.now());
    // Every request's mail is due now: the lease takes them all.
    expect(due).toHaveLength(30);
    expect(await plans('FOR UPDATE SKIP LOCKED')).toEqual([]);
  });
});
