import { sql } from 'kysely';
import { POSTGRES_MIGRATIONS } from '../migrations/history';
import type { MigrationPlan } from '../migrations/migrate';

/** Any number that is the portal's own: instances starting together migrate one after the other. */
const MIGRATION_LOCK = 7_316_402;

export const POSTGRES_PLAN: MigrationPlan = {
  migrations: POSTGRES_MIGRATIONS,
  lock: async (tx) => {
    // Another instance may migrate for longer than the pool's lock_timeout: this wait has none.
    await sql`SET LOCAL lock_timeout = 0`.execute(tx);
    await sql`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK})`.execute(tx);
  },
};
