import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { GroupCommit } from '../../../src/server/storage/group-commit';
import { openStorage } from '../../../src/server/storage/open-storage';
import type { Outcome, Storage } from '../../../src/server/storage/port';
import type { NewRequest } from '../../../src/server/storage/records';
import { BACKEND, backendEnv } from '../../support/backend';
import { probeDatabase, type DatabaseProbe } from '../../support/database-probe';
import { storedPhoto } from '../../support/stored-photo';

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

describe('request writer (the backend under test)', () => {
  let dir: string;
  let storage: Storage;
  let probe: DatabaseProbe;
  let drop: () => Promise<void>;
  let closeWriter: () => Promise<void>;
  afterEach(async () => {
    await closeWriter();
    await storage.close();
    await probe.close();
    await drop();
    rmSync(dir, { recursive: true, force: true });
  });

  async function setup(photos: string[]) {
    dir = mkdtempSync(join(tmpdir(), 'writer-test-'));
    const backend = await backendEnv();
    drop = backend.drop;
    const where = { dataDir: dir, databaseUrl: backend.env.DATABASE_URL ?? '' };
    storage = await openStorage({ ...where, databasePoolSize: 4 });
    probe = probeDatabase(where);
    for (const name of photos) named.set(name, await storedPhoto(storage.photos));
    const writer = await storage.openWriter({ mailsPerRecipientPerDay: 5 });
    closeWriter = () => writer.close();
    return writer;
  }

  /** Photos get generated names when stored: the test's own names map to them. */
  const named = new Map<string, string>();
  const item = (reference: string, image1: string, image2: string, idempotencyKey?: string): NewRequest => {
    const [a, b] = [named.get(image1)!, named.get(image2)!];
    return {
      brand: 'ilve',
      variant: 'simple',
      formRevision: 'simple-1',
      locale: 'nl',
      payload: JSON.stringify({ image1: a, image2: b }),
      photos: [
        { field: 'image1', name: a },
        { field: 'image2', name: b },
      ],
      idempotencyKey,
      reference,
      deliveries: [{ kind: 'confirmation', channel: 'mail', to: 'klant@example.com', subject: 's', text: 't', language: 'nl', limitKey: 'klant@example.com', messageId: `${reference}.confirmation` }],
    };
  };

  it('keeps idempotency and photo claims within one batch', async () => {
    const writer = await setup(['a.jpg', 'b.jpg', 'c.jpg', 'd.jpg']);
    const outcomes = await writer.write([
      item('r1', 'a.jpg', 'b.jpg', 'key-1'),
      item('r2', 'a.jpg', 'b.jpg', 'key-1'), // retry of the same submission
      item('r3', 'a.jpg', 'c.jpg', 'key-2'), // photo a.jpg already used
      item('r4', 'c.jpg', 'd.jpg'),
    ]);
    // SQLite commits a batch as one transaction in order; PostgreSQL runs its items side by side, and
    // the database decides which of two claims on a.jpg wins. Either way: one row per key, a photo used once.
    const values = outcomes.map((o) => o.ok && o.value);
    expect(values[1]).toEqual({ kind: 'stored', reference: 'r1', replay: true });
    const stored = (await probe.all<{ reference: string }>('SELECT reference FROM requests ORDER BY reference')).map((r) => r.reference);
    if (BACKEND === 'sqlite') {
      expect(values).toEqual([
        { kind: 'stored', reference: 'r1', replay: false },
        { kind: 'stored', reference: 'r1', replay: true },
        { kind: 'photos-unavailable', fields: ['image1'] },
        { kind: 'stored', reference: 'r4', replay: false },
      ]);
    }
    expect(stored.length).toBe(2);
    expect(stored).toContain('r1');
    const claims = await probe.all<{ n: number }>('SELECT COUNT(*) AS n FROM photos WHERE request_id IS NOT NULL');
    expect(claims).toEqual([{ n: 4 }]);
    expect(await probe.all('SELECT COUNT(*) AS n FROM outbox')).toEqual([{ n: 2 }]);
  });

  it('answers a key used before: the same request as a replay, another one as a conflict, even one naming a photo twice', async () => {
    const writer = await setup(['a.jpg', 'b.jpg', 'c.jpg']);
    expect(await writer.write([item('r1', 'a.jpg', 'b.jpg', 'key-1')])).toEqual([{ ok: true, value: { kind: 'stored', reference: 'r1', replay: false } }]);
    const later = await writer.write([item('r2', 'a.jpg', 'b.jpg', 'key-1'), item('r3', 'c.jpg', 'c.jpg', 'key-1')]);
    expect(later.map((o) => o.ok && o.value)).toEqual([{ kind: 'stored', reference: 'r1', replay: true }, { kind: 'key-conflict' }]);
    const stored = await probe.all<{ reference: string }>('SELECT reference FROM requests');
    expect(stored).toEqual([{ reference: 'r1' }]);
  });
});
