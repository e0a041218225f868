/**
 * What PostgreSQL plans, and how often, on the pool's connections: a submit (a call of
 * portal_store_requests) is planned once per connection and kept, not planned again at every call; it
 * reads only the photos the request names, and a mailbox's count only its day's mails, however the
 * tables grew since the connection's first submits (read from the connection's own statistics); the
 * due deliveries, whose rows depend on the outbox as it is, are planned at each call. Tests in this
 * file run in order, on one database (32 requests by the last, 31 of them with a mail queued).
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

  /**
   * What the pool's connection has read of the photos and the outbox so far: its statistics flushed first
   * (sent before the answer of the call that asks for it), so the reads of a submit's function are seen.
   */
  async function reads(): Promise<Record<string, number>> {
    await pool.query('SELECT pg_stat_force_next_flush()');
    const { rows } = await pool.query<{ name: string; n: string }>(
      `SELECT relname || ' sequential' AS name, seq_scan AS n FROM pg_stat_user_tables WHERE relname IN ('photos', 'outbox')
       UNION ALL SELECT indexrelname, idx_tup_read FROM pg_stat_user_indexes WHERE relname IN ('photos', 'outbox')`,
    );
    return Object.fromEntries(rows.map((r) => [r.name, Number(r.n)]));
  }
  const grown = (before: Record<string, number>, after: Record<string, number>) =>
    Object.fromEntries(Object.entries(after).map(([name, n]) => [name, n - (before[name] ?? 0)]));

  it('a submit is planned once per connection, then its plan is kept (not planned again at each of 20 submits)', async () => {
    const writer = new PostgresRequestWriter(sql, db, { mailsPerRecipientPerDay: 5 });
    for (let n = 1; n <= 20; n++) {
      const [outcome] = await writer.write([request(n)]);
      expect(outcome).toEqual({ ok: true, value: { kind: 'stored', reference: `ref-${n}`, replay: false } });
    }
    const [submit] = await plans('portal_store_requests');
    // PostgreSQL tries a few custom plans before it keeps the generic one (plancache.c: five).
    expect(submit.custom).toBeLessThanOrEqual(5);
    expect(submit.generic).toBeGreaterThanOrEqual(15);
    // Each request's mail was queued, counted per mailbox from the outbox as it is.
    const queued = await db.selectFrom('outbox').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    expect(Number(queued.n)).toBe(20);
  });

  it('a submit with photos claims each by its name, not through the index of the unclaimed ones, also when its plan was made before the photos had statistics', async () => {
    // A new database: no statistics of the photos until autovacuum first analyzes them, which here it never does.
    await pool.query('ALTER TABLE photos SET (autovacuum_enabled = off)');
    // Unclaimed photos few beside those claimed (customers upload, then send): a kept plan once scanned them all.
    await pool.query(
      `INSERT INTO photos (name, created_at, request_id, bytes, data)
       SELECT 'claimed-' || i, 0, (SELECT min(id) FROM requests), 1, '\\x00' FROM generate_series(1, 20000) i`,
    );
    await pool.query(`INSERT INTO photos (name, created_at, owner, bytes, data) SELECT 'waiting-' || i, 0, '192.0.2.1', 1, '\\x00' FROM generate_series(1, 2000) i`);
    const writer = new PostgresRequestWriter(sql, db, { mailsPerRecipientPerDay: 5 });
    const before = await reads();
    for (let n = 101; n <= 110; n++) {
      const item = { ...request(n), photos: [{ field: 'image1', name: `waiting-${n}` }, { field: 'image2', name: `waiting-${n + 1000}` }] };
      const [outcome] = await writer.write([item]);
      expect(outcome).toEqual({ ok: true, value: { kind: 'stored', reference: `ref-${n}`, replay: false } });
    }
    const read = grown(before, await reads());
    // Two names a submit, looked up in the photos' key: not the 2,000 unclaimed ones each time, nor all 22,000.
    expect(read.photos_pkey).toBeGreaterThanOrEqual(20);
    expect(read.photos_pkey).toBeLessThanOrEqual(40);
    expect(read.photos_unclaimed).toBe(0);
    expect(read.photos_unclaimed_owner).toBe(0);
    expect(read['photos sequential']).toBe(0);
    const claimed = await pool.query("SELECT count(*) AS n FROM photos WHERE name LIKE 'waiting-%' AND request_id IS NOT NULL");
    expect(Number(claimed.rows[0].n)).toBe(20);
  });

  it("a mailbox's count reads only that mailbox's mails of the day, through its index, however the outbox grew since its plan was made", async () => {
    // Its plan was made while the outbox was small (the submits above), and is kept on this connection. Months
    // later: 60,000 mails sent, most of them to one mailbox (a shop's, or an attack's), all but 3 older than a day.
    await pool.query(
      `INSERT INTO outbox (request_id, kind, channel, recipient, limit_key, subject, body, attempts, next_attempt_at, sent_at, due_at, queued_at, message_id, language)
       SELECT (SELECT min(id) FROM requests), 'confirmation', 'mail', m, m, 's', 't', 1, $1::bigint, $1::bigint, $1::bigint, $1::bigint, 'old-' || i, 'nl'
       FROM generate_series(1, 60000) i, LATERAL (SELECT CASE WHEN i % 10 = 0 THEN 'klant' || i || '@example.com' ELSE 'winkel@example.com' END AS m) mailbox`,
      [Date.now() - 2 * DAY_MS],
    );
    await pool.query(`UPDATE outbox SET queued_at = $1 WHERE message_id IN ('old-1', 'old-2', 'old-3')`, [Date.now()]);
    const toTheShop = (n: number): NewRequest => {
      const [mail] = request(n).deliveries;
      return { ...request(n), deliveries: [{ ...mail, to: 'winkel@example.com', limitKey: 'winkel@example.com' }] };
    };
    const queuedFor = async (reference: string) =>
      Number((await pool.query('SELECT count(*) AS n FROM outbox WHERE request_id = (SELECT id FROM requests WHERE reference = $1)', [reference])).rows[0].n);
    const before = await reads();
    // 3 mails of the day: a fourth is within a limit of 4, not of 3.
    await new PostgresRequestWriter(sql, db, { mailsPerRecipientPerDay: 3 }).write([toTheShop(201)]);
    await new PostgresRequestWriter(sql, db, { mailsPerRecipientPerDay: 4 }).write([toTheShop(202)]);
    // Read before the test's own queries of the outbox, whose plans are not the submit's.
    const read = grown(before, await reads());
    expect(await queuedFor('ref-201')).toBe(0);
    expect(await queuedFor('ref-202')).toBe(1);
    expect(read['outbox sequential']).toBe(0);
    // The shop's 3 mails of the day at each count, not its 54,000 of earlier days.
    expect(read.outbox_limit).toBeGreaterThanOrEqual(6);
    expect(read.outbox_limit).toBeLessThanOrEqual(20);
  });

  it('the due deliveries are planned for the outbox as it is at each call: no plan of them is kept', async () => {
    for (let i = 0; i < 8; i++) await leaseDue(sql, 60_000, 'webhook', 10, new Set(), Date.now());
    const due = await leaseDue(sql, 60_000, 'mail', 50, new Set(), Date.now());
    // Every mail queued is due now: the lease takes them all.
    expect(due).toHaveLength(31);
    expect(await plans('FOR UPDATE SKIP LOCKED')).toEqual([]);
  });
});
