/**
 * compose.yaml's services run on the host network: what `docker compose up` would start, with only what
 * one network namespace forces changed, each change named here. PostgreSQL is the host's (a database of
 * the test's own, owned by compose's user); the instances listen on ports of their own instead of all on
 * the image's port; the balancer's fixed address becomes loopback, where nginx connects from.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { freePort } from '../../support/free-port';
import { admin } from '../../support/backend';
import { graceSeconds, mountSource, portalServices, publishedPort, type ComposeConfig } from './compose';
import { LABEL } from './podman';

export interface HostedInstance {
  service: string;
  /** compose's environment for it, with the changes above. */
  env: Record<string, string>;
  /** Its named volume at /data. */
  volume: string;
  /** compose's stop_grace_period, in seconds. */
  graceS: number;
  port: number;
}

export interface HostedCompose {
  instances: HostedInstance[];
  /** The nginx configuration compose mounts into the balancer. */
  balancerConf: string;
  /** The port compose publishes the balancer on (its container port 80). */
  balancerPort: number;
  databaseUrl: string;
  /** Every request in the database: its reference and Idempotency-Key. */
  storedRequests(): Promise<{ reference: string; idempotency_key: string }[]>;
  drop(): Promise<void>;
}

export async function composeOnHost(config: ComposeConfig): Promise<HostedCompose> {
  const portals = portalServices(config);
  if (portals.length < 2) throw new Error(`compose.yaml builds ${portals.length} instance(s) of the portal; the balancer needs two`);
  const [balancerName, balancer] = Object.entries(config.services).find(([, s]) => mountSource(s, '/etc/nginx/conf.d/default.conf')) ?? [];
  if (!balancer) throw new Error("compose.yaml has no balancer: no service mounts a file at nginx's /etc/nginx/conf.d/default.conf");
  const balancerAddresses = Object.values(balancer.networks ?? {}).flatMap((n) => (n?.ipv4_address ? [n.ipv4_address] : []));

  // One database for every instance, as compose's DATABASE_URL gives them one.
  const urls = new Set(portals.map(([, s]) => s.environment?.DATABASE_URL ?? ''));
  if (urls.size !== 1 || urls.has('')) throw new Error(`compose.yaml's instances do not share one DATABASE_URL: ${[...urls].join(', ')}`);
  const composeUrl = new URL([...urls][0]);
  if (!config.services[composeUrl.hostname]) throw new Error(`DATABASE_URL names the host ${composeUrl.hostname}, which is no service of compose.yaml`);
  const database = `portal_deploy_${randomBytes(5).toString('hex')}`;
  const user = decodeURIComponent(composeUrl.username);
  await admin(`DO $$ BEGIN CREATE ROLE "${user}" LOGIN; EXCEPTION WHEN duplicate_object THEN NULL; END $$`);
  await admin(`CREATE DATABASE ${database} OWNER "${user}"`);
  const hostUrl = new URL(composeUrl);
  hostUrl.hostname = '127.0.0.1';
  hostUrl.pathname = `/${database}`;

  const instances: HostedInstance[] = [];
  for (const [service, definition] of portals) {
    const env = Object.fromEntries(Object.entries(definition.environment ?? {}).map(([k, v]) => [k, v ?? '']));
    env.DATABASE_URL = hostUrl.toString();
    if (env.TRUST_PROXY) env.TRUST_PROXY = env.TRUST_PROXY.split(',').map((a) => (balancerAddresses.includes(a.trim()) ? '127.0.0.1' : a)).join(',');
    const volume = mountSource(definition, '/data');
    if (!volume) throw new Error(`compose.yaml's ${service} keeps no volume at /data`);
    instances.push({ service, env, volume: `${LABEL}-${volume}`, graceS: graceSeconds(definition), port: await freePort() });
  }
  const balancerPort = publishedPort(balancer, 80);
  if (balancerPort === undefined) throw new Error(`compose.yaml's ${balancerName} publishes no port for nginx's port 80`);
  return {
    instances,
    balancerConf: mountSource(balancer, '/etc/nginx/conf.d/default.conf')!,
    balancerPort,
    databaseUrl: hostUrl.toString(),
    async storedRequests() {
      const db = new pg.Client({ connectionString: hostUrl.toString() });
      await db.connect();
      try {
        return (await db.query<{ reference: string; idempotency_key: string }>('SELECT reference, idempotency_key FROM requests')).rows;
      } finally {
        await db.end();
      }
    },
    drop: () => admin(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`),
  };
}
