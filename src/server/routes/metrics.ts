import type { FastifyPluginAsync } from 'fastify';
import type { PortalMetrics } from '../metrics';

/** GET /metrics: Prometheus text format. */
export const metricsRoute: FastifyPluginAsync<{ metrics: PortalMetrics }> = async (app, { metrics }) => {
  app.get('/metrics', async (_req, reply) =>
    reply.header('content-type', metrics.registry.contentType).header('cache-control', 'no-store').send(await metrics.registry.metrics()),
  );
};
