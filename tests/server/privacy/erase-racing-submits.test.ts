/**
 * Erasure racing the same person's submits, on a server without SMTP_URL (mails kept: .eml files, or rows).
 * A mail being written as its row is erased must not stay behind: no later erasure or retention run
 * could find it once its row is gone.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { eraseSubject, type ErasureReport } from '../../../src/server/privacy/erasure';
import { loadPortalData } from '../../../src/server/portal-data';
import { FormRevisions } from '../../../src/server/revisions/form-revisions';
import { openStorage } from '../../../src/server/storage/open-storage';
import type { Storage } from '../../../src/server/storage/port';
import { BACKEND } from '../../support/backend';
import { keptMails, png, simpleRequest, startTestServer, submit, until, uploadedName, type TestServer } from '../helpers';

const PERSON = 'klant@example.com';
const RUNS = 3;
/** Shorter than the 20 s of the report: 25 erasures still meet mails being written (counted below). */
const RACE_MS = 6_000;
const ERASES = 25;
const SUBMITTERS = 3;

let servers: TestServer[] = [];
let staff: Storage | undefined;
afterEach(async () => {
  await staff?.close();
  for (const s of servers.reverse()) await s.dispose();
  servers = [];
  staff = undefined;
});

/** Every file under `dir` whose bytes name the person. */
function filesNaming(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((name) => join(dir, name))
    .filter((path) => statSync(path).isFile() && readFileSync(path).toString('latin1').toLowerCase().includes(PERSON));
}

async function rowsNaming(s: TestServer): Promise<number> {
  const like = `%${PERSON}%`;
  const [requests] = await s.sql.all<{ n: number }>('SELECT count(*) AS n FROM requests WHERE payload LIKE ?', [like]);
  const [outbox] = await s.sql.all<{ n: number }>('SELECT count(*) AS n FROM outbox WHERE recipient LIKE ? OR body LIKE ? OR subject LIKE ?', [like, like, like]);
  return Number(requests.n) + Number(outbox.n);
}

/**
 * One run: `instances` servers on one database (each its own DATA_DIR), the person's submits spread
 * over them for RACE_MS, ERASES erasures meanwhile, then a final one once every mail is written.
 */
async function race(instances: number, run: number): Promise<void> {
  servers = [await startTestServer()];
  for (let i = 1; i < instances; i++) servers.push(await startTestServer({ DATABASE_URL: servers[0].config.databaseUrl }));
  const [first] = servers;
  // A staff command's own store, as `npm run requests -- erase` opens it beside the running servers.
  staff = await openStorage({ dataDir: first.config.dataDir, databaseUrl: first.config.databaseUrl, databasePoolSize: 2 }, { existing: true });
  const forms = new FormRevisions(loadPortalData(first.config.schemasDir), staff);
  const erase = async () => (await eraseSubject({ storage: staff!, forms }, PERSON)).counts;
  // Every copy of a mail naming the person: files in any instance's DATA_DIR, and those the database keeps.
  const strays = async () => [
    ...servers.flatMap((s) => filesNaming(join(s.dataDir, 'outbox'))),
    ...(await keptMails(first)).filter((m) => m.eml.toString('latin1').toLowerCase().includes(PERSON)).map((m) => m.name),
  ];

  const photo = await png();
  const end = Date.now() + RACE_MS;
  let stored = 0;
  const submitter = async (s: TestServer) => {
    while (Date.now() < end) {
      const res = await submit(s.url, 'ilve', simpleRequest(await uploadedName(s.url, photo), await uploadedName(s.url, photo)));
      expect(res.status).toBe(201);
      stored++;
    }
  };
  const reports: ErasureReport[] = [];
  const eraser = async () => {
    for (let i = 0; i < ERASES; i++) {
      await new Promise((r) => setTimeout(r, RACE_MS / ERASES));
      reports.push(await erase());
    }
  };
  await Promise.all([...Array.from({ length: SUBMITTERS }, (_, i) => submitter(servers[i % instances])), eraser()]);
  // Every mail of what the last erasure did not reach is written before the final one.
  await until(async () => {
    const [row] = await first.sql.all<{ n: number }>('SELECT count(*) AS n FROM outbox WHERE sent_at IS NULL AND failed_at IS NULL');
    return Number(row.n) === 0 || undefined;
  }, 'every mail written');
  const before = (await strays()).length;
  const final = await erase();

  const erasedRequests = reports.reduce((n, r) => n + r.requests, 0);
  const erasedFiles = reports.reduce((n, r) => n + r.mailFiles, 0);
  console.log(
    `[measure] erase racing submits, ${BACKEND}, ${instances} instance(s), run ${run}: ${stored} submits, ${ERASES} erasures removed ${erasedRequests} requests and ${erasedFiles} mail files; ` +
      `${before} files naming the person before the final erasure (its report: ${final.requests} requests, ${final.mailFiles} files)`,
  );
  // The race was run: erasures met the person's requests and mails.
  expect(erasedRequests).toBeGreaterThan(0);
  expect(erasedFiles).toBeGreaterThan(0);
  expect(await strays()).toEqual([]);
  expect(await rowsNaming(first)).toBe(0);
  await staff.close();
  staff = undefined;
  for (const s of servers.reverse()) await s.dispose();
  servers = [];
}

describe(`erasure racing the same person's submits (${BACKEND})`, () => {
  it(`leaves no file, row or byte naming the person after ${ERASES} erasures during ${RACE_MS / 1000} s of their submits, ${RUNS} runs`, async () => {
    for (let run = 1; run <= RUNS; run++) await race(1, run);
  }, 240_000);

  it.runIf(BACKEND === 'postgres')(`the same with two instances, each its own DATA_DIR, ${RUNS} runs`, async () => {
    for (let run = 1; run <= RUNS; run++) await race(2, run);
  }, 240_000);
});
