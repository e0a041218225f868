/** The portal's image run as an operator runs it, by podman on the host network (all traffic on 127.0.0.1). */
import { setTimeout as sleep } from 'node:timers/promises';
import { IMAGE, LABEL, podman, podmanAsync, podmanTry, ULIMITS } from './podman';

export interface PortalContainer {
  name: string;
  port: number;
  baseUrl: string;
  /** The container's log (the server's JSON lines). */
  log(): string;
  /** How long the container's start took to be healthy, by the image's own HEALTHCHECK. */
  healthyAfterMs: number;
}

export interface ContainerOptions {
  name: string;
  port: number;
  /** A named volume at /data (made when missing, removed with the test's leftovers). */
  volume: string;
  env?: Record<string, string>;
  image?: string;
  /** Seconds the image must be healthy within. */
  healthyWithinS?: number;
}

/** The last lines of a container's log, for a message that says why it is not what it should be. */
export function logTail(name: string, lines = 15): string {
  const run = podmanTry(['logs', '--tail', String(lines), name]);
  return `${run.stdout}${run.stderr}`.trim();
}

/** Runs the image the way compose.yaml does, on a port of the host: data in the volume, the image's own user and command. */
export async function startPortal({ name, port, volume, env = {}, image = IMAGE, healthyWithinS = 20 }: ContainerOptions): Promise<PortalContainer> {
  if (!podmanTry(['volume', 'exists', volume]).ok) podman(['volume', 'create', '--label', LABEL, volume]);
  const envArgs = Object.entries({ PORT: String(port), HOST: '127.0.0.1', ...env }).flatMap(([k, v]) => ['-e', `${k}=${v}`]);
  // A read-only root without podman's tmpfs at /tmp: a write anywhere but /data fails where it happens.
  podman(['run', '-d', '--name', name, '--label', LABEL, '--network', 'host', '--read-only', '--read-only-tmpfs=false', ...ULIMITS, '-v', `${volume}:/data`, ...envArgs, image]);
  return waitHealthy(name, port, healthyWithinS);
}

/** Starts a stopped container again (same volume, same settings) and waits for its health check. */
export async function restartPortal(container: PortalContainer, healthyWithinS = 20): Promise<PortalContainer> {
  podman(['start', container.name]);
  return waitHealthy(container.name, container.port, healthyWithinS);
}

async function waitHealthy(name: string, port: number, withinS: number): Promise<PortalContainer> {
  const started = Date.now();
  for (;;) {
    const state = podman(['inspect', '--format', '{{.State.Status}}', name]).trim();
    if (state !== 'running') throw new Error(`the container ${name} stopped before it was healthy (${state}); its log ends:\n${logTail(name)}`);
    // The image's HEALTHCHECK, run now: podman keeps no timer without systemd, and this is the command Docker would run.
    if (podmanTry(['healthcheck', 'run', name]).ok) break;
    if (Date.now() - started > withinS * 1000) throw new Error(`the container ${name} was not healthy within ${withinS} s; its log ends:\n${logTail(name)}`);
    await sleep(250);
  }
  return { name, port, baseUrl: `http://127.0.0.1:${port}`, log: () => podman(['logs', name]), healthyAfterMs: Date.now() - started };
}

/** `docker stop` with the grace period given: SIGTERM, then SIGKILL after `graceS`; the container's exit code. */
export async function stopPortal(name: string, graceS: number): Promise<number> {
  // Not waited for synchronously: the test's SMTP server and clients must go on answering the server while it drains.
  await podmanAsync(['stop', '-t', String(graceS), name]);
  return Number(podman(['inspect', '--format', '{{.State.ExitCode}}', name]).trim());
}

/** Where a named volume's files are on the host (the test reads the SQLite database there). */
export function volumePath(volume: string): string {
  return podman(['volume', 'inspect', '--format', '{{.Mountpoint}}', volume]).trim();
}

/** The server's request log lines: who it believed sent each request, by URL. */
export function requestsLogged(container: Pick<PortalContainer, 'log'>): { url: string; remoteAddress: string }[] {
  return container
    .log()
    .split('\n')
    .flatMap((line) => {
      try {
        const entry = JSON.parse(line) as { req?: { url?: string; remoteAddress?: string } };
        return entry.req?.url ? [{ url: entry.req.url, remoteAddress: entry.req.remoteAddress ?? '' }] : [];
      } catch {
        return [];
      }
    });
}

/** How many requests to `path` the server has begun and not yet answered, by its log. */
export function unanswered(container: Pick<PortalContainer, 'log'>, path: string): number {
  const open = new Set<string>();
  for (const line of container.log().split('\n')) {
    try {
      const entry = JSON.parse(line) as { reqId?: string; msg?: string; req?: { url?: string } };
      if (entry.msg === 'incoming request' && entry.req?.url === path) open.add(entry.reqId!);
      if (entry.msg === 'request completed') open.delete(entry.reqId!);
    } catch {
      // not a log line of the server's
    }
  }
  return open.size;
}
