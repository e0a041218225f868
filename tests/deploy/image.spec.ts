/**
 * The image alone, as `docker run -v portal-data:/data` runs it (SQLite in the volume): healthy by its
 * own HEALTHCHECK, as `node`, writing nowhere but /data; every brand page; two photos and a submit whose
 * desk mail reaches a real SMTP server on the host; SIGTERM with submits in flight loses nothing it
 * acknowledged; kill -9 and a new container on the same volume still hold the request.
 */
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import type { ParsedMail } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../support/free-port';
import { startSmtpSink, type SmtpSink } from '../support/smtp-sink';
import { BRAND, customerEmail, PAGES, requestBody, submit, submitInHalves, uploadPhotos } from './support/customer';
import { IMAGE, podman, removeLeftovers } from './support/podman';
import { logTail, restartPortal, startPortal, stopPortal, volumePath, type PortalContainer } from './support/portal-container';

const VOLUME = 'repair-portal-deploy-test-data';

/** The references stored in the SQLite database of the volume, read as a backup script reads it. */
function storedReferences(): string[] {
  const db = new DatabaseSync(join(volumePath(VOLUME), 'requests.db'), { readOnly: true, timeout: 5000 });
  try {
    return (db.prepare('SELECT reference FROM requests').all() as { reference: string }[]).map((r) => r.reference);
  } finally {
    db.close();
  }
}

describe('the image', () => {
  let smtp: SmtpSink;
  let portal: PortalContainer;
  const acknowledged: string[] = [];

  beforeAll(async () => {
    removeLeftovers();
    smtp = await startSmtpSink();
    portal = await startPortal({
      name: 'repair-portal-deploy-one',
      port: await freePort(),
      volume: VOLUME,
      // Submits from one address beyond the default's 10 a minute: the in-flight stop below sends dozens.
      env: { SMTP_URL: smtp.url, MAIL_FROM: 'service@portal.example.com', RATE_LIMIT_SUBMITS: '1000', RATE_LIMIT_UPLOADS: '1000' },
    });
  });
  afterAll(async () => {
    removeLeftovers();
    await smtp?.close();
  });

  it('is healthy by its own HEALTHCHECK within 20 s, and runs as node', () => {
    expect(portal.healthyAfterMs).toBeLessThan(20_000);
    const [image] = JSON.parse(podman(['image', 'inspect', IMAGE])) as { Healthcheck?: { Test: string[] } }[];
    expect(image.Healthcheck?.Test.join(' '), 'the image lost its HEALTHCHECK (built without --format docker?)').toContain('/readyz');
    const status = podman(['exec', portal.name, 'cat', '/proc/1/status']);
    expect(/^Uid:\s+(\d+)/m.exec(status)?.[1], 'the server (pid 1) runs as root').toBe('1000');
    expect(podman(['exec', portal.name, 'sh', '-c', 'id -un'])).toContain('node');
  });

  it('serves every brand page', async () => {
    expect(PAGES.length).toBeGreaterThan(0);
    for (const path of PAGES) {
      const response = await fetch(`${portal.baseUrl}${path}`);
      expect(response.status, `${path}: ${logTail(portal.name)}`).toBe(200);
      expect(await response.text()).toMatch(/<form\b[^>]*method="post"/);
    }
  });

  it('takes two photos and a request, and the desk mail reaches the SMTP server on the host', async () => {
    const email = customerEmail('image');
    const photos = await uploadPhotos(portal.baseUrl);
    expect(photos).toHaveLength(2);
    const { status, reference } = await submit(portal.baseUrl, requestBody(photos, email), randomUUID());
    expect(status, logTail(portal.name)).toBe(201);
    acknowledged.push(reference!);
    const desk = await smtp.waitFor((mail: ParsedMail) => mail.subject?.includes(reference!) === true && BRAND.serviceDesk.emails.some((to) => JSON.stringify(mail.to).includes(to)), 30_000);
    expect(desk.replyTo?.value[0].address).toBe(email);
    expect(desk.attachments).toHaveLength(2);
  });

  it('writes nowhere but /data', async () => {
    // It ran all along on a read-only root file system without even a /tmp (startPortal): a write
    // elsewhere would have failed the steps above. And it still answers.
    expect(podman(['inspect', '--format', '{{.HostConfig.ReadonlyRootfs}}', portal.name]).trim()).toBe('true');
    expect(podman(['exec', portal.name, 'sh', '-c', 'touch /app/x /tmp/x 2>&1 || true'])).toMatch(/Read-only file system/);
    expect((await fetch(`${portal.baseUrl}/readyz`)).status).toBe(200);
  });

  it('stops cleanly on SIGTERM with submits in flight, and keeps every one it acknowledged', async () => {
    // One request half sent when the signal comes, finished after the server says it is shutting down: it is answered and kept.
    const held = requestBody(await uploadPhotos(portal.baseUrl), customerEmail('held'));
    let release!: () => void;
    const heldAnswer = submitInHalves(portal.baseUrl, held, randomUUID(), () => new Promise<void>((r) => (release = r)));
    // And four customers send (photos, then the request) until the server turns them away.
    const outcomes: { status: number; reference?: string; at: number }[] = [];
    const customers = [0, 1, 2, 3].map(async (lane) => {
      for (let i = 0; ; i++) {
        const photos = await uploadPhotos(portal.baseUrl).catch(() => undefined);
        if (!photos) return;
        const outcome = await submit(portal.baseUrl, requestBody(photos, customerEmail(`stop-${lane}-${i}`)), randomUUID());
        outcomes.push({ ...outcome, at: Date.now() });
        if (outcome.status !== 201) return;
      }
    });
    while (outcomes.length < 8) await new Promise((r) => setTimeout(r, 20));
    const signalled = Date.now();
    const stopped = stopPortal(portal.name, 30);
    while (!/shutting down/.test(portal.log())) {
      if (Date.now() - signalled > 10_000) throw new Error(`no "shutting down" in the log 10 s after the stop: ${logTail(portal.name)}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    release();
    const { status: heldStatus, reference: heldReference } = await heldAnswer;
    const exitCode = await stopped;
    const stopMs = Date.now() - signalled;
    await Promise.all(customers);
    expect(heldStatus, 'the request in flight at the signal').toBe(201);
    outcomes.push({ status: 201, reference: heldReference, at: Date.now() });
    expect(exitCode, logTail(portal.name)).toBe(0);
    expect(stopMs, 'the stop waited for SIGKILL').toBeLessThan(25_000);
    const stored = new Set(storedReferences());
    const ok = outcomes.filter((o) => o.status === 201);
    expect(ok.filter((o) => !stored.has(o.reference!)), 'acknowledged but not stored').toEqual([]);
    // Anything else was refused while closing (503) or found the port closed: never a 500.
    expect(outcomes.filter((o) => o.status !== 201 && o.status !== 503 && o.status !== 0)).toEqual([]);
    console.log(`test:deploy: SIGTERM: exit 0 after ${stopMs} ms; ${ok.length} requests acknowledged, ${ok.filter((o) => o.at >= signalled).length} of them after the signal, all stored`);
    acknowledged.push(...ok.map((o) => o.reference!));
    portal = await restartPortal(portal);
  });

  it('keeps an acknowledged request through kill -9 and a new container on the same volume', async () => {
    const photos = await uploadPhotos(portal.baseUrl);
    const { status, reference } = await submit(portal.baseUrl, requestBody(photos, customerEmail('kill')), randomUUID());
    expect(status).toBe(201);
    acknowledged.push(reference!);
    podman(['kill', '-s', 'KILL', portal.name]);
    podman(['rm', '-f', portal.name]);
    portal = await startPortal({ name: 'repair-portal-deploy-again', port: portal.port, volume: VOLUME, env: { SMTP_URL: smtp.url, MAIL_FROM: 'service@portal.example.com' } });
    const stored = new Set(storedReferences());
    expect(acknowledged.filter((r) => !stored.has(r)), 'acknowledged but lost').toEqual([]);
    // And the new container serves on from that volume.
    expect((await fetch(`${portal.baseUrl}${PAGES[0]}`)).status).toBe(200);
  });
});
