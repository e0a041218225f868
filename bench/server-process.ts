/**
 * The real intake server (and the echo baseline) as processes of their own on
 * 127.0.0.1, so a load generator in the bench process does not share their
 * event loop. Used by the server, submit and delivery benches. The server runs
 * as it ships: compiled as `npm run build:server` compiles it, on plain Node.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildServer } from '../src/cli/build-server';
import { freePort } from '../tests/support/free-port';
import { SPEC_DATA_ENV } from '../tests/support/data-folders';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** The defaults package.json's start script gives the server (`NAME=${NAME:-value}`): the bench measures it as npm start runs it. */
const START_DEFAULTS: Record<string, string> = Object.fromEntries(
  [...(JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: { start: string } }).scripts.start.matchAll(/(\w+)=\$\{\1:-([^}]*)\}/g)].map(
    ([, name, value]) => [name, value],
  ),
);

export interface Server {
  url: string;
  port: number;
  dataDir: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

let shipped: Promise<string[]> | undefined;

/**
 * Node's arguments that run the server as it ships (its main(), as `npm start` calls it, without the start
 * checks, which want a full web build), compiled once per bench run from the working tree. From source under
 * tsx it cost more CPU a request than it ships with (tsx's loader, and esbuild's keep-names helper at every
 * function made while a request is handled: 18% of composing a desk mail), and the figures measured that.
 * Built in the project (dist/bench-server), where its imports find node_modules and its default folders.
 */
export function shippedServer(): Promise<string[]> {
  const outdir = join(ROOT, 'dist/bench-server');
  // A file of its own, not --eval: the SQLite writer thread starts with the process's Node arguments.
  const entry = join(outdir, 'bench-main.mjs');
  return (shipped ??= buildServer(outdir).then(() => {
    writeFileSync(entry, "import { main } from './server.js';\nawait main();\n");
    return [entry];
  }));
}

/** Spawns a server (Node's arguments: a TypeScript script under tsx, or shippedServer()) on a free port and waits for its /healthz. */
export async function spawnServer(args: readonly string[], env: NodeJS.ProcessEnv): Promise<{ url: string; port: number; child: ChildProcess }> {
  const port = await freePort();
  // BENCH_SERVER_NODE_ARGS (e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof") profiles the server side.
  const nodeArgs = process.env.BENCH_SERVER_NODE_ARGS?.split(' ').filter(Boolean) ?? [];
  const child = spawn(process.execPath, [...nodeArgs, ...args], {
    cwd: ROOT,
    env: { ...START_DEFAULTS, ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    if (child.exitCode !== null) throw new Error(`the server (${args.at(-1)}) exited with ${child.exitCode}`);
    if (await fetch(`${url}/healthz`).then((r) => r.ok, () => false)) break;
    if (i > 300) throw new Error(`the server (${args.at(-1)}) did not start`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return { url, port, child };
}

export function stopChild(child: ChildProcess): Promise<unknown> {
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  return exited;
}

/**
 * The real server as its own process, with a temp DATA_DIR and a stub web root;
 * `env` adds to (or overrides) the bench's settings (DATABASE_URL for PostgreSQL).
 */
export async function startServer(env: Record<string, string> = {}): Promise<Server> {
  const root = mkdtempSync(join(tmpdir(), 'server-bench-'));
  const webRoot = join(root, 'web');
  mkdirSync(join(webRoot, 'assets'), { recursive: true });
  writeFileSync(join(webRoot, 'index.html'), '<!doctype html><title>bench</title>');
  const dataDir = join(root, 'data');
  const { url, port, child } = await spawnServer(await shippedServer(), {
    DATA_DIR: dataDir,
    WEB_ROOT: webRoot,
    // The spec's brands and data, which the bench's requests are made for (tests/fixtures/requests.ts).
    ...SPEC_DATA_ENV,
    RATE_LIMIT_SUBMITS: '100000000',
    RATE_LIMIT_UPLOADS: '100000000',
    // The load generator is every client at once, from one address.
    MAX_CONNECTIONS_PER_CLIENT: '0',
    PHOTO_DECODE_PER_CLIENT: '100000',
    PHOTO_DECODE_QUEUE: '100000',
    PHOTO_QUOTA_PER_CLIENT_MB: '1000000',
    MAILS_PER_CLIENT_PER_HOUR: '100000',
    // A load of thousands of customers a minute: at the brand's default budget (1,000 an hour) all mails after
    // the first thousand would wait for later hours, and the figures would measure that path (the mail-cap
    // tests hold it), not a day's submits.
    MAILS_PER_BRAND_PER_HOUR: '100000000',
    DEALER_MAILS_PER_BRAND_PER_HOUR: '100000000',
    PHOTO_QUOTA_TOTAL_MB: '1000000',
    MIN_FREE_DISK_MB: '0',
    LOG_LEVEL: 'warn',
    ...env,
  });
  return {
    url,
    port,
    dataDir,
    child,
    async stop() {
      await stopChild(child);
      rmSync(root, { recursive: true, force: true });
    },
  };
}

/** CPU seconds (user + system, all threads) a process has used so far. */
export function cpuSeconds(pid: number): number {
  // Fields after the command name: utime and stime are the 12th and 13th, in clock ticks (100/s).
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** Bytes a process has caused to be written to storage so far (its page cache writes included). */
export function bytesWritten(pid: number): number {
  const line = readFileSync(`/proc/${pid}/io`, 'utf8').split('\n').find((l) => l.startsWith('write_bytes:'));
  return Number(line?.split(/\s+/)[1] ?? 0);
}
