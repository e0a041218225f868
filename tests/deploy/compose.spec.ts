/**
 * compose.yaml as an operator runs it, on the host network: docker-compose reads it with the README's
 * `.env` and refuses it without POSTGRES_PASSWORD; its two instances (their environment, volumes and
 * grace period from that parsed config) on one PostgreSQL behind its deploy/nginx.conf, run by Debian's
 * nginx: requests spread over both, X-Forwarded-For believed from nginx only, and one instance stopped
 * and started again while customers send, losing nothing and storing nothing twice.
 */
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../support/free-port';
import { startBalancer, type Balancer } from './support/balancer';
import { composeConfig } from './support/compose';
import { composeOnHost, type HostedCompose } from './support/compose-on-host';
import { BRAND, customerEmail, getFrom, PAGES, requestBody, resendUntilStored, sendUntilStored, submitInHalves, uploadPhotos, type Sent } from './support/customer';
import { imagePort, podman, removeLeftovers } from './support/podman';
import { requestsLogged, restartPortal, startPortal, stopPortal, unanswered, type PortalContainer } from './support/portal-container';

describe('compose.yaml', () => {
  let hosted: HostedCompose;
  let balancer: Balancer;
  const portals: PortalContainer[] = [];

  beforeAll(async () => {
    removeLeftovers();
    const parsed = composeConfig({ env: { PORTAL_PORT: String(await freePort()) } });
    if (!parsed.ok) throw new Error(`docker-compose config refuses compose.yaml with the README's .env: ${parsed.message}`);
    hosted = await composeOnHost(parsed.config!);
    for (const instance of hosted.instances) {
      portals.push(
        await startPortal({
          name: `${instance.volume}-${instance.service}`,
          port: instance.port,
          volume: instance.volume,
          // The test's one client sends more than a customer may (10 submits a minute from one address).
          env: { ...instance.env, RATE_LIMIT_SUBMITS: '1000', RATE_LIMIT_UPLOADS: '1000' },
        }),
      );
    }
    balancer = await startBalancer(hosted.balancerConf, Object.fromEntries(hosted.instances.map((i) => [i.service, i.port])), imagePort(), hosted.balancerPort);
  });
  afterAll(async () => {
    await balancer?.stop();
    removeLeftovers();
    await hosted?.drop();
  });

  it("is read by docker-compose with the README's .env, and refused without POSTGRES_PASSWORD", () => {
    expect(composeConfig().ok).toBe(true);
    const refused = composeConfig({ without: 'POSTGRES_PASSWORD' });
    expect(refused.ok).toBe(false);
    expect(refused.message).toContain('set POSTGRES_PASSWORD');
  });

  it('starts both instances healthy within 20 s on one PostgreSQL', () => {
    expect(portals).toHaveLength(2);
    for (const portal of portals) expect(portal.healthyAfterMs).toBeLessThan(20_000);
  });

  it('spreads requests over both instances through nginx', async () => {
    const path = `/spread-${randomUUID()}`;
    for (let i = 0; i < 20; i++) await fetch(`${balancer.baseUrl}${path}`).then((r) => r.arrayBuffer());
    const counts = portals.map((p) => requestsLogged(p).filter((r) => r.url === path).length);
    expect(counts.reduce((a, b) => a + b)).toBe(20);
    for (const count of counts) expect(count, `requests per instance: ${counts.join(' / ')}`).toBeGreaterThanOrEqual(5);
    expect((await fetch(`${balancer.baseUrl}${PAGES[0]}`)).status).toBe(200);
  });

  it('believes X-Forwarded-For from nginx only', async () => {
    const seen = (path: string) => portals.flatMap((p) => requestsLogged(p)).filter((r) => r.url === path).map((r) => r.remoteAddress);
    // Through nginx from 127.0.0.3, with a forged header: the instance sees the customer, not nginx and not the forgery.
    const viaNginx = `/xff-${randomUUID()}`;
    await getFrom(`${balancer.baseUrl}${viaNginx}`, '127.0.0.3', { 'x-forwarded-for': '203.0.113.9' });
    expect(seen(viaNginx)).toEqual(['127.0.0.3']);
    // Straight to an instance, with the same header: not believed.
    const direct = `/xff-${randomUUID()}`;
    await getFrom(`${portals[0].baseUrl}${direct}`, '127.0.0.4', { 'x-forwarded-for': '203.0.113.9' });
    expect(seen(direct)).toEqual(['127.0.0.4']);
  });

  it('loses nothing and stores nothing twice when an instance stops, or dies, and starts again during a load', async () => {
    const sent: Sent[] = [];
    let sending = true;
    let n = 0;
    const customers = [0, 1, 2, 3].map(async () => {
      while (sending) sent.push(await sendUntilStored(balancer.baseUrl, customerEmail(`load-${n++}`)));
    });
    await sleep(1000);
    // A clean stop (SIGTERM, compose's grace period): nginx sends the load to the other instance.
    const exitCode = await stopPortal(portals[0].name, hosted.instances[0].graceS);
    await sleep(1000);
    portals[0] = await restartPortal(portals[0]);
    await sleep(1000);
    sending = false;
    await Promise.all(customers);

    // An instance that dies with requests half received: nginx answers those 502, and the customer sends
    // again with the same Idempotency-Key. Two such requests, held while the instance holding one is killed.
    const halves = await Promise.all([0, 1].map(async (i) => ({ key: randomUUID(), body: requestBody(await uploadPhotos(balancer.baseUrl), customerEmail(`half-${i}`)) })));
    let releaseHalves!: () => void;
    const halvesHeld = new Promise<void>((r) => (releaseHalves = r));
    const firstTries = halves.map((h) => submitInHalves(balancer.baseUrl, h.body, h.key, () => halvesHeld));
    const submitPath = `/api/forms/${BRAND.id}`;
    let held: number[] = [];
    for (let i = 0; i < 50 && held.reduce((a, b) => a + b, 0) < 2; i++) {
      await sleep(100);
      held = portals.map((p) => unanswered(p, submitPath));
    }
    const victim = held.findIndex((count) => count > 0);
    expect(victim, `requests held per instance: ${held.join(' / ')}`).toBeGreaterThanOrEqual(0);
    podman(['kill', '-s', 'KILL', portals[victim].name]);
    releaseHalves();
    const firstStatuses = (await Promise.all(firstTries)).map((answer) => answer.status);
    portals[victim] = await restartPortal(portals[victim]);
    for (const [i, half] of halves.entries()) sent.push(await resendUntilStored(balancer.baseUrl, half.body, half.key, firstStatuses[i] === 201 ? [] : [firstStatuses[i]]));

    expect(exitCode).toBe(0);
    expect(firstStatuses.filter((s) => s !== 201), 'the requests half received by the killed instance').toEqual(Array(held[victim]).fill(502));
    const rows = await hosted.storedRequests();
    const stored = new Map(rows.map((r) => [r.reference, r]));
    expect(sent.filter((s) => !stored.has(s.reference)), 'acknowledged but not stored').toEqual([]);
    // Every request stored belongs to one acknowledged key: a retried submit did not store a second copy.
    expect(rows.length).toBe(sent.length);
    expect(new Set(rows.map((r) => r.idempotency_key)).size).toBe(rows.length);
    const refused = sent.filter((s) => s.refused.length > 0);
    console.log(`test:deploy: ${sent.length} requests stored during a stop, a kill and two starts; ${refused.length} refused first (${refused.flatMap((s) => s.refused).join(', ') || 'none'}), then stored once`);
    expect(refused.flatMap((s) => s.refused).filter((status) => ![0, 502, 503].includes(status)), 'a refusal other than the stop').toEqual([]);
  });
});
