import type { FastifyInstance } from 'fastify';
import { HttpError } from '../http-error';

/** Names of this machine itself: a browser sends them only to a server on its own machine, never after a DNS rebinding. */
const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

/** Probes and scrapers ask by address (a pod's IP): they serve no page and take no post. */
const UNPINNED = new Set(['/healthz', '/readyz', '/metrics']);

/**
 * The host names the portal answers to: PUBLIC_URL's, PORTAL_HOSTS (host names,
 * ports not compared) and loopback. A request naming another host is refused
 * with 421 before any route sees it: a page of a rebound name (evil.example
 * resolving to this server) would otherwise be this site's own, and its posts
 * would pass the cross-site check (post-origin.ts compares Origin with Host).
 */
export function portalHostNames(publicUrl: string, portalHosts: readonly string[]): Set<string> {
  const names = new Set([...LOOPBACK, ...portalHosts.map((h) => h.toLowerCase())]);
  if (publicUrl) names.add(new URL(publicUrl).hostname);
  return names;
}

export function installHostPin(app: FastifyInstance, names: ReadonlySet<string>): void {
  app.addHook('onRequest', async (req) => {
    if (UNPINNED.has(req.url.split('?')[0])) return;
    if (!names.has(req.hostname.toLowerCase())) throw new HttpError(421, 'This server does not answer for that host name.');
  });
}
