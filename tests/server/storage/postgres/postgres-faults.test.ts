/**
 * PostgreSQL as the world treats it: connections ended under load (a
 * failover, a pooler's idle timeout: pg_terminate_backend), a restart, a crash
 * (every backend killed, the WAL replayed), and an outage of 30 s. The server runs as its own process on a PostgreSQL server
 * of the test's own, so cutting it disturbs no other test. What must hold: the
 * instance never falls over, nothing answered 201 is lost, a customer sees
 * 201 or 503 with Retry-After (never a 500), deliveries carry on afterwards,
 * and an outage is told in the log once, not once per attempt.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import pg from 'pg';
import { BACKEND } from '../../../support/backend';
import { freePort } from '../../../support/free-port';
import { privatePostgres, type PrivatePostgres } from '../../../support/private-postgres';
import { spawnServer, type ServerProcess } from '../../../support/server-process';
import { png, simpleRequest, uploadPhoto } from '../../helpers';

const SECRET = 'test-photo-link-secret-of-32-characters!';

interface Load {
  statuses: Map<string, number>;
  /** 503s that came without Retry-After. */
  without: number;
  acknowledged: string[];
  stop(): Promise<void>;
}

/** A person's pace between tries, and the outage's probing rate: never a wait for something to happen. */
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Waits until the customers have had `more` requests acknowledged since now: the load is flowing. */
async function acknowledgedMore(load: Load, more: number): Promise<void> {
  const target = load.acknowledged.length + more;
  await expect.poll(() => load.acknowledged.length, { timeout: 60_000, interval: 50 }).toBeGreaterThanOrEqual(target);
}

/** `workers` customers at once, each uploading two photos and sending, again and again; a 503 is tried again shortly, as a person would. */
function customers(url: string, workers: number, photo: Buffer): Load {
  const load: Load = { statuses: new Map(), without: 0, acknowledged: [], stop: async () => {} };
  let running = true;
  const seen = (step: string, res: Response) => {
    const key = `${step} ${res.status}`;
    load.statuses.set(key, (load.statuses.get(key) ?? 0) + 1);
    if (res.status === 503 && !res.headers.get('retry-after')) load.without++;
  };
  const attempt = async <T>(step: string, call: () => Promise<Response>, read: (res: Response) => Promise<T>): Promise<T | undefined> => {
    while (running) {
      const res = await call().catch(() => undefined);
      if (!res) {
        load.statuses.set(`${step} no answer`, (load.statuses.get(`${step} no answer`) ?? 0) + 1);
        await pause(100);
        continue;
      }
      seen(step, res);
      if (res.status === 201) return read(res);
      await res.arrayBuffer();
      await pause(100);
    }
    return undefined;
  };
  const one = async () => {
    while (running) {
      const name = (res: Response) => res.json().then((b) => (b as { filename: string }).filename);
      const image1 = await attempt('upload', () => uploadPhoto(url, photo, 'a.png', 'image/png'), name);
      const image2 = await attempt('upload', () => uploadPhoto(url, photo, 'b.png', 'image/png'), name);
      if (!image1 || !image2) return;
      const key = crypto.randomUUID();
      const body = JSON.stringify(simpleRequest(image1, image2));
      const send = () =>
        fetch(`${url}/api/forms/ilve`, {
          method: 'POST',
          body,
          headers: { 'content-type': 'application/json', accept: 'application/json', 'idempotency-key': key },
        });
      const reference = await attempt('submit', send, (res) => res.json().then((b) => (b as { reference: string }).reference));
      if (reference) load.acknowledged.push(reference);
    }
  };
  const all = Promise.all(Array.from({ length: workers }, one));
  load.stop = async () => {
    running = false;
    await all;
  };
  return load;
}

async function storedReferences(url: string): Promise<Set<string>> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return new Set((await client.query<{ reference: string }>('SELECT reference FROM requests')).rows.map((r) => r.reference));
  } finally {
    await client.end();
  }
}

/** Hits the submit rate limit's counters hold (a client's window of the submit route each; the tests share one window). */
async function submitCounts(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return Number((await client.query(`SELECT coalesce(sum(hits), 0) AS n FROM rate_limits WHERE key LIKE 'POST/api/forms/:brand-%'`)).rows[0].n);
  } finally {
    await client.end();
  }
}

async function pendingDeliveries(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return Number((await client.query('SELECT count(*) AS n FROM outbox WHERE sent_at IS NULL AND failed_at IS NULL')).rows[0].n);
  } finally {
    await client.end();
  }
}

/** Log lines as JSON objects (pino), from `from` on. */
function logLines(server: ServerProcess, from = 0): { level: number; msg: string; err?: { stack?: string } }[] {
  return server
    .output()
    .slice(from)
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as { level: number; msg: string });
}

describe.runIf(BACKEND === 'postgres')('PostgreSQL faults under load', { timeout: 180_000 }, () => {
  let db: PrivatePostgres;
  let server: ServerProcess;
  let photo: Buffer;

  beforeAll(async () => {
    db = await privatePostgres();
    photo = await png();
  }, 120_000);

  // An instance of its own per fault: one that fell over in one test does not hide what the next finds.
  beforeEach(async () => {
    server = await spawnServer(await freePort(), {
      DATABASE_URL: db.url,
      PHOTO_URL_SECRET: SECRET,
      DATABASE_POOL_SIZE: '4',
      LOG_LEVEL: 'info',
      RATE_LIMIT_UPLOADS: '100000',
      RATE_LIMIT_SUBMITS: '100000',
      MAX_CONNECTIONS_PER_CLIENT: '10000',
      PHOTO_DECODE_PER_CLIENT: '1000',
      PHOTO_QUOTA_PER_CLIENT_MB: '100000',
      MAILS_PER_CLIENT_PER_HOUR: '100000',
      MAIL_POLL_INTERVAL_MS: '50',
      MAIL_RETRY_BASE_MS: '100',
      METRICS_TOKEN: 'scrape-token',
      // Rows taken by a call whose answer the cut connection lost stay leased this long (default 5 min).
      WEBHOOK_TIMEOUT_MS: '1000',
      DELIVERY_LEASE_MS: '2000',
    });
  }, 120_000);

  afterEach(() => server?.stop());
  afterAll(() => db?.remove());

  /** What every fault must leave: the instance up, no 500, every 201 stored, every delivery made. */
  async function expectNothingLost(fault: string, load: Load) {
    expect(server.child.exitCode, server.log()).toBeNull();
    const statuses = Object.fromEntries(load.statuses);
    expect(Object.keys(statuses).filter((k) => !/ (201|503)$/.test(k)), JSON.stringify(statuses)).toEqual([]);
    expect(load.without).toBe(0);
    expect(load.acknowledged.length).toBeGreaterThan(10);
    const stored = await storedReferences(db.url);
    expect(load.acknowledged.filter((r) => !stored.has(r))).toEqual([]);
    await expect.poll(() => pendingDeliveries(db.url), { timeout: 60_000, interval: 250 }).toBe(0);
    expect((await fetch(`${server.url}/readyz`)).status).toBe(200);
    console.log(`${fault}: ${load.acknowledged.length} acknowledged, all stored and delivered; answers ${JSON.stringify(Object.fromEntries(load.statuses))}`);
  }

  it('every connection ended five times under load: no crash, no 500, nothing acknowledged lost', async () => {
    const load = customers(server.url, 8, photo);
    let ended = 0;
    for (let i = 0; i < 5; i++) {
      await acknowledgedMore(load, 2);
      ended += await db.terminateConnections();
    }
    await acknowledgedMore(load, 2);
    await load.stop();
    expect(ended).toBeGreaterThan(5);
    await expectNothingLost(`pg_terminate_backend ×5 (${ended} connections ended)`, load);
  });

  it('a restart under load: no crash, no 500, nothing acknowledged lost; the log says it went once and came back once', async () => {
    const load = customers(server.url, 8, photo);
    await acknowledgedMore(load, 3);
    const from = server.output().length;
    await db.restart();
    await acknowledgedMore(load, 8);
    await load.stop();
    await expectNothingLost('restart', load);
    const changes = logLines(server, from).filter((l) => /^database /.test(l.msg)).map((l) => l.msg.replace(/\d+(\.\d+)? s/, 'N s'));
    expect(changes).toEqual(['database unreachable', 'database back after N s']);
  });

  it('a crash under load (immediate stop, the WAL replayed): nothing acknowledged lost; the counters, committed without waiting, may be short, never over', async () => {
    const countedBefore = await submitCounts(db.url);
    const load = customers(server.url, 8, photo);
    await acknowledgedMore(load, 3);
    await db.crash();
    await acknowledgedMore(load, 8);
    await load.stop();
    await expectNothingLost('crash', load);
    // An answered submit was counted at most once: a crash may forgive the last counts (they commit with
    // synchronous_commit=off, and a 503 while it was down counted nothing), never add one.
    const asked = [...load.statuses].filter(([k]) => k.startsWith('submit ')).reduce((n, [, v]) => n + v, 0);
    const counted = (await submitCounts(db.url)) - countedBefore;
    expect(counted).toBeGreaterThan(0);
    expect(counted).toBeLessThanOrEqual(asked);
    console.log(`crash: ${asked} submits answered (${load.acknowledged.length} with 201), ${counted} counted (a 503 while it was down may count nothing)`);
  });

  it('an outage of 30 s: every database route answers 503 with Retry-After, metrics say so, the log says it once, and it recovers', async () => {
    const from = server.output().length;
    await db.stop();
    const stoppedAt = Date.now();
    const seen = new Map<string, Set<string>>();
    const note = (what: string, res: Response, extra = '') => {
      const set = seen.get(what) ?? new Set<string>();
      set.add(`${res.status}${res.status === 503 ? (res.headers.get('retry-after') ? ' retry-after' : ' NO retry-after') : ''}${extra}`);
      seen.set(what, set);
    };
    let probes = 0;
    while (Date.now() - stoppedAt < 30_000) {
      const upload = await uploadPhoto(server.url, photo, 'a.png', 'image/png');
      note('upload', upload);
      const submit = await fetch(`${server.url}/api/forms/ilve`, {
        method: 'POST',
        body: JSON.stringify(simpleRequest(`${crypto.randomUUID()}.png`, `${crypto.randomUUID()}.png`)),
        headers: { 'content-type': 'application/json', 'idempotency-key': crypto.randomUUID() },
      });
      note('submit', submit);
      note('readyz', await fetch(`${server.url}/readyz`));
      const metrics = await fetch(`${server.url}/metrics`, { headers: { authorization: 'Bearer scrape-token' } });
      note('metrics', metrics, (await metrics.text()).includes('portal_database_up 0') ? ' down' : ' no gauge');
      note('page', await fetch(`${server.url}/ilve/nl/be`));
      probes++;
      await pause(1000);
    }
    const during = logLines(server, from);
    await db.start();
    const startedAt = Date.now();
    let recovered: number | undefined;
    while (recovered === undefined && Date.now() - startedAt < 30_000) {
      const res = await uploadPhoto(server.url, photo, 'a.png', 'image/png');
      if (res.status === 201) recovered = Date.now() - startedAt;
      else await pause(50);
    }
    const after = logLines(server, from);

    expect(Object.fromEntries([...seen].map(([k, v]) => [k, [...v].sort()]))).toEqual({
      upload: ['503 retry-after'],
      submit: ['503 retry-after'],
      readyz: ['503 retry-after'],
      metrics: ['200 down'],
      page: ['200'],
    });
    expect(server.child.exitCode).toBeNull();
    expect(recovered).toBeDefined();
    // Said once: unreachable when it went, back when it came; a line per refused request at most.
    const changes = after.filter((l) => /database (unreachable|back)/.test(l.msg)).map((l) => l.msg.replace(/\d+(\.\d+)? s/, 'N s'));
    expect(changes).toEqual(['database unreachable', 'database back after N s']);
    const errors = during.filter((l) => l.level >= 50);
    expect(errors.length, JSON.stringify(errors)).toBeLessThanOrEqual(1);
    expect(during.filter((l) => l.err?.stack).length).toBeLessThanOrEqual(1);
    expect(during.filter((l) => l.level >= 40).length).toBeLessThanOrEqual(4 * probes + 5);
    console.log(`outage: ${probes} probe rounds in 30 s, ${during.length} log lines (${during.filter((l) => l.level >= 40).length} at warn or above), recovered ${recovered} ms after the start`);
  });
});
