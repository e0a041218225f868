import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyPluginAsync } from 'fastify';
import { HttpError } from '../http-error';
import type { PortalMetrics } from '../metrics';

export interface MetricsRouteOptions {
  metrics: PortalMetrics;
  /** METRICS_TOKEN: when set, a scrape must send `Authorization: Bearer <token>`. */
  token: string;
}

const digest = (text: string) => createHash('sha256').update(text).digest();

/** GET /metrics: Prometheus text format; behind a bearer token when one is configured. */
export const metricsRoute: FastifyPluginAsync<MetricsRouteOptions> = async (app, { metrics, token }) => {
  const expected = digest(`Bearer ${token}`);
  app.get('/metrics', async (req, reply) => {
    // Digests of equal length: the comparison takes the same time whatever was sent.
    if (token && !timingSafeEqual(digest(req.headers.authorization ?? ''), expected)) {
      throw new HttpError(401, 'A metrics token is required.');
    }
    return reply.header('content-type', metrics.registry.contentType).header('cache-control', 'no-store').send(await metrics.registry.metrics());
  });
};
