/**
 * A rolling upgrade as compose.yaml's operator does it: the previous commit's image serves on PostgreSQL
 * behind nginx; this commit's image starts beside it on the same database (its migrations run while the old
 * one serves), then the old one stops; customers send all along, and every request acknowledged is stored once.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../support/free-port';
import { startBalancer, type Balancer } from './support/balancer';
import { composeConfig } from './support/compose';
import { composeOnHost, type HostedCompose } from './support/compose-on-host';
import { customerEmail, sendUntilStored, type Sent } from './support/customer';
import { IMAGE, imagePort, podman, podmanTry, PREVIOUS_IMAGE, removeLeftovers } from './support/podman';
import { startPortal, stopPortal, type PortalContainer } from './support/portal-container';

const previousBuilt = podmanTry(['image', 'exists', PREVIOUS_IMAGE]).ok;

describe.skipIf(!previousBuilt)("a rolling upgrade from the previous commit's image", () => {
  let hosted: HostedCompose;
  let balancer: Balancer;

  beforeAll(async () => {
    removeLeftovers();
    const parsed = composeConfig({ env: { PORTAL_PORT: String(await freePort()) } });
    if (!parsed.ok) throw new Error(`docker-compose config refuses compose.yaml: ${parsed.message}`);
    hosted = await composeOnHost(parsed.config!);
  });
  afterAll(async () => {
    await balancer?.stop();
    removeLeftovers();
    await hosted?.drop();
  });

  it('keeps every request sent while the new image starts beside the old one and the old one stops', async () => {
    const [first, second] = hosted.instances;
    const run = (instance: typeof first, image: string): Promise<PortalContainer> =>
      startPortal({ name: `${instance.volume}-${instance.service}`, port: instance.port, volume: instance.volume, image, env: { ...instance.env, RATE_LIMIT_SUBMITS: '1000', RATE_LIMIT_UPLOADS: '1000' } });
    const old = await run(first, PREVIOUS_IMAGE);
    balancer = await startBalancer(hosted.balancerConf, { [first.service]: first.port, [second.service]: second.port }, imagePort(), hosted.balancerPort);

    const sent: Sent[] = [];
    let sending = true;
    let n = 0;
    const customers = [0, 1, 2].map(async () => {
      while (sending) sent.push(await sendUntilStored(balancer.baseUrl, customerEmail(`upgrade-${n++}`)));
    });
    await sleep(1000);
    const upgraded = await run(second, IMAGE);
    await sleep(1000);
    const exitCode = await stopPortal(old.name, first.graceS);
    const sentBeforeStop = sent.length;
    await sleep(1500);
    sending = false;
    await Promise.all(customers);

    expect(exitCode).toBe(0);
    expect(sent.length, 'requests sent after the old instance stopped').toBeGreaterThan(sentBeforeStop);
    const rows = await hosted.storedRequests();
    const stored = new Set(rows.map((r) => r.reference));
    expect(sent.filter((s) => !stored.has(s.reference)), 'acknowledged but not stored').toEqual([]);
    expect(rows.length).toBe(sent.length);
    expect(podman(['inspect', '--format', '{{.State.Status}}', upgraded.name]).trim()).toBe('running');
  });
});
