import { join } from 'node:path';
import { DatabaseSync, type SQLInputValue } from 'node:sqlite';
import pg from 'pg';

export type Param = string | number | null | Buffer;

/**
 * The test's own look into a server's database, as a staff tool would open
 * it: plain SQL with `?` placeholders on either backend. The portal itself
 * reaches its database only through the storage port (src/server/storage).
 */
export interface DatabaseProbe {
  readonly dialect: 'sqlite' | 'postgres';
  all<T>(text: string, params?: readonly Param[]): Promise<T[]>;
  /** A write; the number of rows it changed. */
  run(text: string, params?: readonly Param[]): Promise<number>;
  close(): Promise<void>;
}

export function probeDatabase({ dataDir, databaseUrl }: { dataDir: string; databaseUrl: string }): DatabaseProbe {
  if (databaseUrl) {
    const pool = new pg.Pool({ connectionString: databaseUrl, max: 2 });
    // The test drops its database when done, which ends these connections: nothing to report.
    pool.on('error', () => {});
    pool.on('connect', (client) => client.on('error', () => {}));
    const numbered = (text: string) => {
      let n = 0;
      return text.replace(/\?/g, () => `$${++n}`);
    };
    const query = (text: string, params: readonly Param[]) => pool.query(numbered(text), params as Param[]);
    return {
      dialect: 'postgres',
      all: async <T>(text: string, params: readonly Param[] = []) => (await query(text, params)).rows as T[],
      run: async (text, params = []) => (await query(text, params)).rowCount ?? 0,
      close: () => pool.end(),
    };
  }
  let db: DatabaseSync | undefined;
  // Opened when first used: the server makes the file.
  const open = () => (db ??= new DatabaseSync(join(dataDir, 'requests.db'), { timeout: 5000 }));
  return {
    dialect: 'sqlite',
    all: async <T>(text: string, params: readonly Param[] = []) => open().prepare(text).all(...(params as SQLInputValue[])) as T[],
    run: async (text, params = []) => Number(open().prepare(text).run(...(params as SQLInputValue[])).changes),
    close: async () => db?.close(),
  };
}
