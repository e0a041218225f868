/**
 * What PostgreSQL plans, and how often, on the pool's connections: a submit's statement (photos and
 * requests looked up by key) is planned once per connection and kept, not planned again at every
 * call, and the plan kept reads only the photos the request names; the due deliveries, whose rows
 * depend on the outbox as it is, are planned at each call. Tests in this file run in order, on one
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

  it('the due deliveries are planned for the outbox as it is at each call: no plan of them is kept', async () => {
    for (let i = 0; i < 8; i++) await leaseDue(sql, 60_000, 'webhook', 10, new Set(), Date.now());
    const due = await leaseDue(sql, 60_000, 'mail', 50, new Set(), Date.now());
    // Every request's mail is due now: the lease takes them all.
    expect(due).toHaveLength(30);
    expect(await plans('FOR UPDATE SKIP LOCKED')).toEqual([]);
  });
});
