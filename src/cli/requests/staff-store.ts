import { loadStoreConfig, portalTimeZone, schemasDirOf, type StoreConfig } from '../../server/config';
import { ConfigError } from '../../server/config-error';
import { loadEnvFile } from '../../server/env-file';
import { openStorage } from '../../server/storage/open-storage';
import { loadPortalData, type PortalData } from '../../server/portal-data';
import type { Storage } from '../../server/storage/port';
import { StoreRefusal } from '../../server/storage/store-refusal';
import { CommandError } from './command-error';

/** What points at the store, said with a refusal: the operator checks these first. */
const WHERE = 'DATA_DIR (SQLite) and DATABASE_URL (PostgreSQL), from the environment or .env, as the server has them';

/** Connections a staff command needs: one at a time, and one spare. */
const POOL_SIZE = 2;

/** What the staff commands read of the server's settings: the store, the clock times are shown on, and where the forms and languages are. */
export type StaffConfig = StoreConfig & { timeZone: string; schemasDir: string };

/** The server's store settings, PORTAL_TIME_ZONE and SCHEMAS_DIR, from the environment and .env, as the server reads them. */
export function storeConfig(): StaffConfig {
  try {
    loadEnvFile();
    return { ...loadStoreConfig(), timeZone: portalTimeZone(), schemasDir: schemasDirOf() };
  } catch (error) {
    if (error instanceof ConfigError) throw new CommandError(`Configuration error: ${error.message}`);
    throw error;
  }
}

/** The forms and languages at SCHEMAS_DIR, as the server reads them; one line if they cannot be read. */
export function staffPortalData({ schemasDir }: Pick<StaffConfig, 'schemasDir'>): PortalData {
  try {
    return loadPortalData(schemasDir);
  } catch (error) {
    throw new CommandError(`Cannot read the forms and languages in ${schemasDir} (${(error as Error).message}); check SCHEMAS_DIR, and run npm run validate.`);
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
