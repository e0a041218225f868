/**
 * The real intake server (src/server/server.ts, as `npm start` runs it) on a
 * free port with a temporary DATA_DIR and the fake PDOK behind
 * ADDRESS_LOOKUP_URL. One per test file.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { startFakePdok, type FakePdok } from './fake-pdok';
import { ROOT, SPEC_BUILD } from './paths';
import { freePort } from '../../support/free-port';

export interface Portal {
  baseUrl: string;
  dataDir: string;
  pdok: FakePdok;
  /** Server output so far, for failure messages. */
  log(): string;
  /** Stored requests (parsed payloads) whose payload mentions `needle`. */
  storedRequests(needle: string): Record<string, unknown>[];
  /** Contents of .eml files in DATA_DIR/outbox that mention `needle`. */
  outboxMails(needle: string): string[];
  /** Forgets an unclaimed photo as the server does when it expires or makes room (its row; the file is left to the start-up tidy). */
  forgetPhoto(name: string): void;
  stop(): Promise<void>;
}


async function waitUntilUp(url: string, child: ChildProcess, log: () => string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`intake server exited with ${child.exitCode}:\n${log()}`);
    try {
      const res = await fetch(`${url}/healthz`);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 150));
  }
  throw new Error(`intake server did not answer /healthz within ${timeoutMs} ms:\n${log()}`);
}

export async function startPortal(env: Record<string, string> = {}): Promise<Portal> {
  const entry = join(ROOT, 'src/server/server.ts');
  if (!existsSync(entry)) throw new Error('src/server/server.ts does not exist yet: the intake server (issue 4) is needed');
  const pdok = await startFakePdok();
  const dataDir = mkdtempSync(join(tmpdir(), 'portal-e2e-'));
  const port = await freePort();
  let output = '';
  const child = spawn(join(ROOT, 'node_modules/.bin/tsx'), [entry], {
    cwd: ROOT,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      // The run's private copy of the spec's build (see global-setup.ts), else that build itself, and its brands.
      WEB_ROOT: process.env.E2E_WEB_ROOT ?? SPEC_BUILD.webRoot,
      BRANDS_DIR: SPEC_BUILD.brandsDir,
      SCHEMAS_DIR: SPEC_BUILD.schemasDir,
      ADDRESS_LOOKUP_URL: pdok.url,
      SMTP_URL: '',
      // One browser walks many pages from one address: keep the limits out of the way.
      RATE_LIMIT_UPLOADS: '100000',
      RATE_LIMIT_SUBMITS: '100000',
      RATE_LIMIT_FORM_POSTS: '100000',
      PHOTO_QUOTA_PER_CLIENT_MB: '100000',
      MAILS_PER_CLIENT_PER_HOUR: '100000',
      MAIL_POLL_INTERVAL_MS: '100',
      MAIL_RETRY_BASE_MS: '100',
      MIN_FREE_DISK_MB: '0',
      LOG_LEVEL: process.env.E2E_LOG_LEVEL ?? 'warn',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
  const log = () => output.slice(-4000);
  const baseUrl = `http://127.0.0.1:${port}`;
  try {
    await waitUntilUp(baseUrl, child, log);
  } catch (err) {
    child.kill('SIGKILL');
    await pdok.close();
    rmSync(dataDir, { recursive: true, force: true });
    throw err;
  }

  return {
    baseUrl,
    dataDir,
    pdok,
    log,
    storedRequests(needle) {
      const files = readdirSync(dataDir).filter((f) => f.endsWith('.db'));
      const found: Record<string, unknown>[] = [];
      for (const file of files) {
        const db = new DatabaseSync(join(dataDir, file), { readOnly: true });
        try {
          const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[];
          const table = tables.find((t) => t.name === 'requests');
          if (!table) continue;
          for (const row of db.prepare('SELECT * FROM requests').all() as Record<string, unknown>[]) {
            const payload = typeof row.payload === 'string' ? row.payload : JSON.stringify(row);
            if (payload.includes(needle)) found.push({ ...row, payload: JSON.parse(payload) });
          }
        } finally {
          db.close();
        }
      }
      return found;
    },
    forgetPhoto(name) {
      const db = new DatabaseSync(join(dataDir, 'requests.db'), { timeout: 5000 });
      try {
        db.prepare('DELETE FROM photos WHERE name = ? AND request_id IS NULL').run(name);
      } finally {
        db.close();
      }
    },
    outboxMails(needle) {
      const dir = join(dataDir, 'outbox');
      if (!existsSync(dir)) return [];
      return readdirSync(dir)
        .filter((f) => f.endsWith('.eml'))
        .map((f) => readFileSync(join(dir, f), 'utf8'))
        .filter((mail) => mail.includes(needle));
    },
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
        await exited;
        clearTimeout(timer);
      }
      await pdok.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
