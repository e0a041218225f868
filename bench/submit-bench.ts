/**
 * Submit figures of `npm run bench` (also runnable alone: `tsx bench/submit-bench.ts`):
 * durable submits/s and p99 at 50 connections, per storage backend, each
 * beside a bare Fastify echo measured in the same run on the same machine:
 * - SQLite in DATA_DIR (one instance, the default);
 * - PostgreSQL, one instance, on a fresh database;
 * - PostgreSQL, two server processes on one fresh database, 25 connections
 *   each, both loads started together: completed 2xx of both / elapsed, p99
 *   over every answer of both.
 * autocannon posts valid requests with unique Idempotency-Keys; each names two
 * photos registered beforehand straight in the photos table (the bench-only
 * shortcut: no image decoding; a small JPEG each, which the desk's mail
 * attaches), so every submit still runs validation, the photo claim, the
 * outbox inserts and a durable commit before its 201.
 * Each backend is measured as a real day and as an attack, separately: a
 * customer each (distinct mailboxes: the figure with the budget) and one
 * mailbox for all (every submit to the same address, as a flood would); each at
 * 10,000 stored requests and again after 100,000 (seeded straight in storage,
 * delivered a day or more ago, then vacuumed and checkpointed as a database
 * filled over months would be, then a warm-up load), so that a cost growing
 * with the data shows as the ratio of the two rates (one run's two rates, the
 * median of the runs' ratios). PostgreSQL's lines print
 * the WAL, full-page images and buffers each submit cost.
 * Deliveries are held back during these loads (MAIL_POLL_INTERVAL_MS of an
 * hour): without SMTP_URL the server mails as .eml files, two fsyncs each, a
 * development transport that took about half the server's CPU per submit on
 * 2 cores; the delivery figures (delivery-bench.ts) measure mail over SMTP and
 * webhooks. One more SQLite run, report-only, delivers its .eml mails beside
 * the load, as a real burst would. BENCH_SUBMITS sets the measured submits per
 * load (a quick check of the code; the budgets assume the default); BENCH_ONLY
 * picks backends by a part of their label. Each backend is measured BENCH_RUNS
 * times (3 unless set), an echo between runs: each line prints the run with the
 * median CPU per submit, every run's CPU beside it, so that one run disturbed by
 * the machine does not decide a figure.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { fileURLToPath, pathToFileURL } from 'node:url';
import pg from 'pg';
import sharp from 'sharp';
import { openStorage } from '../src/server/storage/open-storage';
import { simpleRequest } from '../tests/fixtures/requests';
import { freshPostgres } from '../tests/support/backend';
import { postgresMessages } from '../tests/support/postgres-messages';
import type { BenchFigure } from './figures';
import { bytesWritten, cpuSeconds, spawnServer, startServer, stopChild, type Server } from './server-process';
import { timedLoad, type LoadResult } from './timed-load';

const CONNECTIONS = 50;
const MEASURED_SUBMITS = Number(process.env.BENCH_SUBMITS ?? 10_000);
const RUNS = Math.max(1, Number(process.env.BENCH_RUNS ?? 3));
const WARMUP_SUBMITS = Math.min(3_000, MEASURED_SUBMITS);
const BASELINE_REQUESTS = 60_000;
const SEED_ROWS_PER_INSERT = 500;
/** Requests stored before the first loads, and before the second. */
const STORED = [10_000, 100_000];
const DAY_MS = 24 * 3_600_000;

/** Photo names registered as uploaded, two per submit to come, each of `bytes` (the desk's mail attaches them). */
export async function seedPhotos(dataDir: string, count: number, bytes: Buffer, databaseUrl = ''): Promise<string[]> {
  const storage = await openStorage({ dataDir, databaseUrl, databasePoolSize: 1 });
  const names = Array.from({ length: count }, () => `${randomUUID()}.jpg`);
  try {
    for (let at = 0; at < names.length; at += SEED_ROWS_PER_INSERT) {
      const rows = names.slice(at, at + SEED_ROWS_PER_INSERT).map((name) => ({ name, created_at: Date.now(), request_id: null, owner: 'bench', bytes: bytes.length, data: bytes }));
      await storage.photos.import(rows);
    }
  } finally {
    await storage.close();
  }
  return names;
}

/**
 * The bench's request, sampled from the form once: sampling takes about 2.5 ms of the load generator's CPU,
 * more than the server's whole submit, and on 2 shared cores it set the rate. Each submit sets its own photos
 * and mailbox in it.
 */
const TEMPLATE = (() => {
  const [photo1, photo2, mailbox] = ['bench-photo-1.jpg', 'bench-photo-2.jpg', 'bench-mailbox@example.com'];
  const request: Record<string, unknown> = { ...simpleRequest(photo1, photo2, mailbox), description: 'De oven wordt niet warm. '.repeat(8) };
  const field = (value: string) => Object.keys(request).find((name) => request[name] === value)!;
  return { request, fields: [field(photo1), field(photo2), field(mailbox)] };
})();

function requestBody(image1: string, image2: string, email = 'klant@example.com'): string {
  const [photo1, photo2, mailbox] = TEMPLATE.fields;
  return JSON.stringify({ ...TEMPLATE.request, [photo1]: image1, [photo2]: image2, [mailbox]: email });
}

/**
 * Stored requests up to `total`, as a past of customers each with their own mailbox: a confirmation and a
 * desk mail each, sent a day or more ago (so none counts against today's limits), straight in storage.
 */
async function seedRequests(dataDir: string, databaseUrl: string, from: number, total: number): Promise<void> {
  const storage = await openStorage({ dataDir, databaseUrl, databasePoolSize: 1 });
  const payload = requestBody(`${randomUUID()}.jpg`, `${randomUUID()}.jpg`);
  const desk = 'Nieuwe aanvraag. '.repeat(60);
  try {
    for (let at = from; at < total; at += SEED_ROWS_PER_INSERT) {
      const sentAt = Date.now() - DAY_MS - 60_000;
      const requests = Array.from({ length: Math.min(SEED_ROWS_PER_INSERT, total - at) }, (_, i) => ({
        id: at + i + 1, reference: `SEED-${at + i}`, brand: 'ilve', variant: 'simple', locale: 'nl', payload, idempotency_key: randomUUID(),
        payload_hash: randomUUID(), created_at: sentAt, form_revision: null,
      }));
      const mails = requests.flatMap((r) =>
        (['confirmation', 'desk'] as const).map((kind, k) => ({
          id: 2 * r.id + k, request_id: r.id, kind, channel: 'mail', recipient: kind === 'desk' ? 'desk@example.com' : `past${r.id}@example.com`,
          limit_key: kind === 'desk' ? null : `past${r.id}@example.com`, subject: kind, body: kind === 'desk' ? desk : 'Bedankt.', attempts: 1,
          next_attempt_at: sentAt, sent_at: sentAt, failed_at: null, last_error: null, message_id: `${r.reference}.${kind}`, queued_at: sentAt, due_at: sentAt, language: 'nl',
        })),
      );
      await storage.transfer.importRequests({ requests, photos: [], mails });
    }
  } finally {
    await storage.close();
  }
  // Stored as if over months: autovacuum would long have gone over those rows. Left to it, it went over the
  // rows seeded in seconds during the next measured load, and that load paid for all of them at once.
  if (databaseUrl) {
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      await client.query('VACUUM (ANALYZE)');
      // Months of checkpoints would long have written those pages out too. Left dirty in shared buffers, the
      // next load's backends wrote them out themselves as they evicted them (over twice the buffers each
      // submit wrote otherwise), and that load paid for the import.
      await client.query('CHECKPOINT');
    } finally {
      await client.end();
    }
  }
}

/** Req/s and p99 of a bare Fastify JSON echo at the same concurrency and body, this run, this machine. */
async function baselineLoad(): Promise<LoadResult> {
  const echo = await spawnServer(['--import', 'tsx', fileURLToPath(new URL('./baseline-echo.ts', import.meta.url))], {});
  try {
    const body = requestBody(`${randomUUID()}.jpg`, `${randomUUID()}.jpg`);
    const run = (amount: number) =>
      timedLoad([
        {
          url: `${echo.url}/echo`,
          connections: CONNECTIONS,
          amount,
          timeout: 10,
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json' },
          body,
        },
      ]);
    await run(BASELINE_REQUESTS / 10);
    return await run(BASELINE_REQUESTS);
  } finally {
    await stopChild(echo.child);
  }
}

/** Who the submits of a load are from: a customer each (a real day), or one mailbox for all (a flood at one address). */
type Mailboxes = 'distinct' | 'one';

let customers = 0;

/** `amount` submits split evenly over the servers, CONNECTIONS split likewise, all started together. */
function submitLoad(servers: Server[], amount: number, photos: string[], mailboxes: Mailboxes = 'distinct'): Promise<LoadResult> {
  const share = Math.ceil(amount / servers.length);
  return timedLoad(
    servers.map((server, s) => {
      const mine = photos.slice(2 * share * s, 2 * share * (s + 1));
      let next = 0;
      return {
        url: server.url,
        connections: CONNECTIONS / servers.length,
        amount: mine.length / 2,
        timeout: 10,
        requests: [
          {
            method: 'POST',
            path: '/api/forms/ilve',
            setupRequest: (req) => {
              const i = next++;
              const email = mailboxes === 'one' ? 'klant@example.com' : `klant${++customers}@example.com`;
              return {
                ...req,
                headers: { 'content-type': 'application/json', accept: 'application/json', 'idempotency-key': randomUUID() },
                body: requestBody(mine[2 * i], mine[2 * i + 1], email),
              };
            },
          },
        ],
      };
    }),
  );
}

interface Backend {
  /** Named in the figures. */
  label: string;
  instances: number;
  postgres: boolean;
  /** Whether the server delivers mails (.eml files) during the load or holds them back until after it. */
  deliverDuringLoad: boolean;
}

const HOUR_MS = 3_600_000;

/**
 * CPU seconds so far of each PostgreSQL process serving `databaseUrl` (the servers' pool connections, and
 * autovacuum's workers on it; same machine): the processes whose title names the database. The WAL writer
 * and checkpointer are shared with other databases and not counted.
 */
function postgresCpu(databaseUrl: string): Map<number, number> {
  const database = new URL(databaseUrl).pathname.slice(1);
  const cpu = new Map<number, number>();
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    const title = (() => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      } catch {
        return '';
      }
    })();
    // `postgres: [cluster: ]<user> <database> <client> …` (Debian's clusters add their name).
    if (title.startsWith('postgres: ') && title.split(/[\s\0]+/).includes(database)) cpu.set(Number(pid), cpuSeconds(Number(pid)));
  }
  return cpu;
}

/** What grew between two readings, per key: a key new since the first grew from nothing (one gone is not counted). */
function growth<K>(before: Map<K, number>, after: Map<K, number>): number {
  let sum = 0;
  for (const [key, value] of after) sum += value - (before.get(key) ?? 0);
  return sum;
}

/**
 * What the cluster has written so far: WAL bytes and full-page images, and buffers written out by the
 * backends themselves (evicting a dirty page to read another) and read in. Cluster-wide: nothing else
 * writes to it during a bench.
 */
async function writesSoFar(databaseUrl: string): Promise<{ walBytes: number; fullPages: number; backendWrites: number; reads: number }> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<Record<string, string>>(
      'SELECT w.wal_bytes, w.wal_fpi, b.buffers_backend, b.buffers_alloc FROM pg_stat_wal w, pg_stat_bgwriter b',
    );
    const [row] = rows;
    return { walBytes: Number(row.wal_bytes), fullPages: Number(row.wal_fpi), backendWrites: Number(row.buffers_backend), reads: Number(row.buffers_alloc) };
  } finally {
    await client.end();
  }
}

/** Deliveries queued since `since` (the measured load's start), and deliveries sent since then (the oldest go first). */
async function deliveriesSince(dataDir: string, databaseUrl: string, since: number): Promise<{ queued: number; sent: number }> {
  const storage = await openStorage({ dataDir, databaseUrl, databasePoolSize: 1 }, { readonly: true });
  try {
    return await storage.deliveriesSince(since);
  } finally {
    await storage.close();
  }
}

interface SubmitRun {
  mailboxes: Mailboxes;
  stored: number;
  load: LoadResult;
  /** CPU per submit in µs: the servers' and PostgreSQL's backends' (0 on SQLite) together. */
  cpuUs: number;
  detail: string;
}

/** Starts the backend's instances, seeds photos and stored requests, warms up, measures each load, and stops them (dropping the database). */
async function measureBackend({ instances, postgres, deliverDuringLoad }: Backend): Promise<SubmitRun[]> {
  const db = postgres ? await freshPostgres() : undefined;
  const env: Record<string, string> = db ? { DATABASE_URL: db.url, PHOTO_URL_SECRET: randomBytes(24).toString('hex') } : {};
  if (!deliverDuringLoad) env.MAIL_POLL_INTERVAL_MS = String(HOUR_MS);
  const servers: Server[] = [];
  const runs: SubmitRun[] = [];
  try {
    // One after the other: the first migrates the shared database.
    for (let i = 0; i < instances; i++) servers.push(await startServer(env));
    const mailboxes: Mailboxes[] = ['distinct', 'one'];
    // Seeded up front: a bench write transaction during the load would stall the server's writes.
    const smallPhoto = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#c0392b' } }).jpeg().toBuffer();
    const photos = await seedPhotos(servers[0].dataDir, 2 * STORED.length * (WARMUP_SUBMITS + mailboxes.length * MEASURED_SUBMITS), smallPhoto, db?.url);
    let used = 0;
    const take = (submits: number) => photos.slice(2 * used, 2 * (used += submits));
    let stored = 0;
    for (const target of STORED) {
      await seedRequests(servers[0].dataDir, db?.url ?? '', stored, target);
      stored = target;
      // After each seeding, as a server that has long held that many: the seeded rows came in through another
      // connection, so the server's caches (and PostgreSQL's buffers) hold none of what a submit reads.
      await submitLoad(servers, WARMUP_SUBMITS, take(WARMUP_SUBMITS));
      stored += WARMUP_SUBMITS;
      for (const mailbox of mailboxes) {
        const busyBefore = loadavg()[0];
        // CPU per submit tells whether the server or the load generator limits the rate on 2 shared cores.
        const serverCpu = () => servers.reduce((sum, s) => sum + cpuSeconds(s.child.pid!), 0);
        const pids = servers.map((server) => server.child.pid!);
        const [postgresBefore, messagesBefore] = db ? [postgresCpu(db.url), postgresMessages(pids)] : [new Map(), new Map()];
        const clusterBefore = db && (await writesSoFar(db.url));
        const serverWrites = () => servers.reduce((sum, s) => sum + bytesWritten(s.child.pid!), 0);
        const [serverBefore, writesBefore, benchBefore, since] = [serverCpu(), serverWrites(), process.cpuUsage(), Date.now()];
        const load = await submitLoad(servers, MEASURED_SUBMITS, take(MEASURED_SUBMITS), mailbox);
        const serverUs = ((serverCpu() - serverBefore) * 1e6) / load.answered;
        const writtenKb = (serverWrites() - writesBefore) / 1000 / load.answered;
        const { user, system } = process.cpuUsage(benchBefore);
        const benchUs = (user + system) / load.answered;
        const postgresUs = db ? (growth(postgresBefore, postgresCpu(db.url)) * 1e6) / load.answered : 0;
        const roundTrips = db ? growth(messagesBefore, postgresMessages(pids)) / load.answered : 0;
        const clusterAfter = db && (await writesSoFar(db.url));
        const perSubmit = (key: 'walBytes' | 'fullPages' | 'backendWrites' | 'reads') =>
          clusterBefore && clusterAfter ? (clusterAfter[key] - clusterBefore[key]) / load.answered : 0;
        const pages =
          `; per submit: WAL ${(perSubmit('walBytes') / 1000).toFixed(1)} kB with ${perSubmit('fullPages').toFixed(2)} full-page images, ` +
          `${perSubmit('reads').toFixed(2)} buffers read in, ${perSubmit('backendWrites').toFixed(2)} written out by the backends`;
        const deliveries = await deliveriesSince(servers[0].dataDir, db?.url ?? '', since);
        const durability = postgres ? 'the submits of one turn in one transaction, synchronous_commit=on' : 'group commit, WAL + synchronous=FULL';
        const split = instances > 1 ? ` (${CONNECTIONS / instances} to each of ${instances} server processes)` : '';
        const detail =
          `${CONNECTIONS} connections${split}, ${load.answered} submits, ${load.failed} not 2xx/errors; p50 ${load.p50} ms, max ${load.max} ms; ` +
          `${durability}; photos pre-registered; ` +
          (deliverDuringLoad
            ? `mails delivered as .eml files during the load: ${deliveries.sent} sent (the oldest first, the warm-up's too), ${deliveries.queued} queued; `
            : `deliveries held back (MAIL_POLL_INTERVAL_MS ${HOUR_MS} ms): ${deliveries.sent} sent during the load, ${deliveries.queued} queued; `) +
          `CPU per submit: server${instances > 1 ? 's' : ''} ${Math.round(serverUs)} µs` +
          `${postgres ? ` + PostgreSQL's backends ${Math.round(postgresUs)} µs = ${Math.round(serverUs + postgresUs)} µs; messages (round trips) to PostgreSQL per submit ${roundTrips.toFixed(1)}${pages}` : ''}` +
          `; load generator ${Math.round(benchUs)} µs;${postgres ? '' : ` written to disk per submit (the WAL, checkpoints, files) ${writtenKb.toFixed(1)} kB;`} 1-min load average before the run ${busyBefore.toFixed(1)} (2 cores shared with the load generator${postgres ? ' and PostgreSQL' : ''})`;
        runs.push({ mailboxes: mailbox, stored, load, cpuUs: serverUs + postgresUs, detail });
        stored += load.answered;
      }
    }
    return runs;
  } finally {
    await Promise.all(servers.map((s) => s.stop()));
    await db?.drop();
  }
}

const BACKENDS: (Backend & { budgets: { perSecond?: string; perBaseline?: string; p99?: string } })[] = [
  {
    label: 'SQLite, deliveries held back',
    instances: 1,
    postgres: false,
    deliverDuringLoad: false,
    budgets: { perBaseline: 'server.submitsPerBaseline', p99: 'server.submitP99Ms' },
  },
  { label: 'SQLite, mails delivered (.eml files) during the load', instances: 1, postgres: false, deliverDuringLoad: true, budgets: {} },
  { label: 'PostgreSQL, one instance, deliveries held back', instances: 1, postgres: true, deliverDuringLoad: false, budgets: {} },
  {
    label: 'PostgreSQL, two instances, deliveries held back',
    instances: 2,
    postgres: true,
    deliverDuringLoad: false,
    budgets: { perSecond: 'server.postgresTwoInstancesSubmitsPerSecond' },
  },
];

export async function runSubmitBench(): Promise<BenchFigure[]> {
  // The echo runs before the first backend, between backends and after the last, never beside a
  // server (measured beside one, it shared the CPU with the server's deliveries draining): each
  // backend is compared with the echo just before and just after it, so a change in the
  // machine's load shows as a spread.
  const baselines = [await baselineLoad()];
  const figures: BenchFigure[] = [];
  // BENCH_ONLY=postgres (any part of a label, case-insensitive) measures only the backends it names.
  const only = process.env.BENCH_ONLY?.toLowerCase();
  for (const backend of BACKENDS.filter((b) => !only || b.label.toLowerCase().includes(only))) {
    const repeats: SubmitRun[][] = [];
    for (let r = 0; r < RUNS; r++) {
      repeats.push(await measureBackend(backend));
      baselines.push(await baselineLoad());
    }
    // Of the same line measured in several runs, the run with the median CPU per submit.
    const runs = repeats[0].map((_, line) => median(repeats.map((repeat) => repeat[line]), (run) => run.cpuUs));
    const echoes = baselines.slice(-RUNS - 1);
    const baseline = echoes.reduce((sum, e) => sum + e.perSecond, 0) / echoes.length;
    const baselineP99 = echoes.reduce((sum, e) => sum + e.p99, 0) / echoes.length;
    const echo =
      `bare Fastify JSON echo at ${CONNECTIONS} connections, same body, before, between and after the ${RUNS} runs: ` +
      `${echoes.map((e) => Math.round(e.perSecond)).join(' / ')} req/s (p99 ${echoes.map((e) => e.p99).join(' / ')} ms)`;
    for (const [line, { mailboxes, stored, load, cpuUs, detail }] of runs.entries()) {
      // The real day at the first size carries the budgets; the others are printed beside them.
      const budgets = mailboxes === 'distinct' && stored === runs[0].stored ? backend.budgets : {};
      const label = `${backend.label}, ${mailboxes === 'distinct' ? 'a mailbox per customer' : 'one mailbox for all'}, ${stored.toLocaleString('en')} stored`;
      figures.push(
        {
          name: `${label}: durable submits per second (${CONNECTIONS} connections, completed / elapsed)`,
          value: Math.round(load.perSecond),
          unit: 'req/s',
          budgetKey: budgets.perSecond,
          better: 'higher',
          detail,
        },
        {
          name: `${label}: durable submits per second ÷ same-run Fastify echo baseline`,
          value: Math.round((load.perSecond / baseline) * 1000) / 1000,
          unit: '',
          budgetKey: budgets.perBaseline,
          better: 'higher',
          detail: echo,
        },
        {
          name: `${label}: submit p99 latency (${CONNECTIONS} connections)`,
          value: load.p99,
          unit: 'ms',
          budgetKey: budgets.p99,
          better: 'lower',
          detail: `${(load.p99 / baselineP99).toFixed(1)} × the echo baseline's p99`,
        },
        {
          name: `${label}: CPU per submit, server${backend.instances > 1 ? 's' : ''}${backend.postgres ? " + PostgreSQL's backends" : ''} (median of ${RUNS} runs)`,
          value: Math.round(cpuUs),
          unit: 'µs',
          better: 'lower',
          detail: `each run: ${repeats.map((repeat) => Math.round(repeat[line].cpuUs)).join(' / ')} µs; this line's other figures are the median run's`,
        },
      );
    }
    // Growth with the data: the rate after STORED[1] stored over the rate at STORED[0], per kind of load, each
    // run's two rates compared with each other. The lines' median runs may be different runs, and this machine's
    // speed drifted between runs by up to half (the echo between them): a ratio across runs measured that drift.
    for (const mailboxes of ['distinct', 'one'] as const) {
      const ratios = repeats.flatMap((repeat) => {
        const [small, large] = [repeat.find((r) => r.mailboxes === mailboxes), repeat.findLast((r) => r.mailboxes === mailboxes)];
        return small && large && small !== large ? [{ small, large, ratio: large.load.perSecond / small.load.perSecond }] : [];
      });
      if (ratios.length === 0) continue;
      const { small, large } = ratios[0];
      const round = (ratio: number) => Math.round(ratio * 100) / 100;
      figures.push({
        name: `${backend.label}, ${mailboxes === 'distinct' ? 'a mailbox per customer' : 'one mailbox for all'}: submits/s with ${large.stored.toLocaleString('en')} stored ÷ with ${small.stored.toLocaleString('en')} (median of ${ratios.length} runs)`,
        value: round(median(ratios, (r) => r.ratio).ratio),
        unit: '',
        better: 'higher',
        detail: `each run, its two rates: ${ratios.map((r) => `${Math.round(r.large.load.perSecond)} ÷ ${Math.round(r.small.load.perSecond)} = ${round(r.ratio)}`).join('; ')}`,
      });
    }
  }
  return figures;
}

/** The item with the median `by` (the lower middle of an even count). */
function median<T>(items: T[], by: (item: T) => number): T {
  return [...items].sort((a, b) => by(a) - by(b))[Math.floor((items.length - 1) / 2)];
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  for (const figure of await runSubmitBench()) {
    console.log(`${figure.name}: ${figure.value} ${figure.unit}${figure.detail ? `\n    ${figure.detail}` : ''}`);
  }
}
