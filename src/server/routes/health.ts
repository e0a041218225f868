import { statfs } from 'node:fs/promises';
import type { FastifyPluginAsync } from 'fastify';
import type { RequestStore } from '../intake/request-store';
import type { DiskGuard } from '../photos/disk-guard';
import type { Storage } from '../storage/port';

export interface HealthRoutesOptions {
  storage: Pick<Storage, 'ping' | 'state'>;
  dataDir: string;
  minFreeDiskBytes: number;
  store: Pick<RequestStore, 'alive'>;
  /** Whether unclaimed photos press on their quota: a warning, not a failure (uploads still find room). */
  room?: Pick<DiskGuard, 'underPressure'>;
}

/** Seconds a balancer or client waits before asking a not-ready instance again. */
const RETRY_AFTER_SECONDS = 5;

/**
 * /healthz: the process answers. /readyz: it can also store requests (database answers, writer thread
 * runs, disk has room). A failed check is not logged here: the database's state is told once when it
 * changes (DatabaseState), not at every probe.
 */
export const healthRoutes: FastifyPluginAsync<HealthRoutesOptions> = async (app, { storage, dataDir, minFreeDiskBytes, store, room }) => {

  app.get('/healthz', async () => ({ status: 'ok' }));

  app.get('/readyz', async (_req, reply) => {
    const problems: string[] = [];
    // Red too while the database answers reads but refuses writes (locked elsewhere, full), as last found by a write.
    if (!(await storage.ping().then(() => true, () => false)) || storage.state.refusingWrites) problems.push('database');
    if (!store.alive) problems.push('writer');
    const disk = await statfs(dataDir).catch(() => undefined);
    if (!disk || disk.bavail * disk.bsize < minFreeDiskBytes) problems.push('disk');
    if (problems.length > 0) reply.code(503).header('retry-after', String(RETRY_AFTER_SECONDS));
    const warnings = problems.length === 0 && (await room?.underPressure().catch(() => false)) ? ['unclaimed-photos'] : [];
    return reply.send({ status: problems.length ? 'unavailable' : 'ok', problems, ...(warnings.length ? { warnings } : {}) });
  });
};
