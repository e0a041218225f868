import { SQLITE_MIGRATIONS } from '../migrations/history';
import type { MigrationPlan } from '../migrations/migrate';

/** SQLite's transaction takes the write lock at BEGIN IMMEDIATE: two instances never share one database file. */
export const SQLITE_PLAN: MigrationPlan = { migrations: SQLITE_MIGRATIONS, lock: async () => {} };
