import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ParsedMail } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PhotoLinks } from '../../../../src/server/photos/photo-links';
import { probeDatabase, type DatabaseProbe } from '../../../support/database-probe';
import { BACKEND, freshPostgres } from '../../../support/backend';
import { freePort } from '../../../support/free-port';
import { spawnServer, type ServerProcess } from '../../../support/server-process';
import { startSmtpSink, type SmtpSink } from '../../../support/smtp-sink';
import { jpegWithGps, makeWebRoot, png, simpleRequest, submit, until, uploadedName } from '../../helpers';

const PHOTO_URL_SECRET = 'multi-instance-photo-link-secret-of-32+';
const MAIL_DOMAIN = 'portal.example.com';
/** Short, so the test sees a dead instance's deliveries taken over within seconds. */
const LEASE_MS = 5000;
const SUBMITS_PER_CLIENT = 3;

interface Instance {
  server: ServerProcess;
  /** Each instance has its own SMTP_URL: A's can be made to stall while B's keeps accepting. */
  sink: SmtpSink;
}

let A: Instance;
let B: Instance;
let sql: DatabaseProbe;
let jpeg: Buffer;
let pngBytes: Buffer;
const cleanup: (() => Promise<void> | void)[] = [];

let clients = 0;
/** A client address of its own (X-Forwarded-For), so the per-client submit limit stays out of the way. */
const newClient = () => `10.0.${Math.floor(clients / 250)}.${(clients++ % 250) + 1}`;

let requests = 0;
/** A valid request of a customer of its own (own address, so the per-recipient mail limit is never met). */
function request(image1: string, image2: string): Record<string, unknown> {
  const n = ++requests;
  return { ...simpleRequest(image1, image2), client_email: `klant${n}@example.com`, description: `Aanvraag ${n}: de oven wordt niet warm.` };
}

interface Submitted {
  status: number;
  body: { reference?: string; photos?: string[] };
}

async function send(instance: Instance, body: Record<string, unknown>, client: string, key: string = crypto.randomUUID()): Promise<Submitted> {
  const res = await submit(instance.server.url, 'ilve', body, { 'Idempotency-Key': key, 'X-Forwarded-For': client });
  return { status: res.status, body: (await res.json()) as Submitted['body'] };
}

/** Two photos (a JPEG and a PNG) uploaded to `instance`. */
function twoPhotos(instance: Instance): Promise<string[]> {
  return Promise.all([uploadedName(instance.server.url, jpeg), uploadedName(instance.server.url, pngBytes, 'b.png', 'image/png')]);
}

const asJson = (values: readonly string[]) => JSON.stringify(values);

async function referencesOfKeys(keys: readonly string[]): Promise<Map<string, string[]>> {
  const rows = await sql.all<{ idempotency_key: string; reference: string }>(
    'SELECT idempotency_key, reference FROM requests WHERE idempotency_key IN (SELECT json_array_elements_text(?::json))',
    [asJson(keys)],
  );
  const byKey = new Map<string, string[]>();
  for (const row of rows) byKey.set(row.idempotency_key, [...(byKey.get(row.idempotency_key) ?? []), row.reference]);
  return byKey;
}

interface OutboxRow {
  reference: string;
  kind: string;
  messageId: string;
  attempts: number;
  nextAttemptAt: number;
  sentAt: number | null;
}

async function outboxOf(references: readonly string[]): Promise<OutboxRow[]> {
  return sql.all<OutboxRow>(
    `SELECT r.reference, o.kind, '<' || o.message_id || '@${MAIL_DOMAIN}>' AS "messageId", o.attempts,
            o.next_attempt_at AS "nextAttemptAt", o.sent_at AS "sentAt"
     FROM outbox o JOIN requests r ON r.id = o.request_id
     WHERE r.reference IN (SELECT json_array_elements_text(?::json)) ORDER BY o.id`,
    [asJson(references)],
  );
}

const referenceOf = (mail: ParsedMail) => mail.headers.get('x-repair-reference') as string | undefined;
const mailsOf = (sinks: readonly SmtpSink[], references: readonly string[]) =>
  sinks.flatMap((s) => s.mails).filter((m) => references.includes(referenceOf(m) ?? ''));

/**
 * Waits until every mail of `references` (desk and confirmation, by their rows' Message-IDs) reached
 * one of `sinks` and is recorded as sent; returns the rows and the mails received for them.
 */
async function allDelivered(sinks: readonly SmtpSink[], references: readonly string[], timeoutMs = 30_000) {
  const rows = await outboxOf(references);
  expect(rows.map((r) => r.kind).sort()).toEqual(references.flatMap(() => ['confirmation', 'desk']).sort());
  const arrived = () => new Set(mailsOf(sinks, references).map((m) => m.messageId));
  await until(
    async () => (await outboxOf(references)).every((r) => r.sentAt !== null) && rows.every((r) => arrived().has(r.messageId)),
    `the mails of ${references.length} requests`,
    timeoutMs,
  );
  return { rows: await outboxOf(references), mails: mailsOf(sinks, references) };
}

/** Each row's mail arrived exactly once, with the Message-ID its row was queued with, and nothing else arrived for these requests. */
function expectEachOnce(rows: readonly OutboxRow[], mails: readonly ParsedMail[]) {
  expect(mails.map((m) => m.messageId).sort()).toEqual(rows.map((r) => r.messageId).sort());
  for (const row of rows) {
    const [mail] = mails.filter((m) => m.messageId === row.messageId);
    expect(referenceOf(mail)).toBe(row.reference);
    const to = (Array.isArray(mail.to) ? mail.to : [mail.to]).flatMap((a) => a?.value.map((v) => v.address));
    expect(to.includes('servicedesk@ilve.example.com')).toBe(row.kind === 'desk');
  }
}

describe.runIf(BACKEND === 'postgres')('two server processes on one PostgreSQL database', { timeout: 120_000 }, () => {
  beforeAll(async () => {
    [jpeg, pngBytes] = await Promise.all([jpegWithGps(), png()]);
    const db = await freshPostgres();
    cleanup.push(() => db.drop());
    sql = probeDatabase({ dataDir: '', databaseUrl: db.url });
    cleanup.push(() => sql.close());
    const root = mkdtempSync(join(tmpdir(), 'multi-instance-'));
    cleanup.push(() => rmSync(root, { recursive: true, force: true }));
    const webRoot = makeWebRoot(join(root, 'web'));

    const start = async (name: string): Promise<Instance> => {
      const sink = await startSmtpSink();
      cleanup.push(() => sink.close());
      const port = await freePort();
      const server = await spawnServer(port, {
        DATABASE_URL: db.url,
        PHOTO_URL_SECRET,
        DATA_DIR: join(root, name),
        WEB_ROOT: webRoot,
        PUBLIC_URL: `http://127.0.0.1:${port}`,
        SMTP_URL: sink.url,
        MAIL_FROM: `service@${MAIL_DOMAIN}`,
        DELIVERY_LEASE_MS: String(LEASE_MS),
        WEBHOOK_TIMEOUT_MS: '1000',
        // Clients are told apart by X-Forwarded-For, as behind the load balancer in front of the instances.
        TRUST_PROXY: '127.0.0.1',
        RATE_LIMIT_SUBMITS: String(SUBMITS_PER_CLIENT),
        RATE_LIMIT_UPLOADS: '100000',
        PHOTO_DECODE_PER_CLIENT: '1000',
        PHOTO_QUOTA_PER_CLIENT_MB: '100000',
        MAILS_PER_CLIENT_PER_HOUR: '100000',
      });
      // SIGKILL: a graceful stop would wait for mails held at a stalled server, and a paused process ignores SIGTERM.
      cleanup.push(() => server.kill9());
      return { server, sink };
    };
    // Started together: both migrate the one database at once.
    [A, B] = await Promise.all([start('a'), start('b')]);
  }, 120_000);

  afterAll(async () => {
    for (const step of cleanup.reverse()) await step();
  }, 60_000);

  it('answers any request on any instance: photos uploaded on A, submitted on B, reach the desk byte for byte', async () => {
    const [image1, image2] = await twoPhotos(A);
    const answer = await send(B, request(image1, image2), newClient());
    expect(answer.status).toBe(201);
    const reference = answer.body.reference!;

    const { rows, mails } = await allDelivered([A.sink, B.sink], [reference]);
    expectEachOnce(rows, mails);
    const desk = mails.find((m) => m.messageId === rows.find((r) => r.kind === 'desk')!.messageId)!;
    // A link signed with the shared PHOTO_URL_SECRET is followed on either instance.
    const links = new PhotoLinks(Buffer.from(PHOTO_URL_SECRET), '', 60_000);
    for (const [i, name] of [image1, image2].entries()) {
      const [row] = await sql.all<{ data: Buffer; reference: string }>(
        'SELECT p.data, r.reference FROM photos p JOIN requests r ON r.id = p.request_id WHERE p.name = ?',
        [name],
      );
      expect(row.reference).toBe(reference);
      expect(desk.attachments[i].content.equals(row.data)).toBe(true);
      for (const instance of [A, B]) {
        const res = await fetch(`${instance.server.url}${links.link(name).url}`);
        expect(res.status).toBe(200);
        expect(Buffer.from(await res.arrayBuffer()).equals(row.data)).toBe(true);
      }
    }
  });

  it('stores one row per Idempotency-Key and gives each photo to one request, under concurrent submits to both', async () => {
    const PAIRS = 10;
    // All at once: ten requests, each sent three times with its key (A, B, A: a client retrying on a
    // flaky line, as often as its limit allows); five pairs of requests naming both photos of one
    // upload; five pairs sharing only their first photo. Uploads too go to either instance.
    const alternate = (i: number) => (i % 2 ? [A, B] : [B, A]);
    const same = await Promise.all(Array.from({ length: PAIRS }, (_, i) => twoPhotos(alternate(i)[0])));
    const both = await Promise.all(Array.from({ length: PAIRS / 2 }, (_, i) => twoPhotos(alternate(i)[1])));
    const first = await Promise.all(
      Array.from({ length: PAIRS / 2 }, async (_, i) => [
        ...(await twoPhotos(alternate(i)[0])),
        await uploadedName(alternate(i)[1].server.url, pngBytes, 'c.png', 'image/png'),
      ]),
    );

    const keyed = same.map(([image1, image2], i) => {
      const body = request(image1, image2);
      const key = crypto.randomUUID();
      const client = newClient();
      const [one, other] = alternate(i);
      return { key, answers: Promise.all([one, other, one].map((instance) => send(instance, body, client, key))) };
    });
    const contested = [
      ...both.map(([image1, image2]) => ({
        shared: [image1, image2],
        fields: ['image1', 'image2'],
        bodies: [request(image1, image2), request(image1, image2)],
      })),
      ...first.map(([image1, image2, other]) => ({
        shared: [image1],
        fields: ['image1'],
        bodies: [request(image1, image2), request(image1, other)],
      })),
    ].map(({ shared, fields, bodies }, i) => {
      const keys = [crypto.randomUUID(), crypto.randomUUID()];
      const instances = alternate(i);
      return { shared, fields, keys, answers: Promise.all(bodies.map((body, j) => send(instances[j], body, newClient(), keys[j]))) };
    });
    const keyedAnswers = await Promise.all(keyed.map((k) => k.answers));
    const contestedAnswers = await Promise.all(contested.map((c) => c.answers));

    const acknowledged = new Map<string, string>();
    const stored = await referencesOfKeys([...keyed.map((k) => k.key), ...contested.flatMap((c) => c.keys)]);
    keyed.forEach(({ key }, i) => {
      const [a, ...again] = keyedAnswers[i];
      expect([a, ...again].map((answer) => answer.status)).toEqual([201, 201, 201]);
      expect(again.map((answer) => answer.body.reference)).toEqual([a.body.reference, a.body.reference]);
      expect(stored.get(key)).toEqual([a.body.reference]);
      acknowledged.set(key, a.body.reference!);
    });
    for (const [i, { shared, fields, keys }] of contested.entries()) {
      const answers = contestedAnswers[i];
      expect(answers.map((a) => a.status).sort()).toEqual([201, 422]);
      const won = answers.findIndex((a) => a.status === 201);
      const lost = 1 - won;
      expect(answers[lost].body.photos).toEqual(fields);
      expect(stored.get(keys[won])).toEqual([answers[won].body.reference]);
      expect(stored.has(keys[lost])).toBe(false);
      acknowledged.set(keys[won], answers[won].body.reference!);
      const owners = await sql.all<{ reference: string }>(
        'SELECT r.reference FROM photos p JOIN requests r ON r.id = p.request_id WHERE p.name IN (SELECT json_array_elements_text(?::json))',
        [asJson(shared)],
      );
      expect(owners.map((o) => o.reference)).toEqual(shared.map(() => answers[won].body.reference));
    }

    // The rows are the acknowledged requests, each with both its photos and its two mails, and no more.
    const references = [...acknowledged.values()];
    expect(new Set(references).size).toBe(2 * PAIRS);
    expect([...stored.values()].flat().sort()).toEqual([...references].sort());
    const claims = await sql.all<{ reference: string; photos: number }>(
      `SELECT r.reference, COUNT(p.name) AS photos FROM requests r LEFT JOIN photos p ON p.request_id = r.id
       WHERE r.reference IN (SELECT json_array_elements_text(?::json)) GROUP BY r.reference`,
      [asJson(references)],
    );
    expect(claims.map((c) => Number(c.photos))).toEqual(references.map(() => 2));
    // With both instances taking mails from one outbox, each is sent once (SKIP LOCKED, leases).
    const { rows, mails } = await allDelivered([A.sink, B.sink], references);
    expectEachOnce(rows, mails);
    expect(rows.every((r) => r.attempts === 1)).toBe(true);
  });

  it('counts one client’s submits on both instances together', async () => {
    const client = newClient();
    const spread = [A, B, A, B, A];
    const photos = await Promise.all(spread.map((instance) => twoPhotos(instance)));
    const statuses: number[] = [];
    for (const [i, instance] of spread.entries()) {
      const [image1, image2] = photos[i];
      statuses.push((await send(instance, request(image1, image2), client)).status);
    }
    expect(statuses).toEqual([201, 201, 201, 429, 429]);
    // Per client, not for everyone.
    const [image1, image2] = await twoPhotos(B);
    expect((await send(B, request(image1, image2), newClient())).status).toBe(201);
  });

  it('loses no acknowledged request to a kill -9 of A, and B sends the mails A held once their lease runs out', async () => {
    // Two requests' four mails: as many as A keeps under way before it knows its relay's pace (outbox/in-flight-pace.ts).
    const batchPhotos = await Promise.all(Array.from({ length: 2 }, () => twoPhotos(B)));
    const streamPhotos = await Promise.all(Array.from({ length: 12 }, () => twoPhotos(B)));

    // B paused and A's mail server stalling: every mail queued now is taken by A and hangs there.
    A.sink.hold();
    const heldBefore = A.sink.greetings.length;
    B.server.child.kill('SIGSTOP');
    const batch = await Promise.all(batchPhotos.map(([image1, image2]) => send(A, request(image1, image2), newClient())));
    expect(batch.map((b) => b.status)).toEqual(batch.map(() => 201));
    const batchReferences = batch.map((b) => b.body.reference!);
    const leased = await until(async () => {
      const rows = await outboxOf(batchReferences);
      const held = rows.length === 2 * batch.length && rows.every((r) => r.sentAt === null && r.attempts === 0 && r.nextAttemptAt > Date.now());
      return held ? rows : undefined;
    }, 'A leasing the batch’s mails');
    await until(() => A.sink.greetings.length > heldBefore, 'A’s attempts reaching its stalled mail server');

    // Submits keep arriving at A, two at a time, when it is killed.
    let killed = false;
    // Killed the moment the third answer arrives, while the other sender's submit is under way.
    const KILL_AFTER = 3;
    let killNow = () => {};
    const kill = new Promise<void>((resolve) => (killNow = resolve));
    const acked: { key: string; reference: string }[] = [];
    const unanswered: { key: string; body: Record<string, unknown>; client: string }[] = [];
    const queue = streamPhotos.map(([image1, image2]) => ({ key: crypto.randomUUID(), body: request(image1, image2), client: newClient() }));
    const sender = async () => {
      for (let next = queue.shift(); next && !killed; next = queue.shift()) {
        const answer = await send(A, next.body, next.client, next.key).catch((error: unknown) => {
          if (!killed) throw error;
          return undefined;
        });
        if (!answer) {
          unanswered.push(next);
          continue;
        }
        expect(answer.status).toBe(201);
        acked.push({ key: next.key, reference: answer.body.reference! });
        if (acked.length === KILL_AFTER) killNow();
      }
    };
    const senders = [sender(), sender()];
    await Promise.race([kill, Promise.all(senders)]);
    expect(acked.length).toBe(KILL_AFTER);
    killed = true;
    await A.server.kill9();
    await Promise.all(senders);

    // Every acknowledged request is stored; a client retrying an unanswered one on B gets one row for its key.
    const stored = await referencesOfKeys(acked.map((a) => a.key));
    for (const { key, reference } of acked) expect(stored.get(key)).toEqual([reference]);
    expect((await outboxOf(batchReferences)).length).toBe(2 * batch.length);
    B.server.child.kill('SIGCONT');
    // One A stored before it died is answered on B with its reference; one it did not is stored now.
    const storedByA = await referencesOfKeys(unanswered.map((u) => u.key));
    const retried = await Promise.all(unanswered.map((u) => send(B, u.body, u.client, u.key)));
    expect(retried.map((r) => r.status)).toEqual(unanswered.map(() => 201));
    const afterRetry = await referencesOfKeys(unanswered.map((u) => u.key));
    unanswered.forEach(({ key }, i) => {
      expect(afterRetry.get(key)).toEqual([retried[i].body.reference]);
      if (storedByA.has(key)) expect(storedByA.get(key)).toEqual([retried[i].body.reference]);
    });

    // B, running again, leaves the mails A leased alone until the lease runs out…
    const leaseEnds = Math.min(...leased.map((r) => r.nextAttemptAt));
    await new Promise((r) => setTimeout(r, Math.max(0, leaseEnds - 1000 - Date.now())));
    expect(mailsOf([B.sink], batchReferences)).toEqual([]);
    expect(Date.now()).toBeLessThan(leaseEnds);

    // …then sends every one of them, and those of the later submits, once each, under the Message-IDs they were queued with.
    const references = [...batchReferences, ...acked.map((a) => a.reference), ...retried.map((r) => r.body.reference!)];
    const { rows, mails } = await allDelivered([B.sink], references, LEASE_MS + 30_000);
    expectEachOnce(rows, mails);
    expect(mailsOf([A.sink], references)).toEqual([]);
    // A's attempts died with it unrecorded; B's first attempt is the one on record.
    expect(rows.every((r) => r.attempts === 1)).toBe(true);
    console.info(
      `multi-instance: ${acked.length} submits acknowledged and ${unanswered.length} unanswered when A was killed ` +
        `(${storedByA.size} of these stored by A); ` +
        `${rows.length} mails sent by B, ${leased.length} of them after A's lease`,
    );
  });
});
