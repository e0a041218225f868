import { randomBytes } from 'node:crypto';
import pg from 'pg';

/** The backend the server tests run on: the test matrix runs them once per backend (vitest.config.ts). */
export const BACKEND: 'sqlite' | 'postgres' = process.env.TEST_BACKEND === 'postgres' ? 'postgres' : 'sqlite';

/** Whether PostgreSQL answers (vitest.config.ts asks before the run): tests that need it in the SQLite run check this. */
export const POSTGRES_AVAILABLE = process.env.TEST_POSTGRES_AVAILABLE === '1';

/** The PostgreSQL server of the development and CI machines (trust auth). */
export const POSTGRES_ADMIN_URL = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

export interface FreshDatabase {
  url: string;
  drop(): Promise<void>;
}

/** A new, empty PostgreSQL database of its own for one test; `drop` removes it (and ends its connections). */
export async function freshPostgres(): Promise<FreshDatabase> {
  const name = `portal_test_${randomBytes(6).toString('hex')}`;
  await admin(`CREATE DATABASE ${name}`);
  const url = new URL(POSTGRES_ADMIN_URL);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}

/** One statement as the machine's PostgreSQL superuser (creating and dropping the tests' databases and roles). */
export async function admin(statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/** The environment that puts a test server on its own PostgreSQL database (none for SQLite). */
export async function backendEnv(): Promise<{ env: Record<string, string>; drop(): Promise<void> }> {
  if (BACKEND === 'sqlite') return { env: {}, drop: async () => {} };
  const db = await freshPostgres();
  return { env: { DATABASE_URL: db.url, PHOTO_URL_SECRET: 'test-photo-link-secret-of-32-characters!' }, drop: db.drop };
}
