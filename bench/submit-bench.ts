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
 * Deliveries are held back during these loads (MAIL_POLL_INTERVAL_MS of an
 * hour): without SMTP_URL the server mails as .eml files, two fsyncs each, a
 * development transport that took about half the server's CPU per submit on
 * 2 cores; the delivery figures (delivery-bench.ts) measure mail over SMTP and
 * webhooks. One more SQLite run, report-only, delivers its .eml mails beside
 * the load, as a real burst would. BENCH_SUBMITS sets the measured submits per
 * backend (a quick check of the code; the budgets assume the default); BENCH_ONLY
 * picks backends by a part of their label.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { pathToFileURL } from 'node:url';
import sharp from 'sharp';
import { openStorage } from '../src/server/storage/open-storage';
import { simpleRequest } from '../tests/fixtures/requests';
import { freshPostgres } from '../tests/support/backend';
import type { BenchFigure } from './figures';
import { cpuSeconds, spawnServer, startServer, stopChild, type Server } from './server-process';
import { timedLoad, type LoadResult } from './timed-load';

const CONNECTIONS = 50;
const MEASURED_SUBMITS = Number(process.env.BENCH_SUBMITS ?? 40_000);
const WARMUP_SUBMITS = Math.min(3_000, MEASURED_SUBMITS);
const BASELINE_REQUESTS = 60_000;
const SEED_ROWS_PER_INSERT = 500;

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

function requestBody(image1: string, image2: string): string {
  return JSON.stringify({ ...simpleRequest(image1, image2), description: 'De oven wordt niet warm. '.repeat(8) });
}

/** Req/s and p99 of a bare Fastify JSON echo at the same concurrency and body, this run, this machine. */
async function baselineLoad(): Promise<LoadResult> {
  const echo = await spawnServer('bench/baseline-echo.ts', {});
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

/** `amount` submits split evenly over the servers, CONNECTIONS split likewise, all started together. */
function submitLoad(servers: Server[], amount: number, photos: string[]): Promise<LoadResult> {
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
              return {
                ...req,
                headers: { 'content-type': 'application/json', accept: 'application/json', 'idempotency-key': randomUUID() },
                body: requestBody(mine[2 * i], mine[2 * i + 1]),
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
 * CPU seconds used so far by the PostgreSQL backends serving `databaseUrl` (the servers' pool
 * connections, open from the warm-up on; same machine): the processes whose title names the
 * database. The WAL writer and checkpointer are shared with other databases and not counted.
 */
function postgresCpuSeconds(databaseUrl: string): number {
  const database = new URL(databaseUrl).pathname.slice(1);
  let sum = 0;
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    const title = (() => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      } catch {
        return '';
      }
    })();
    // `postgres: [cluster: ]<user> <database> <client> …` (Debian's clusters add their name).
    if (title.startsWith('postgres: ') && title.split(/[\s\0]+/).includes(database)) sum += cpuSeconds(Number(pid));
  }
  return sum;
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
  load: LoadResult;
  detail: string;
}

/** Starts the backend's instances, seeds photos, warms up, measures, and stops them (dropping the database). */
async function measureBackend({ instances, postgres, deliverDuringLoad }: Backend): Promise<SubmitRun> {
  const db = postgres ? await freshPostgres() : undefined;
  const env: Record<string, string> = db ? { DATABASE_URL: db.url, PHOTO_URL_SECRET: randomBytes(24).toString('hex') } : {};
  if (!deliverDuringLoad) env.MAIL_POLL_INTERVAL_MS = String(HOUR_MS);
  const servers: Server[] = [];
  try {
    // One after the other: the first migrates the shared database.
    for (let i = 0; i < instances; i++) servers.push(await startServer(env));
    // Seeded up front: a bench write transaction during the load would stall the server's writes.
    const smallPhoto = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#c0392b' } }).jpeg().toBuffer();
    const photos = await seedPhotos(servers[0].dataDir, 2 * (WARMUP_SUBMITS + MEASURED_SUBMITS), smallPhoto, db?.url);
    await submitLoad(servers, WARMUP_SUBMITS, photos.slice(0, 2 * WARMUP_SUBMITS));
    const busyBefore = loadavg()[0];
    // CPU per submit tells whether the server or the load generator limits the rate on 2 shared cores.
    const serverCpu = () => servers.reduce((sum, s) => sum + cpuSeconds(s.child.pid!), 0);
    const postgresBefore = db ? postgresCpuSeconds(db.url) : 0;
    const [serverBefore, benchBefore, since] = [serverCpu(), process.cpuUsage(), Date.now()];
    const load = await submitLoad(servers, MEASURED_SUBMITS, photos.slice(2 * WARMUP_SUBMITS));
    const serverUs = ((serverCpu() - serverBefore) * 1e6) / load.answered;
    const { user, system } = process.cpuUsage(benchBefore);
    const benchUs = (user + system) / load.answered;
    const postgresUs = db ? ((postgresCpuSeconds(db.url) - postgresBefore) * 1e6) / load.answered : 0;
    const deliveries = await deliveriesSince(servers[0].dataDir, db?.url ?? '', since);
    const durability = postgres ? 'a transaction per submit, synchronous_commit=on' : 'group commit, WAL + synchronous=FULL';
    const split = instances > 1 ? ` (${CONNECTIONS / instances} to each of ${instances} server processes)` : '';
    const detail =
      `${CONNECTIONS} connections${split}, ${load.answered} submits, ${load.failed} not 2xx/errors; p50 ${load.p50} ms, max ${load.max} ms; ` +
      `${durability}; photos pre-registered; ` +
      (deliverDuringLoad
        ? `mails delivered as .eml files during the load: ${deliveries.sent} sent (the oldest first, the warm-up's too), ${deliveries.queued} queued; `
        : `deliveries held back (MAIL_POLL_INTERVAL_MS ${HOUR_MS} ms): ${deliveries.sent} sent during the load, ${deliveries.queued} queued; `) +
      `CPU per submit: server${instances > 1 ? 's' : ''} ${Math.round(serverUs)} µs, load generator ${Math.round(benchUs)} µs` +
      `${postgres ? `, PostgreSQL's backends ${Math.round(postgresUs)} µs` : ''}; 1-min load average before the run ${busyBefore.toFixed(1)} (2 cores shared with the load generator${postgres ? ' and PostgreSQL' : ''})`;
    return { load, detail };
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
    const { load, detail } = await measureBackend(backend);
    baselines.push(await baselineLoad());
    const [before, after] = baselines.slice(-2);
    const baseline = (before.perSecond + after.perSecond) / 2;
    const { label, budgets } = backend;
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
        detail: `bare Fastify JSON echo at ${CONNECTIONS} connections, same body: ${Math.round(before.perSecond)} req/s (p99 ${before.p99} ms) just before, ${Math.round(after.perSecond)} req/s (p99 ${after.p99} ms) just after`,
      },
      {
        name: `${label}: submit p99 latency (${CONNECTIONS} connections)`,
        value: load.p99,
        unit: 'ms',
        budgetKey: budgets.p99,
        better: 'lower',
        detail: `${(load.p99 / ((before.p99 + after.p99) / 2)).toFixed(1)} × the echo baseline's p99`,
      },
    );
  }
  return figures;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  for (const figure of await runSubmitBench()) {
    console.log(`${figure.name}: ${figure.value} ${figure.unit}${figure.detail ? `\n    ${figure.detail}` : ''}`);
  }
}
