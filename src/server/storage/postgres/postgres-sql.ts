import pg from 'pg';
import type { Param, Sql } from '../sql';
import { storeUnavailable } from '../store-unavailable';

// Ids, counts and millisecond times are BIGINT: as numbers, as SQLite gives them (all below 2^53).
pg.types.setTypeParser(pg.types.builtins.INT8, Number);

interface Prepared {
  name: string;
  text: string;
}

const statements = new Map<string, Prepared>();

/**
 * The statement for a text of the portal's SQL: `?` placeholders as PostgreSQL's `$1, $2…` (the
 * portal's SQL has no `?` of its own), and a name, so each connection parses and plans it once
 * instead of at every call (the texts are a fixed set: values are always parameters).
 */
function prepared(text: string): Prepared {
  let statement = statements.get(text);
  if (statement === undefined) {
    let n = 0;
    statement = { name: `portal_${statements.size}`, text: text.replace(/\?/g, () => `$${++n}`) };
    statements.set(text, statement);
  }
  return statement;
}

type Queryable = pg.Pool | pg.PoolClient;

/** The Sql calls on a node-postgres pool (or, inside a transaction, on one of its connections). */
export class PostgresSql implements Sql {
  readonly dialect = 'postgres';

  constructor(private readonly on: Queryable) {}

  async all<T>(text: string, params: readonly Param[] = []): Promise<T[]> {
    return (await this.query(prepared(text), params)).rows as T[];
  }

  async run(text: string, params: readonly Param[] = []): Promise<number> {
    return (await this.query(prepared(text), params)).rowCount ?? 0;
  }

  /** Statements without parameters, several at once (migrations): not prepared. */
  async exec(text: string): Promise<void> {
    await this.query({ text }, []);
  }

  private async query(statement: Prepared | { text: string }, params: readonly Param[]): Promise<pg.QueryResult> {
    try {
      return await this.on.query({ ...statement, values: params as Param[] });
    } catch (error) {
      throw unavailable(error) ? storeUnavailable(`database: ${(error as Error).message}`) : error;
    }
  }

  async transaction<T>(work: (tx: Sql) => Promise<T>): Promise<T> {
    if (!(this.on instanceof pg.Pool)) throw new Error('nested transactions are not used');
    const client = await this.on.connect().catch((error: unknown) => {
      throw storeUnavailable(`database: ${(error as Error).message}`);
    });
    try {
      await client.query('BEGIN');
      const result = await work(new PostgresSql(client));
      await client.query('COMMIT');
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => {});
      throw error;
    } finally {
      client.release();
    }
  }

  async close(): Promise<void> {
    if (this.on instanceof pg.Pool) await this.on.end();
  }
}

/**
 * The database cannot be reached or is out of room (no connection, a pool
 * timeout, SQLSTATE classes 08 connection, 28 refused login, 3D no such
 * database, 53 resources, 57 shutting down):
 * the service, not the request, is at fault, and the answer is 503.
 */
function unavailable(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  if (typeof code !== 'string') return true;
  return /^(08|28|3D|53|57)/.test(code) || /^E[A-Z]+$/.test(code);
}

export interface PostgresOptions {
  url: string;
  poolSize: number;
  /** Wait for the commit to reach the disk: on for requests; off where losing the last writes costs nothing. */
  durable?: boolean;
  /** An idle connection that broke (database restarted): logged, and the pool replaces it. */
  onError?: (error: Error) => void;
}

/**
 * A pool on DATABASE_URL. Every connection commits synchronously (a 201 only
 * after the commit is on disk, whatever the server's default) and gives up
 * on a database that does not answer, so readiness turns red instead of hanging.
 */
export function openPostgres({ url, poolSize, durable = true, onError = () => {} }: PostgresOptions): PostgresSql {
  const pool = new pg.Pool({
    connectionString: url,
    max: poolSize,
    connectionTimeoutMillis: 5_000,
    options: `-c synchronous_commit=${durable ? 'on' : 'off'} -c statement_timeout=30000`,
  });
  // Without a listener, an idle connection the server drops (restart, failover) would crash the process.
  pool.on('error', onError);
  return new PostgresSql(pool);
}
