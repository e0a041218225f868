/**
 * SQLite's DATA_DIR on a disk that fills up (a 4 MB tmpfs; root may mount
 * one, others skip with the reason named). What must hold: a submit is told
 * 503 with Retry-After, never 500 or a stack; /readyz is red; the log says it
 * once at error level; no temp file is left; and once there is room again the
 * same retry is stored.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BACKEND } from '../../../support/backend';
import { createMailTransport } from '../../../../src/server/delivery/mail/transport';
import { MailFolder } from '../../../../src/server/storage/mail-folder';
import { captureLogs } from '../../log-capture';
import { count, png, simpleRequest, startTestServer, submit, uploadedName, type TestServer } from '../../helpers';

const mountPoint = mkdtempSync(join(tmpdir(), 'full-disk-'));
const mounted = BACKEND === 'sqlite' && spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=4m', 'tmpfs', mountPoint]).status === 0;
let server: TestServer | undefined;
afterAll(async () => {
  await server?.dispose();
  if (mounted) execFileSync('umount', [mountPoint]);
  rmSync(mountPoint, { recursive: true, force: true });
});

/** Fills the disk: 64 KB files until one no longer fits, then smaller ones, so not a page is left. */
function fill(dir: string): string[] {
  const files: string[] = [];
  for (const size of [65536, 4096, 512]) {
    for (;;) {
      const file = join(dir, `filler-${files.length}`);
      try {
        writeFileSync(file, Buffer.alloc(size));
        files.push(file);
      } catch {
        rmSync(file, { force: true });
        break;
      }
    }
  }
  return files;
}

const temps = (dir: string) => (existsSync(dir) ? readdirSync(dir).filter((f) => f.startsWith('.tmp')) : []);

describe.skipIf(!mounted)(`a full disk under SQLite (${BACKEND === 'sqlite' ? 'tmpfs of 4 MB' : 'SQLite only'}; skipped unless mount is permitted)`, () => {
  it('submits get 503 with Retry-After, /readyz red, one error line; no temp files; the retry is stored once there is room', async () => {
    const logs = captureLogs();
    server = await startTestServer({ DATA_DIR: join(mountPoint, 'data') }, {}, { logger: logs.logger });
    const photo = await png();
    const body = simpleRequest(await uploadedName(server.url, photo), await uploadedName(server.url, photo));
    const fillers = fill(mountPoint);

    const statuses = new Map<number, number>();
    const attempts = 20;
    for (let i = 0; i < attempts; i++) {
      const res = await submit(server.url, 'ilve', body, { 'idempotency-key': 'key-full' });
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      expect(res.status).toBe(503);
      expect(res.headers.get('retry-after')).toMatch(/^\d+$/);
      expect(JSON.stringify(await res.json())).not.toMatch(/SQLITE|disk|ENOSPC/i);
    }
    expect((await fetch(`${server.url}/readyz`)).status).toBe(503);
    expect(temps(join(server.dataDir, 'photos'))).toEqual([]);

    for (const f of fillers) rmSync(f);
    const retried = await submit(server.url, 'ilve', body, { 'idempotency-key': 'key-full' });
    expect(retried.status).toBe(201);
    expect(await count(server, 'SELECT count(*) AS n FROM requests')).toBe(1);
    const told = logs.lines.filter((l) => /^database (disk full|back)/.test(String(l.msg)));
    expect(told.map((l) => l.level)).toEqual([50, 30]);
    expect(logs.lines.filter((l) => l.level >= 50 && !/^database disk full/.test(String(l.msg)))).toEqual([]);
    console.log(`[measure] full disk, sqlite: ${attempts} submits while full: ${JSON.stringify(Object.fromEntries(statuses))}; retry ${retried.status}; stored 1 of 1 acknowledged; state log lines ${told.length}`);
  }, 60_000);

  it('a mail the spool cannot hold fails its attempt and leaves no file behind; written once there is room', async () => {
    const outbox = join(mountPoint, 'spool');
    const folder = new MailFolder(outbox);
    const transport = createMailTransport({ url: '', name: 'portal.example', maxConnections: 1 }, { keep: async (m, eml) => void (await folder.write(m.messageId, eml)) });
    const mail = {
      id: 7, kind: 'desk', from: { name: 'Portal', address: 'portal@example.com' }, to: 'desk@example.com', replyTo: 'klant@example.com',
      subject: 'Aanvraag', text: 'x'.repeat(200_000), messageId: '<ref.desk@portal.example>',
    };
    const fillers = fill(mountPoint);
    await expect(transport.deliver(mail)).rejects.toThrow(/ENOSPC/);
    expect(readdirSync(outbox)).toEqual([]);
    for (const f of fillers) rmSync(f);
    await transport.deliver(mail);
    expect(readdirSync(outbox)).toEqual(['ref.desk.eml']);
    transport.close();
  }, 60_000);
});

