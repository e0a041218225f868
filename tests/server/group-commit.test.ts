import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../src/server/storage/database';
import { GroupCommit, type Outcome } from '../../src/server/storage/group-commit';
import { PhotoRegistry } from '../../src/server/storage/photo-registry';
import { requestWriter, type WriteItem } from '../../src/server/storage/request-writer';

describe('GroupCommit', () => {
  it('hands the items of one event-loop turn to a single commit and answers each with its own outcome', async () => {
    const batches: number[][] = [];
    const commits = new GroupCommit<number, number>(async (items) => {
      batches.push(items);
      return items.map((n): Outcome<number> => (n < 0 ? { ok: false, error: { message: 'negative', code: 'E_NEG' } } : { ok: true, value: n * 2 }));
    });
    const results = await Promise.allSettled([commits.submit(1), commits.submit(-1), commits.submit(3)]);
    expect(batches).toEqual([[1, -1, 3]]);
    expect(results[0]).toEqual({ status: 'fulfilled', value: 2 });
    expect(results[1]).toMatchObject({ status: 'rejected', reason: { message: 'negative', code: 'E_NEG' } });
    expect(results[2]).toEqual({ status: 'fulfilled', value: 6 });
  });

  it('fails every item of a batch whose commit fails', async () => {
    const commits = new GroupCommit<number, number>(() => Promise.reject(Object.assign(new Error('disk full'), { code: 'SQLITE_FULL' })));
    const results = await Promise.allSettled([commits.submit(1), commits.submit(2)]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
  });
});

describe('requestWriter', () => {
  let dir: string;
  let db: Db;
  afterEach(() => {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  function setup(photos: string[]) {
    dir = mkdtempSync(join(tmpdir(), 'writer-test-'));
    db = openDatabase(dir);
    const registry = new PhotoRegistry(db);
    for (const name of photos) registry.register(name, '192.0.2.1', 4);
    return requestWriter(db, { mailsPerRecipientPerDay: 5 });
  }

  const item = (reference: string, image1: string, image2: string, idempotencyKey?: string): WriteItem => ({
    brand: 'ilve',
    variant: 'simple',
    locale: 'nl',
    payload: JSON.stringify({ image1, image2 }),
    image1,
    image2,
    idempotencyKey,
    reference,
    deliveries: [{ kind: 'confirmation', to: 'klant@example.com', subject: 's', text: 't' }],
  });

  it('keeps idempotency and photo claims within one batch', () => {
    const write = setup(['a.jpg', 'b.jpg', 'c.jpg', 'd.jpg']);
    const outcomes = write([
      item('r1', 'a.jpg', 'b.jpg', 'key-1'),
      item('r2', 'a.jpg', 'b.jpg', 'key-1'), // retry of the same submission
      item('r3', 'a.jpg', 'c.jpg', 'key-2'), // photo a.jpg already used
      item('r4', 'c.jpg', 'd.jpg'),
    ]);
    expect(outcomes.map((o) => o.ok && o.value)).toEqual([
      { kind: 'stored', reference: 'r1', replay: false },
      { kind: 'stored', reference: 'r1', replay: true },
      { kind: 'photos-unavailable', fields: ['image1'] },
      { kind: 'stored', reference: 'r4', replay: false },
    ]);
    expect(db.prepare('SELECT reference FROM requests ORDER BY id').all()).toEqual([{ reference: 'r1' }, { reference: 'r4' }]);
    expect(db.prepare('SELECT count(*) AS n FROM outbox').all()).toEqual([{ n: 2 }]);
  });
});
