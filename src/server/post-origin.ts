import type { FastifyRequest } from 'fastify';

/** Who made the browser send a POST, as far as its headers tell. */
export type Sender = 'this-site' | 'other-site' | 'unknown';

/**
 * Tells a form posted from the portal's own pages from one another site
 * made the visitor's browser send. Origin decides when it names a site: the
 * portal's own origin (as the request reached it, proxies believed per
 * TRUST_PROXY; its host name pinned by plugins/host-pin.ts, so a rebound
 * name never gets here) or a configured one (PUBLIC_URL, CORS_ORIGINS). `Origin: null`
 * names none: sandboxed frames send it, and so does a same-origin post from a
 * page whose Referrer-Policy is no-referrer (ours). Then Fetch Metadata
 * decides: only `same-origin`, or `none` (the visitor's own action in the
 * browser) is ours. A browser that sends neither header is 'unknown'.
 */
export class PostOrigins {
  private readonly configured: Set<string>;

  constructor(configured: readonly string[]) {
    this.configured = new Set(configured);
  }

  judge(req: FastifyRequest): Sender {
    const origin = req.headers.origin;
    if (origin !== undefined && origin !== 'null') {
      return origin === `${req.protocol}://${req.host.toLowerCase()}` || this.configured.has(origin) ? 'this-site' : 'other-site';
    }
    const site = req.headers['sec-fetch-site'];
    if (site === undefined) return 'unknown';
    return site === 'same-origin' || site === 'none' ? 'this-site' : 'other-site';
  }
}
