import { execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { freePort } from './free-port';

/**
 * A PostgreSQL server of the test's own (initdb in a temp folder, its own
 * port), made with the machine's PostgreSQL binaries, so a test can stop,
 * restart and cut it without touching the server other tests share. initdb
 * refuses root: as root it runs as the `postgres` user.
 */
export interface PrivatePostgres {
  /** postgres://… of a database made for the test. */
  url: string;
  /** The server's data folder (base/<database oid>/ holds the tables' files). */
  dataDir: string;
  /** Ends every connection to the test's database, as a failover or a pooler's idle timeout does. */
  terminateConnections(): Promise<number>;
  /** `pg_ctl restart -m fast`: connections end with 57P01, new ones are refused while it starts. */
  restart(): Promise<void>;
  /** `pg_ctl stop -m immediate`, then a start: a crash, every backend killed; the start replays the WAL. */
  crash(): Promise<void>;
  stop(): Promise<void>;
  start(): Promise<void>;
  /** Stops it and removes its folder. */
  remove(): void;
}

/** The folder of the newest installed PostgreSQL's binaries, if any. */
export function postgresBinaries(): string | undefined {
  const base = '/usr/lib/postgresql';
  if (!existsSync(base)) return undefined;
  const newest = readdirSync(base).sort((a, b) => Number(b) - Number(a))[0];
  return newest && existsSync(join(base, newest, 'bin', 'initdb')) ? join(base, newest, 'bin') : undefined;
}

export async function privatePostgres(): Promise<PrivatePostgres> {
  const bin = postgresBinaries();
  if (!bin) throw new Error('no PostgreSQL binaries under /usr/lib/postgresql');
  const dir = mkdtempSync(join(tmpdir(), 'private-pg-'));
  const asRoot = userInfo().uid === 0;
  if (asRoot) chownSync(dir, Number(execFileSync('id', ['-u', 'postgres']).toString()), Number(execFileSync('id', ['-g', 'postgres']).toString()));
  const command = (tool: string, args: string[]): [string, string[]] =>
    asRoot ? ['runuser', ['-u', 'postgres', '--', join(bin, tool), ...args]] : [join(bin, tool), args];
  const run = (tool: string, args: string[]) => execFileSync(...command(tool, args), { stdio: 'pipe' });
  const port = await freePort();
  const data = join(dir, 'data');
  run('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync']);
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c max_connections=60`;
  const ctlArgs = (args: string[]) => ['-D', data, '-l', join(dir, 'log'), '-w', '-t', '60', ...args];
  // Asynchronous, so the test's own load goes on while PostgreSQL stops and starts.
  const ctl = async (...args: string[]) => void (await promisify(execFile)(...command('pg_ctl', ctlArgs(args))));
  run('pg_ctl', ctlArgs(['-o', options, 'start']));
  const admin = `postgres://postgres@127.0.0.1:${port}/postgres`;
  const name = 'portal_faults';
  await query(admin, `CREATE DATABASE ${name}`);
  return {
    url: `postgres://postgres@127.0.0.1:${port}/${name}`,
    dataDir: data,
    async terminateConnections() {
      const rows = await query(admin, `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '${name}' AND pid <> pg_backend_pid()`);
      return rows.length;
    },
    restart: () => ctl('-o', options, '-m', 'fast', 'restart'),
    async crash() {
      await ctl('-m', 'immediate', 'stop');
      await ctl('-o', options, 'start');
    },
    stop: () => ctl('-m', 'fast', 'stop'),
    start: () => ctl('-o', options, 'start'),
    remove() {
      try {
        run('pg_ctl', ctlArgs(['-m', 'immediate', 'stop']));
      } catch {
        // not running
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function query(url: string, text: string): Promise<unknown[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(text)).rows;
  } finally {
    await client.end();
  }
}

/** The folder of the test database's table files (base/<oid>), once a checkpoint has written every change to them. */
export async function checkpointedTableFiles(db: Pick<PrivatePostgres, 'url' | 'dataDir'>): Promise<string> {
  const client = new pg.Client({ connectionString: db.url });
  await client.connect();
  try {
    const { rows } = await client.query<{ oid: number }>('SELECT oid FROM pg_database WHERE datname = current_database()');
    await client.query('CHECKPOINT');
    return join(db.dataDir, 'base', String(rows[0].oid));
  } finally {
    await client.end();
  }
}
