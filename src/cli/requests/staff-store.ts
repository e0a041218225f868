import { ConfigError, loadStoreConfig, portalTimeZone, type StoreConfig } from '../../server/config';
import { loadEnvFile } from '../../server/env-file';
import { openStorage } from '../../server/storage/open-storage';
import type { Storage } from '../../server/storage/port';
import { StoreRefusal } from '../../server/storage/store-refusal';
import { CommandError } from './command-error';

/** What points at the store, said with a refusal: the operator checks these first. */
const WHERE = 'DATA_DIR (SQLite) and DATABASE_URL (PostgreSQL), from the environment or .env, as the server has them';

/** Connections a staff command needs: one at a time, and one spare. */
const POOL_SIZE = 2;

/** What the staff commands read of the server's settings: the store, and the clock times are shown on. */
export type StaffConfig = StoreConfig & { timeZone: string };

/** The server's store settings and PORTAL_TIME_ZONE, from the environment and .env, as the server reads them. */
export function storeConfig(): StaffConfig {
  try {
    loadEnvFile();
    return { ...loadStoreConfig(), timeZone: portalTimeZone() };
  } catch (error) {
    if (error instanceof ConfigError) throw new CommandError(`Configuration error: ${error.message}`);
    throw error;
  }
}

/**
 * Opens the store the server's configuration names, only if a server of
 * this release made it (never creating or migrating one), and names it on
 * stderr before the command acts on it.
 */
export async function openStaffStore(config: StoreConfig, { readonly }: { readonly: boolean }): Promise<Storage> {
  try {
    const storage = await openStorage({ ...config, databasePoolSize: POOL_SIZE }, { readonly, existing: true });
    console.error(storage.description);
    return storage;
  } catch (error) {
    if (!(error instanceof StoreRefusal)) throw error;
    throw new CommandError(error.kind === 'version' ? error.message : `${error.message}. Nothing was done: check ${WHERE}.`);
  }
}
