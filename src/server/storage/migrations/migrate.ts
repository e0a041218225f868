import { sql } from 'kysely';
import type { Db } from '../queries/requests';

/** One step of the schema, written for a backend as its statements; applied once, in version order, at start. */
export interface Migration {
  version: number;
  name: string;
  statements: string[];
}

/** A backend's migrations, and how it keeps two instances that start together from migrating at once. */
export interface MigrationPlan {
  migrations: readonly Migration[];
  lock(tx: Db): Promise<void>;
}

/** The schema version a list of migrations makes. */
export const newestVersion = (migrations: readonly Migration[]) => Math.max(0, ...migrations.map((m) => m.version));

/**
 * Applies the migrations this database has not had, in one transaction (both
 * backends roll back DDL), and returns their versions. A database migrated by
 * a newer release is refused: its data may not fit this code.
 */
export async function migrate(db: Db, { migrations, lock }: MigrationPlan): Promise<number[]> {
  return db.transaction().execute(async (tx) => {
    await lock(tx);
    await tx.schema
      .createTable('schema_migrations')
      .ifNotExists()
      .addColumn('version', 'integer', (c) => c.primaryKey())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('applied_at', 'bigint', (c) => c.notNull())
      .execute();
    const done = new Set((await tx.selectFrom('schema_migrations').select('version').execute()).map((r) => Number(r.version)));
    const newest = newestVersion(migrations);
    const ahead = [...done].filter((v) => v > newest);
    if (ahead.length > 0) throw new Error(`The database has schema version ${Math.max(...ahead)}, newer than this release knows (${newest}): run the newer release.`);
    const applied: number[] = [];
    for (const m of migrations) {
      if (done.has(m.version)) continue;
      for (const statement of m.statements) await sql.raw(statement).execute(tx);
      await tx.insertInto('schema_migrations').values({ version: m.version, name: m.name, applied_at: Date.now() }).execute();
      applied.push(m.version);
    }
    return applied;
  });
}

/** The newest version applied; null when the table is empty, undefined when it does not exist. */
export async function appliedVersion(db: Db, hasTable: boolean): Promise<number | null | undefined> {
  if (!hasTable) return undefined;
  const row = await db.selectFrom('schema_migrations').select((eb) => eb.fn.max('version').as('version')).executeTakeFirst();
  return row?.version === null || row?.version === undefined ? null : Number(row.version);
}
