/**
 * Submit statement figures of `npm run bench` (`npm run bench -- statement`).
 * SQLite: the request writer's CPU per submit (its thread's, read from the
 * thread's own clock), batches of 20 as group commit hands them to it under
 * 50 connections, each batch one transaction and one fsync.
 * PostgreSQL: its own CPU for one submit (the request, its two photos claimed,
 * its mails counted and queued, and the commit), submitted one at a time
 * through the real request writer on one connection, read from that
 * backend's /proc entry. Alone, a submit's cost is not hidden by the noise of
 * 50 connections on 2 shared cores (submit-bench.ts), so a plan that reads
 * more than the rows it names shows. Measured as a portal's first weeks
 * (1,000 requests stored) and after a year or so (15,000), each with its
 * photos claimed and its mails sent, vacuumed as autovacuum keeps it: the
 * ratio of the two is the growth. The plans are those the connection keeps
 * (pool.ts): made at its first submits, at each size.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Kysely } from 'kysely';
import { DatabaseState } from '../src/server/storage/database-state';
import { openStorage } from '../src/server/storage/open-storage';
import { PortalPostgresDialect } from '../src/server/storage/postgres/kysely-dialect';
import { openPool } from '../src/server/storage/postgres/pool';
import { PostgresSql } from '../src/server/storage/postgres/postgres-sql';
import { PostgresRequestWriter } from '../src/server/storage/postgres/request-writer';
import { openDatabase } from '../src/server/storage/sqlite/connection';
import { requestWriter } from '../src/server/storage/sqlite/request-writer';
import type { NewRequest } from '../src/server/storage/records';
import { DAY_MS } from '../src/server/storage/store-rules';
import type { PortalDatabase } from '../src/server/storage/schema';
import { freshPostgres } from '../tests/support/backend';
import type { BenchFigure } from './figures';
import { cpuSeconds } from './server-process';

const SIZES = [1_000, 15_000];
const WARMUP = 200;
const MEASURED = Number(process.env.BENCH_STATEMENTS ?? 3_000);
/** Submits per SQLite transaction: what group commit gathered under the budgeted load (17–23, measured). */
const SQLITE_BATCH = 20;

/** A request as the intake hands it to storage: two photos, the customer's confirmation and the desk's mail. */
function submit(n: number): NewRequest {
  const to = `klant${n}@example.com`;
  return {
    brand: 'ilve',
    variant: 'simple',
    formRevision: 'simple-1',
    locale: 'nl',
    payload: JSON.stringify({ client_email: to, n, complaint: 'Doet het niet meer. '.repeat(20) }),
    photos: [
      { field: 'image1', name: `new-${n}-1.jpg` },
      { field: 'image2', name: `new-${n}-2.jpg` },
    ],
    reference: `NEW-${n}`,
    idempotencyKey: `key-${n}`,
    deliveries: [
      { kind: 'confirmation', channel: 'mail', to, limitKey: to, subject: 'Bedankt', text: 'Bedankt. '.repeat(80), language: 'nl', messageId: `NEW-${n}.confirmation` },
      { kind: 'desk', channel: 'mail', to: 'desk@example.com', subject: 'Nieuw', text: 'Nieuwe aanvraag. '.repeat(60), language: 'nl', messageId: `NEW-${n}.desk` },
    ],
  };
}

/** How a cost measured at each of SIZES grew: the largest size's ÷ the smallest's. */
function growth(cost: string, costs: readonly number[]): BenchFigure {
  return {
    name: `${cost} with ${SIZES[1].toLocaleString('en')} stored ÷ with ${SIZES[0].toLocaleString('en')}`,
    value: Math.round((costs[1] / costs[0]) * 100) / 100,
    unit: '',
    better: 'lower',
  };
}

export async function runStatementBench(): Promise<BenchFigure[]> {
  return [...(await sqliteWriterFigures()), ...(await postgresFigures())];
}

/** The SQLite request writer's CPU per submit, at each size, in batches. */
async function sqliteWriterFigures(): Promise<BenchFigure[]> {
  const dir = mkdtempSync(join(tmpdir(), 'statement-bench-'));
  const figures: BenchFigure[] = [];
  try {
    // Migrated as a server migrates it.
    await (await openStorage({ dataDir: dir, databaseUrl: '', databasePoolSize: 1 })).close();
    const db = openDatabase(dir);
    try {
      const write = requestWriter(db, { mailsPerRecipientPerDay: 5 });
      let [stored, next] = [0, 0];
      const costs: number[] = [];
      for (const size of SIZES) {
        const sent = Date.now() - 2 * DAY_MS;
        db.exec('BEGIN');
        const [{ from }] = db.prepare('SELECT coalesce(max(id), 0) AS "from" FROM requests').all() as { from: number }[];
        db.prepare(
          `WITH RECURSIVE i(n) AS (SELECT CAST(? AS INTEGER) UNION ALL SELECT n + 1 FROM i WHERE n + 1 < ?)
           INSERT INTO requests (reference, brand, variant, locale, payload, idempotency_key, payload_hash, created_at, form_revision)
           SELECT 'SEED-' || n, 'ilve', 'simple', 'nl', printf('%.700c', 'x'), 'seed-' || n, hex(randomblob(16)), ?, 'simple-1' FROM i`,
        ).run(stored, size, sent);
        db.prepare(
          `INSERT INTO photos (name, created_at, request_id, bytes) SELECT 'seed-' || id || '-' || k, ?, id, 3000 FROM requests, (SELECT 1 AS k UNION ALL SELECT 2) WHERE id > ?`,
        ).run(sent, from);
        db.prepare(
          `INSERT INTO outbox (request_id, kind, channel, recipient, limit_key, subject, body, attempts, next_attempt_at, sent_at, queued_at, due_at, message_id, language)
           SELECT id, kind, 'mail', kind || id || '@example.com', CASE WHEN kind = 'desk' THEN NULL ELSE kind || id || '@example.com' END,
             kind, printf('%.720c', 'B'), 1, ?, ?, ?, ?, reference || '.' || kind, 'nl'
           FROM requests, (SELECT 'confirmation' AS kind UNION ALL SELECT 'desk') WHERE id > ?`,
        ).run(sent, sent, sent, sent, from);
        // The photos the measured submits claim: uploaded moments before, as a customer's are.
        db.prepare(
          `WITH RECURSIVE i(n) AS (SELECT CAST(? AS INTEGER) UNION ALL SELECT n + 1 FROM i WHERE n + 1 < ?)
           INSERT INTO photos (name, created_at, owner, bytes) SELECT 'new-' || n || '-' || k || '.jpg', ?, '192.0.2.' || (n % 200), 3000 FROM i, (SELECT 1 AS k UNION ALL SELECT 2)`,
        ).run(next, next + WARMUP + MEASURED, Date.now());
        db.exec('COMMIT');
        stored = size;
        const batch = () => {
          const items = Array.from({ length: SQLITE_BATCH }, () => submit(next++));
          for (const outcome of write(items)) {
            if (!outcome.ok || outcome.value.kind !== 'stored') throw new Error(`a submit was not stored: ${JSON.stringify(outcome)}`);
          }
        };
        for (let i = 0; i < WARMUP; i += SQLITE_BATCH) batch();
        const [cpuBefore, since] = [process.threadCpuUsage(), performance.now()];
        for (let i = 0; i < MEASURED; i += SQLITE_BATCH) batch();
        const cpu = process.threadCpuUsage(cpuBefore);
        const cpuUs = (cpu.user + cpu.system) / MEASURED;
        costs.push(cpuUs);
        figures.push({
          name: `SQLite request writer, ${size.toLocaleString('en')} requests stored: its CPU per submit`,
          value: Math.round(cpuUs),
          unit: 'µs',
          better: 'lower',
          detail: `${MEASURED} submits after ${WARMUP}, ${SQLITE_BATCH} a transaction (two photos claimed, two mails queued, WAL + synchronous=FULL); ${Math.round(cpu.system / MEASURED)} µs of it in the kernel; ${Math.round(((performance.now() - since) * 1e3) / MEASURED)} µs wall each`,
        });
      }
      figures.push(growth('SQLite request writer: its CPU per submit', costs));
    } finally {
      db.close();
    }
    return figures;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function postgresFigures(): Promise<BenchFigure[]> {
  const fresh = await freshPostgres().catch((error: unknown) => {
    console.log(`· submit statement figures: no PostgreSQL (${error instanceof Error ? error.message : String(error)})`);
    return undefined;
  });
  if (!fresh) return [];
  const dir = mkdtempSync(join(tmpdir(), 'statement-bench-'));
  const figures: BenchFigure[] = [];
  try {
    // Migrated as a server migrates it.
    await (await openStorage({ dataDir: dir, databaseUrl: fresh.url, databasePoolSize: 1, deliveryLeaseMs: 60_000 })).close();
    let stored = 0;
    let next = 0;
    const costs: number[] = [];
    for (const size of SIZES) {
      const admin = openPool({ url: fresh.url, poolSize: 1, durable: false });
      const sent = Date.now() - 2 * DAY_MS;
      await admin.query(
        `INSERT INTO requests (reference, brand, variant, locale, payload, idempotency_key, payload_hash, created_at, form_revision)
         SELECT 'SEED-' || i, 'ilve', 'simple', 'nl', repeat('x', 700), 'seed-' || i, md5(i::text), $1::bigint, 'simple-1' FROM generate_series($2::int, $3::int - 1) i`,
        [sent, stored, size],
      );
      await admin.query(
        `INSERT INTO photos (name, created_at, request_id, bytes, data)
         SELECT 'seed-' || r.id || '-' || k, $1::bigint, r.id, 3000, decode(repeat('ff', 3000), 'hex') FROM requests r, generate_series(1, 2) k WHERE r.reference LIKE 'SEED-%' AND r.id > $2::int`,
        [sent, stored],
      );
      await admin.query(
        `INSERT INTO outbox (request_id, kind, channel, recipient, limit_key, subject, body, attempts, next_attempt_at, sent_at, queued_at, due_at, message_id, language)
         SELECT r.id, k.kind, 'mail', k.kind || r.id || '@example.com', CASE WHEN k.kind = 'desk' THEN NULL ELSE k.kind || r.id || '@example.com' END,
           k.kind, repeat('Bedankt. ', 80), 1, $1::bigint, $1::bigint, $1::bigint, $1::bigint, r.reference || '.' || k.kind, 'nl'
         FROM requests r, (VALUES ('confirmation'), ('desk')) k(kind) WHERE r.reference LIKE 'SEED-%' AND r.id > $2::int`,
        [sent, stored],
      );
      stored = size;
      // The photos the measured submits claim: uploaded moments before, as a customer's are.
      const count = WARMUP + MEASURED;
      await admin.query(
        `INSERT INTO photos (name, created_at, owner, bytes, data)
         SELECT 'new-' || n || '-' || k || '.jpg', $1::bigint, '192.0.2.' || (n % 200), 3000, decode(repeat('ff', 3000), 'hex') FROM generate_series($2::int, $3::int - 1) n, generate_series(1, 2) k`,
        [Date.now(), next, next + count],
      );
      await admin.query('VACUUM (ANALYZE)');
      await admin.end();

      // A new connection, as a server's pool opens it: its plans are made at its first submits, at this size.
      const pool = openPool({ url: fresh.url, poolSize: 1 });
      const state = new DatabaseState();
      const db = new Kysely<PortalDatabase>({ dialect: new PortalPostgresDialect(pool, state) });
      try {
        const writer = new PostgresRequestWriter(new PostgresSql(pool, state), db, { mailsPerRecipientPerDay: 5 });
        const { rows } = await pool.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
        const backend = rows[0].pid;
        const write = async (n: number) => {
          const [outcome] = await writer.write([submit(n)]);
          if (!outcome.ok || outcome.value.kind !== 'stored') throw new Error(`submit ${n} was not stored: ${JSON.stringify(outcome)}`);
        };
        for (let i = 0; i < WARMUP; i++) await write(next++);
        const [cpuBefore, since] = [cpuSeconds(backend), performance.now()];
        for (let i = 0; i < MEASURED; i++) await write(next++);
        const cpuUs = ((cpuSeconds(backend) - cpuBefore) * 1e6) / MEASURED;
        const wallUs = ((performance.now() - since) * 1e3) / MEASURED;
        costs.push(cpuUs);
        figures.push({
          name: `PostgreSQL, one submit at a time, ${size.toLocaleString('en')} requests stored: the backend's CPU per submit`,
          value: Math.round(cpuUs),
          unit: 'µs',
          better: 'lower',
          detail: `${MEASURED} submits after ${WARMUP} on a new connection (two photos claimed, two mails queued, synchronous_commit=on); ${Math.round(wallUs)} µs each from the writer's call to its answer`,
        });
      } finally {
        await db.destroy();
      }
    }
    figures.push(growth("PostgreSQL, one submit at a time: the backend's CPU per submit", costs));
    return figures;
  } finally {
    await fresh.drop();
    rmSync(dir, { recursive: true, force: true });
  }
}
