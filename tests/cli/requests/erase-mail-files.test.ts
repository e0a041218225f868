/**
 * `erase` and the .eml files a server without SMTP_URL writes to DATA_DIR/outbox.
 * With PostgreSQL the command may run on another machine, or without the
 * server's DATA_DIR: it must find the files where the server put them, or
 * refuse before erasing anything (rows gone while the person's mails stay
 * could never be found again).
 */
import { existsSync, mkdtempSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BACKEND } from '../../support/backend';
import { count, png, simpleRequest, startTestServer, submit, uploadedName, until, type TestServer } from '../../server/helpers';
import { requests, storeEnv } from './run-requests';

let server: TestServer | undefined;
const elsewhere = mkdtempSync(join(tmpdir(), 'erase-elsewhere-'));
afterEach(async () => {
  await server?.dispose();
  server = undefined;
});

const mailFiles = (s: TestServer) => (existsSync(join(s.dataDir, 'outbox')) ? readdirSync(join(s.dataDir, 'outbox')).filter((f) => f.endsWith('.eml')) : []);

/** A stored request of klant@example.com whose mails the server wrote as .eml files; the server then stops. */
async function requestWithMailFiles(): Promise<TestServer> {
  const s = await startTestServer();
  const photo = await png();
  const res = await submit(s.url, 'ilve', simpleRequest(await uploadedName(s.url, photo), await uploadedName(s.url, photo)));
  expect(res.status).toBe(201);
  await until(() => mailFiles(s).length >= 2, 'the mail files');
  await s.app.close();
  return s;
}

describe(`erase and the mail files (${BACKEND})`, () => {
  it("removes the person's .eml files where the server wrote them", async () => {
    server = await requestWithMailFiles();
    const before = mailFiles(server).length;
    // PostgreSQL: the command's own DATA_DIR is another folder; the server's is found through the database.
    const env = { ...storeEnv(server.config), ...(BACKEND === 'postgres' ? { DATA_DIR: elsewhere } : {}) };
    const run = await requests(['erase', '--email', 'klant@example.com'], { env });
    expect([run.code, run.stderr]).toEqual([0, expect.not.stringMatching(/error|cannot/i)]);
    expect(run.stdout).toMatch(new RegExp(`mail files removed[^\\n]*\\b${before}\\b`));
    expect(mailFiles(server)).toEqual([]);
  }, 60_000);

  it.runIf(BACKEND === 'postgres')("refuses, erasing nothing, when the server's mail folder is out of reach", async () => {
    server = await requestWithMailFiles();
    const files = mailFiles(server).length;
    const moved = `${server.dataDir}-away`;
    renameSync(server.dataDir, moved); // as on another machine
    try {
      const run = await requests(['erase', '--email', 'klant@example.com'], { env: { ...storeEnv(server.config), DATA_DIR: elsewhere } });
      expect(run.code).toBe(1);
      // The store the command acts on (its first line), then one line of why not.
      const lines = run.stderr.trim().split('\n');
      expect(lines.at(-1)).toMatch(/the server writes mail files to .*outbox, which cannot be reached from here: nothing erased/);
      expect(lines).toHaveLength(2);
      expect(await count(server, 'SELECT count(*) AS n FROM requests')).toBe(1);
    } finally {
      renameSync(moved, server.dataDir);
    }
    expect(mailFiles(server)).toHaveLength(files);
  }, 60_000);
});

process.on('exit', () => rmSync(elsewhere, { recursive: true, force: true }));
