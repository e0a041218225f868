/**
 * The storage port's contract (src/server/storage/port.ts), one suite for
 * both adapters: the test matrix runs it on SQLite and on PostgreSQL
 * (vitest.config.ts). What a caller of the port may count on, whichever
 * database is behind it.
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openStorage } from '../../../src/server/storage/open-storage';
import type { RequestWriter, Storage } from '../../../src/server/storage/port';
import type { NewRequest, QueuedDelivery } from '../../../src/server/storage/records';
import { StoreRefusal } from '../../../src/server/storage/store-refusal';
import { backendEnv } from '../../support/backend';
import { probeDatabase } from '../../support/database-probe';
import { storedPhoto } from '../../support/stored-photo';

let dir: string;
let storage: Storage;
let writer: RequestWriter;
let drop: () => Promise<void>;
let backendUrl: string;

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'storage-port-'));
  const backend = await backendEnv();
  drop = backend.drop;
  backendUrl = backend.env.DATABASE_URL ?? '';
  storage = await openStorage({ dataDir: dir, databaseUrl: backendUrl, databasePoolSize: 4, deliveryLeaseMs: 60_000 });
  writer = await storage.openWriter({ mailsPerRecipientPerDay: 2 });
});

afterEach(async () => {
  await writer.close();
  await storage.close();
  await drop();
  rmSync(dir, { recursive: true, force: true });
});

async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const all: T[] = [];
  for await (const item of items) all.push(item);
  return all;
}

const photo = (owner?: string, bytes?: string) => storedPhoto(storage.photos, { owner, bytes });

const mail = (kind: string, to: string, counted = true): QueuedDelivery => ({
  kind,
  channel: 'mail',
  to,
  subject: `${kind} subject`,
  text: `${kind} text`,
  language: 'nl',
  messageId: crypto.randomUUID(),
  ...(counted ? { limitKey: to } : {}),
});

async function request(reference: string, overrides: Partial<NewRequest> = {}): Promise<NewRequest> {
  const [image1, image2] = [await photo(), await photo()];
  return {
    brand: 'ilve',
    variant: 'simple',
    formRevision: 'simple-1',
    locale: 'nl',
    payload: JSON.stringify({ client_email: 'Klant@Example.com', image1, image2 }),
    photos: [
      { field: 'image1', name: image1 },
      { field: 'image2', name: image2 },
    ],
    reference,
    deliveries: [mail('confirmation', 'klant@example.com'), mail('desk', 'desk@example.com', false), { ...mail('webhook', 'https://desk.example.com/hook', false), channel: 'webhook' }],
    ...overrides,
  };
}

async function store(item: NewRequest) {
  const [outcome] = await writer.write([item]);
  if (!outcome.ok) throw new Error(outcome.error.message);
  return outcome.value;
}

describe('storing a request', () => {
  it('stores it with its photos claimed and its deliveries queued, and finds it again', async () => {
    const item = await request('ref-1', { idempotencyKey: 'key-1' });
    expect(await store(item)).toEqual({ kind: 'stored', reference: 'ref-1', replay: false });
    expect(await storage.requestByReference('ref-1')).toMatchObject({ reference: 'ref-1', brand: 'ilve', payload: item.payload });
    expect((await storage.requestByKey('key-1', 'ilve'))?.reference).toBe('ref-1');
    expect(await storage.requestByKey('key-1', 'teka')).toBeUndefined();
    expect(await storage.photos.unclaimedBytes('192.0.2.1', ['192.0.2.'])).toEqual({ total: 0, mine: 0, groups: [0] });
    expect(await storage.outboxFigures()).toMatchObject({ pendingByKind: { confirmation: 1, desk: 1, webhook: 1 }, failedByKind: {} });
  });

  it('answers a key used before: the same request as a replay, another as a conflict', async () => {
    const first = await request('ref-1', { idempotencyKey: 'key-1' });
    await store(first);
    expect(await store({ ...first, reference: 'ref-2' })).toEqual({ kind: 'stored', reference: 'ref-1', replay: true });
    expect(await store({ ...(await request('ref-3')), idempotencyKey: 'key-1' })).toEqual({ kind: 'key-conflict' });
    expect((await storage.requestsAfter(0, 10)).map((r) => r.reference)).toEqual(['ref-1']);
  });

  it('lets a photo be claimed by one request only, and stores nothing of the one that lost it', async () => {
    const first = await request('ref-1');
    await store(first);
    const second = await request('ref-2');
    second.photos[0] = { field: 'image1', name: first.photos[0].name };
    expect(await store(second)).toEqual({ kind: 'photos-unavailable', fields: ['image1'] });
    const third = await request('ref-3');
    third.photos[1] = { field: 'image2', name: 'never-uploaded.jpg' };
    expect(await store(third)).toEqual({ kind: 'photos-unavailable', fields: ['image2'] });
    const twice = await request('ref-4');
    twice.photos[1] = { field: 'image2', name: twice.photos[0].name };
    expect(await store(twice)).toEqual({ kind: 'photos-unavailable', fields: ['image2'] });
    expect(await storage.requestByReference('ref-2')).toBeUndefined();
    // The loser's own photo stays free for another try.
    expect((await storage.photos.unclaimedBytes('192.0.2.1')).mine).toBeGreaterThan(0);
  });

  it('claims as many photos as the form has, none to four, each for its own field', async () => {
    const none = await request('ref-none');
    none.photos = [];
    expect(await store(none)).toEqual({ kind: 'stored', reference: 'ref-none', replay: false });
    const four = await request('ref-four');
    four.photos = [...four.photos, { field: 'image3', name: await photo() }, { field: 'image4', name: await photo() }];
    expect(await store(four)).toEqual({ kind: 'stored', reference: 'ref-four', replay: false });
    const [, stored] = await storage.requestsAfter(0, 10);
    expect((await storage.photosOfRequests([stored.id])).map((p) => p.name).sort()).toEqual(four.photos.map((p) => p.name).sort());
  });

  it('stores nothing of a request whose reference another has: no row, no claim, no delivery; its photos stay free', async () => {
    await store(await request('K7QM-4XRT-9P'));
    const taken = await request('K7QM-4XRT-9P', { idempotencyKey: 'key-2', brand: 'teka' });
    // Alone, and in one batch with others (SQLite commits a batch as one transaction): only the taken one fails.
    expect(await store(taken)).toEqual({ kind: 'reference-taken' });
    const batch = await writer.write([await request('ref-a'), taken, await request('ref-b')]);
    expect(batch.map((o) => o.ok && o.value)).toEqual([
      { kind: 'stored', reference: 'ref-a', replay: false },
      { kind: 'reference-taken' },
      { kind: 'stored', reference: 'ref-b', replay: false },
    ]);
    expect((await storage.requestsAfter(0, 10)).map((r) => [r.reference, r.brand])).toEqual([['K7QM-4XRT-9P', 'ilve'], ['ref-a', 'ilve'], ['ref-b', 'ilve']]);
    expect(await storage.requestByKey('key-2', 'teka')).toBeUndefined();
    expect((await storage.outboxFigures()).pendingByKind.desk).toBe(3);
    // Under a new reference the same request is stored, with the photos it could not claim before.
    expect(await store({ ...taken, reference: 'ref-c' })).toEqual({ kind: 'stored', reference: 'ref-c', replay: false });
  });

  it('answers each request of one batch as it would answer it alone: stored, a replay, a conflict, photos taken, mails past the limit not queued', async () => {
    const earlier = await request('ref-0', { idempotencyKey: 'key-0' });
    await store(earlier);
    const twice = await request('ref-twice-1', { idempotencyKey: 'key-twice' });
    const batch = [
      await request('ref-1'),
      { ...earlier, reference: 'ref-again' },
      await request('ref-2'),
      twice,
      { ...twice, reference: 'ref-twice-2' },
      { ...(await request('ref-other')), idempotencyKey: 'key-0' },
      await request('ref-3'),
    ];
    expect((await writer.write(batch)).map((o) => (o.ok ? o.value : o.error.message))).toEqual([
      { kind: 'stored', reference: 'ref-1', replay: false },
      { kind: 'stored', reference: 'ref-0', replay: true },
      { kind: 'stored', reference: 'ref-2', replay: false },
      { kind: 'stored', reference: 'ref-twice-1', replay: false },
      { kind: 'stored', reference: 'ref-twice-1', replay: true },
      { kind: 'key-conflict' },
      { kind: 'stored', reference: 'ref-3', replay: false },
    ]);
    // Five requests to one mailbox with a limit of two a day: the first two confirmations, every desk mail.
    expect(await storage.outboxFigures()).toMatchObject({ pendingByKind: { confirmation: 2, desk: 5, webhook: 5 } });
    // A request whose photo another has, in a batch: only it is refused, and its own photo stays free for another try.
    const lost = await request('ref-lost');
    lost.photos[1] = { field: 'image2', name: earlier.photos[1].name };
    expect((await writer.write([await request('ref-4'), lost, await request('ref-5')])).map((o) => (o.ok ? o.value : o.error.message))).toEqual([
      { kind: 'stored', reference: 'ref-4', replay: false },
      { kind: 'photos-unavailable', fields: ['image2'] },
      { kind: 'stored', reference: 'ref-5', replay: false },
    ]);
    expect((await storage.requestsAfter(0, 20)).map((r) => r.reference)).toEqual(['ref-0', 'ref-1', 'ref-2', 'ref-twice-1', 'ref-3', 'ref-4', 'ref-5']);
    expect(await store({ ...lost, photos: [lost.photos[0], { field: 'image2', name: await photo() }] })).toEqual({ kind: 'stored', reference: 'ref-lost', replay: false });
  });

  it('queues no more mails to one key in a day than the limit; the request itself is always stored', async () => {
    for (const reference of ['ref-1', 'ref-2', 'ref-3']) await store(await request(reference));
    const figures = await storage.outboxFigures();
    expect(figures.pendingByKind.confirmation).toBe(2);
    expect(figures.pendingByKind.desk).toBe(3);
  });
});

describe('deliveries', () => {
  it('leases due rows of a channel, the longest due first, never one under way here', async () => {
    await store(await request('ref-1'));
    await store(await request('ref-2'));
    const now = Date.now() + 1000;
    const mails = await storage.leaseDue('mail', 10, new Set(), now);
    expect(mails.map((d) => [d.reference, d.kind])).toEqual([['ref-1', 'confirmation'], ['ref-1', 'desk'], ['ref-2', 'confirmation'], ['ref-2', 'desk']]);
    expect(mails[0]).toMatchObject({ brand: 'ilve', recipient: 'klant@example.com', attempts: 0, messageId: expect.any(String), queuedAt: expect.any(Number) });
    expect(mails[0].queuedAt).toBeLessThanOrEqual(now);
    const busy = new Set(mails.map((d) => d.id));
    expect(await storage.leaseDue('mail', 10, busy, now)).toEqual([]);
    expect((await storage.leaseDue('webhook', 10, new Set(), now)).map((d) => d.kind)).toEqual(['webhook', 'webhook']);
  });

  it('records results: a delivery recorded as sent stays sent; a failure for good is listed and can be queued again', async () => {
    await store(await request('ref-1'));
    const [confirmation, desk] = await storage.leaseDue('mail', 10, new Set(), Date.now() + 1000);
    const now = Date.now();
    await writer.recordDeliveries([{ id: confirmation.id, delivered: true }], now);
    await writer.recordDeliveries(
      [
        { id: confirmation.id, delivered: false, attempts: 9, nextAttemptAt: now, lastError: 'late', failedForGood: true },
        { id: desk.id, delivered: false, attempts: 1, nextAttemptAt: now, lastError: '550 refused', failedForGood: true },
      ],
      now,
    );
    expect(await storage.undelivered()).toEqual([
      expect.objectContaining({ reference: 'ref-1', kind: 'desk', lastError: '550 refused', failedAt: now }),
      expect.objectContaining({ reference: 'ref-1', kind: 'webhook', failedAt: null }),
    ]);
    expect(await storage.requeue('ref-1', ['desk', 'webhook'], now)).toBe(2);
    expect(await storage.requeue('no-such-ref', ['desk'], now)).toBeUndefined();
    expect((await storage.outboxFigures()).failedByKind).toEqual({});
  });

  it('queues every delivery that failed for good again, or those failed since a time, as newly queued', async () => {
    await store(await request('ref-1'));
    await store(await request('ref-2'));
    const due = await storage.leaseDue('mail', 10, new Set(), Date.now() + 1000);
    const now = Date.now();
    const failed = (d: (typeof due)[number], at: number) => writer.recordDeliveries([{ id: d.id, delivered: false, attempts: 3, nextAttemptAt: at, lastError: 'x', failedForGood: true }], at);
    await failed(due[0], now - 3_600_000);
    await failed(due[1], now);
    await failed(due[2], now);
    await writer.recordDeliveries([{ id: due[3].id, delivered: true }], now);
    expect(await storage.requeueFailed(now - 60_000, now + 5)).toBe(2);
    expect(await storage.requeueFailed(undefined, now + 10)).toBe(1);
    expect(await storage.requeueFailed(undefined, now + 10)).toBe(0);
    const again = await storage.leaseDue('mail', 10, new Set(), now + 10);
    expect(again.map((d) => [d.id, d.attempts]).sort()).toEqual([due[0], due[1], due[2]].map((d) => [d.id, 0]).sort());
    expect(again.find((d) => d.id === due[0].id)?.queuedAt).toBe(now + 10);
  });
  it('ages the oldest pending delivery from when it became due: a held one not before its hour, one under way from its queueing however often it is leased', async () => {
    const hour = Date.now() + 3_600_000;
    await store(await request('ref-held', { deliveries: [{ ...mail('confirmation', 'klant@example.com'), notBefore: hour }] }));
    expect((await storage.outboxFigures()).oldestPendingAt).toBe(hour);
    const queued = Date.now();
    await store(await request('ref-now', { deliveries: [mail('desk', 'desk@example.com', false)] }));
    const oldest = (await storage.outboxFigures()).oldestPendingAt!;
    expect(oldest).toBeGreaterThanOrEqual(queued);
    expect(oldest).toBeLessThan(hour);
    // Instances that die during each first attempt: the row is leased again and again, and nothing is recorded.
    for (const minutes of [2, 4, 6]) expect(await storage.leaseDue('mail', 10, new Set(), queued + minutes * 60_000)).toHaveLength(1);
    expect((await storage.outboxFigures()).oldestPendingAt).toBe(oldest);
    // Queued again by staff: due from then.
    const [desk] = await storage.leaseDue('mail', 10, new Set(), queued + 8 * 60_000);
    await writer.recordDeliveries([{ id: desk.id, delivered: false, attempts: 1, nextAttemptAt: queued, lastError: '550', failedForGood: true }], queued);
    expect(await storage.requeueFailed(undefined, queued + 9 * 60_000)).toBe(1);
    expect((await storage.outboxFigures()).oldestPendingAt).toBe(queued + 9 * 60_000);
  });
});

describe("a person's data", () => {
  it("reads a request's photos and deliveries, the mails of a limit key, rewrites what erasure changes, and erases rows with their photos", async () => {
    const own = await request('ref-own');
    await store(own);
    await store(await request('ref-other', { payload: JSON.stringify({ client_email: 'iemand@example.com' }), deliveries: [mail('dealer', 'klant@example.com')] }));
    const [first] = await storage.requestsAfter(0, 1);
    expect((await storage.photosOfRequests([first.id])).map((p) => p.name).sort()).toEqual(own.photos.map((p) => p.name).sort());
    expect((await storage.deliveriesOf([first.id])).map((m) => m.kind)).toEqual(['confirmation', 'desk', 'webhook']);
    const toKlant = await storage.mailsByLimitKey('klant@example.com');
    expect(toKlant.map((m) => m.kind)).toEqual(['confirmation', 'dealer']);

    await storage.rewriteRequest(first.id, '{"rewritten":true}');
    expect((await storage.requestByReference('ref-own'))?.payload).toBe('{"rewritten":true}');
    expect(await storage.rewriteMail(toKlant[1], 'new subject', 'new body')).toBe(0);
    expect((await storage.mailsByLimitKey('klant@example.com'))[1]).toMatchObject({ subject: 'new subject', body: 'new body' });

    const erased = await storage.eraseRequests([first.id]);
    expect(erased).toMatchObject({ requests: 1, photos: 2 });
    expect(erased.mails).toHaveLength(3);
    expect(await storage.photos.read(own.photos[0].name)).toBeUndefined();
    expect(await storage.eraseMails([toKlant[1]])).toEqual({ mails: 1, mailCopies: 0 });
    expect(await storage.mailsByLimitKey('klant@example.com')).toEqual([]);
    await expect(storage.reclaim()).resolves.toEqual({ done: true });
  });

  it("keeps mails' copies while their rows say what they say, and removes them with their rows, counted", async () => {
    const own = await request('ref-own');
    await store(own);
    await store(await request('ref-other'));
    const [first, second] = await storage.requestsAfter(0, 2);
    const [confirmation, desk] = await storage.deliveriesOf([first.id]);
    const [, otherDesk] = await storage.deliveriesOf([second.id]);
    const keep = (row: typeof desk, text = row.body) => storage.mailCopies.keep({ id: row.id, messageId: row.message_id!, subject: row.subject, text }, Buffer.from(`eml of ${row.kind}`));
    const names = async () => (await collect(storage.mailCopies.list())).map((c) => c.name).sort();
    // A row rewritten meanwhile (an erasure took an address out): the copy of what it said before is not kept.
    await keep(otherDesk, 'what it said before');
    expect(await names()).toEqual([]);
    await keep(confirmation);
    await keep(desk);
    await keep(otherDesk);
    expect(await names()).toEqual([confirmation, desk, otherDesk].map((m) => `${m.message_id}.eml`).sort());

    expect(await storage.rewriteMail(otherDesk, 'new subject', 'new body')).toBe(1);
    expect(await storage.eraseRequests([first.id])).toMatchObject({ requests: 1, mailCopies: 2 });
    expect(await names()).toEqual([]);
    // A mail kept after its row was erased leaves no copy: none could ever be found again.
    await keep(confirmation);
    expect(await names()).toEqual([]);
    expect(await storage.mailCopies.sweep()).toBe(0);
    await expect(storage.mailCopies.check()).resolves.toBeUndefined();
  });

  it('finds requests past retention only once their deliveries ended', async () => {
    await store(await request('ref-1'));
    const later = Date.now() + 60_000;
    expect(await storage.expiredRequests(later, 10)).toEqual([]);
    const due = await storage.leaseDue('mail', 10, new Set(), later);
    const hooks = await storage.leaseDue('webhook', 10, new Set(), later);
    await writer.recordDeliveries([...due, ...hooks].map((d) => ({ id: d.id, delivered: true as const })), Date.now());
    expect(await storage.expiredRequests(later, 10)).toHaveLength(1);
  });
});

describe('photos', () => {
  it('keeps bytes until the rows go: unclaimed ones expire, their quota counts per owner', async () => {
    const name = await photo('192.0.2.7', 'abcdef');
    expect(await storage.photos.read(name)).toEqual(Buffer.from('abcdef'));
    expect(await storage.photos.size(name)).toBe(6);
    expect(await storage.photos.unclaimedBytes('192.0.2.7', ['192.0.2.7'])).toEqual({ total: 6, mine: 6, groups: [6] });
    expect(await storage.photos.removeUnclaimedBefore(Date.now() + 1)).toBe(1);
    expect(await storage.photos.read(name)).toBeUndefined();
    expect(await storage.photos.size(name)).toBeUndefined();
  });

  it('counts a network by its owners\' prefix, and makes room by forgetting unclaimed photos of the block holding the most first, the oldest first, never a claimed one', async () => {
    const claimed = await request('ref-claimed');
    await store(claimed);
    const old = await storedPhoto(storage.photos, { bytes: 'aaaa', owner: '192.0.0.0/16 192.0.2.0/24 192.0.2.7', createdAt: Date.now() - 2000 });
    const middle = await storedPhoto(storage.photos, { bytes: 'bbbb', owner: '192.0.0.0/16 192.0.3.0/24 192.0.3.8', createdAt: Date.now() - 1000 });
    const young = await storedPhoto(storage.photos, { bytes: 'cccc', owner: '198.51.0.0/16 198.51.100.0/24 198.51.100.1' });
    expect(await storage.photos.unclaimedBytes('192.0.0.0/16 192.0.2.0/24 192.0.2.7', ['192.0.0.0/16 192.0.2.0/24 ', '192.0.0.0/16 '])).toEqual({ total: 12, mine: 4, groups: [4, 8] });
    const later = Date.now() + 1;
    expect(await storage.photos.evictUnclaimed(5, later)).toEqual({ evicted: 2, oldestLeft: expect.any(Number) });
    expect([await storage.photos.read(old), await storage.photos.read(middle)]).toEqual([undefined, undefined]);
    expect(await storage.photos.read(young)).toEqual(Buffer.from('cccc'));
    expect(await storage.photos.evictUnclaimed(4, later)).toEqual({ evicted: 1, oldestLeft: undefined });
    expect(await storage.photos.evictUnclaimed(100, later)).toEqual({ evicted: 0, oldestLeft: undefined });
    for (const { name } of claimed.photos) expect(await storage.photos.read(name)).toBeDefined();
  });

  it('never forgets a photo made since `before` to make room, and none at all when those older are too few', async () => {
    const now = Date.now();
    const old = await storedPhoto(storage.photos, { bytes: 'aaaa', owner: '10.0.0.0/16 10.0.0.0/24 10.0.0.1', createdAt: now - 60_000 });
    const recent = await storedPhoto(storage.photos, { bytes: 'bbbbbbbb', owner: '192.0.0.0/16 192.0.2.0/24 192.0.2.7', createdAt: now - 1000 });
    // The recent one's block holds the most: still only the old one may go, and 6 bytes it cannot make.
    expect(await storage.photos.evictUnclaimed(6, now - 30_000)).toEqual({ evicted: 0, oldestLeft: now - 60_000 });
    expect([await storage.photos.read(old), await storage.photos.read(recent)]).toEqual([Buffer.from('aaaa'), Buffer.from('bbbbbbbb')]);
    expect(await storage.photos.evictUnclaimed(4, now - 30_000)).toEqual({ evicted: 1, oldestLeft: now - 1000 });
    expect(await storage.photos.read(recent)).toEqual(Buffer.from('bbbbbbbb'));
  });

  it('forgets sooner the unclaimed photos of an owner at its share, and only theirs', async () => {
    const hour = 60 * 60_000;
    const hoarder = '192.0.2.0/24 192.0.2.7';
    const old = [await storedPhoto(storage.photos, { bytes: 'aaaa', owner: hoarder, createdAt: Date.now() - 2 * hour }), await storedPhoto(storage.photos, { bytes: 'bbbb', owner: hoarder, createdAt: Date.now() - 2 * hour })];
    const recent = await storedPhoto(storage.photos, { bytes: 'cccc', owner: hoarder });
    const other = await storedPhoto(storage.photos, { bytes: 'dddd', owner: '198.51.100.0/24 198.51.100.1', createdAt: Date.now() - 2 * hour });
    expect(await storage.photos.removeOverShareBefore(Date.now() - hour, 12)).toBe(2);
    expect(await Promise.all(old.map((name) => storage.photos.read(name)))).toEqual([undefined, undefined]);
    expect(await storage.photos.read(recent)).toEqual(Buffer.from('cccc'));
    expect(await storage.photos.read(other)).toEqual(Buffer.from('dddd'));
    expect(await storage.photos.removeOverShareBefore(Date.now() - hour, 12)).toBe(0);
  });

  it('imports rows with their bytes once', async () => {
    const row = { name: 'imported.jpg', created_at: 1, request_id: null, owner: null, bytes: 3, data: Buffer.from('abc') };
    expect(await storage.photos.import([row])).toBe(1);
    expect(await storage.photos.import([row])).toBe(0);
    expect(await storage.photos.read('imported.jpg')).toEqual(Buffer.from('abc'));
  });
});

describe('a store for the staff commands (existing: true)', () => {
  it('opens the one a server made, and refuses an empty one without making anything in it', async () => {
    const again = await openStorage({ dataDir: dir, databaseUrl: backendUrl, databasePoolSize: 1 }, { existing: true });
    expect(again.description).toBe(storage.description);
    await again.close();

    const empty = await backendEnv();
    const bare = mkdtempSync(join(tmpdir(), 'storage-port-bare-'));
    try {
      const opening = openStorage({ dataDir: bare, databaseUrl: empty.env.DATABASE_URL ?? '', databasePoolSize: 1 }, { existing: true });
      await expect(opening).rejects.toThrow(StoreRefusal);
      await expect(opening).rejects.toMatchObject({ kind: 'missing' });
      const probe = probeDatabase({ dataDir: bare, databaseUrl: empty.env.DATABASE_URL ?? '' });
      if (probe.dialect === 'postgres') expect(await probe.all("SELECT tablename FROM pg_tables WHERE schemaname = 'public'")).toEqual([]);
      else expect(readdirSync(bare)).toEqual([]);
      await probe.close();
    } finally {
      await empty.drop();
      rmSync(bare, { recursive: true, force: true });
    }
  });
});

describe('the database answers', () => {
  it('pings, and names itself without a password', async () => {
    await expect(storage.ping()).resolves.toBeUndefined();
    expect(storage.state.up).toBe(true);
    expect(storage.description).toMatch(/^(SQLite .*requests\.db|PostgreSQL [^:@]+@127\.0\.0\.1:5432\/\w+)$/);
  });
});
