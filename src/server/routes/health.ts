import { statfs } from 'node:fs/promises';
import type { FastifyPluginAsync } from 'fastify';
import type { Sql } from '../storage/sql';
import type { RequestStore } from '../storage/request-store';

export interface HealthRoutesOptions {
  sql: Sql;
  dataDir: string;
  minFreeDiskBytes: number;
  store: Pick<RequestStore, 'alive'>;
}

/** /healthz: the process answers. /readyz: it can also store requests (database answers, writer thread runs, disk has room). */
export const healthRoutes: FastifyPluginAsync<HealthRoutesOptions> = async (app, { sql, dataDir, minFreeDiskBytes, store }) => {

  app.get('/healthz', async () => ({ status: 'ok' }));

  app.get('/readyz', async (req, reply) => {
    const problems: string[] = [];
    try {
      await sql.all('SELECT 1');
    } catch (error) {
      req.log.error({ err: error }, 'readiness: database');
      problems.push('database');
    }
    if (!store.alive) problems.push('writer');
    try {
      const disk = await statfs(dataDir);
      if (disk.bavail * disk.bsize < minFreeDiskBytes) problems.push('disk');
    } catch (error) {
      req.log.error({ err: error }, 'readiness: disk');
      problems.push('disk');
    }
    return reply.code(problems.length ? 503 : 200).send({ status: problems.length ? 'unavailable' : 'ok', problems });
  });
};
