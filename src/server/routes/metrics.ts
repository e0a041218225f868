import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyPluginAsync } from 'fastify';
import { HttpError } from '../http-error';
import type { PortalMetrics } from '../metrics';

export interface MetricsRouteOptions {
  metrics: PortalMetrics;
  /** METRICS_TOKEN: a scrape must send `Authorization: Bearer <token>`; empty = /metrics is not served. */
  token: string;
}

const digest = (text: string) => createHash('sha256').update(text).digest();

/** RFC 9110 §11.1: the scheme is case-insensitive and one or more spaces separate it from the credentials. */
const BEARER = /^bearer +(.*)$/i;

/**
 * GET /metrics: Prometheus text format, behind a bearer token. Without a
 * token it is not served at all: counts of requests and deliveries are the
 * operator's, not the public's.
 */
export const metricsRoute: FastifyPluginAsync<MetricsRouteOptions> = async (app, { metrics, token }) => {
  if (!token) {
    app.log.info('/metrics is off: set METRICS_TOKEN to serve it to your monitoring');
    return;
  }
  const expected = digest(token);
  app.get('/metrics', async (req, reply) => {
    const given = BEARER.exec(req.headers.authorization ?? '')?.[1];
    // Digests of equal length: the comparison takes the same time whatever was sent.
    if (given === undefined || !timingSafeEqual(digest(given), expected)) {
      throw new HttpError(401, 'A metrics token is required.');
    }
    return reply.header('content-type', metrics.registry.contentType).header('cache-control', 'no-store').send(await metrics.registry.metrics());
  });
};
