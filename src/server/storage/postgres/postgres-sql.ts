import pg from 'pg';
import { DatabaseState } from '../database-state';
import type { Param, Sql } from '../sql';
import { STORE_UNAVAILABLE, storeUnavailable } from '../store-unavailable';
import { connectionLost } from './connection-errors';

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

  constructor(
    private readonly on: Queryable,
    /** Told of every call's outcome: the log says when the database goes and comes back, once. */
    readonly state = new DatabaseState(),
  ) {}

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
    return this.answered(() => this.on.query({ ...statement, values: params as Param[] }));
  }

  /** Runs a call to the database; one that finds it gone fails as "unavailable" (503), and the state hears of both. */
  private async answered<T>(call: () => Promise<T>): Promise<T> {
    try {
      const result = await call();
      this.state.answered();
      return result;
    } catch (error) {
      if (!connectionLost(error)) throw error;
      this.state.unreachable(error as Error);
      throw storeUnavailable(`database: ${(error as Error).message}`);
    }
  }

  async transaction<T>(work: (tx: Sql) => Promise<T>): Promise<T> {
    if (!(this.on instanceof pg.Pool)) throw new Error('nested transactions are not used');
    const pool = this.on;
    const client = await this.answered(() => pool.connect());
    let broken: Error | undefined;
    try {
      const tx = new PostgresSql(client, this.state);
      await tx.exec('BEGIN');
      const result = await work(tx);
      await tx.exec('COMMIT');
      return result;
    } catch (error) {
      if ((error as { code?: unknown }).code === STORE_UNAVAILABLE) broken = error as Error;
      else await client.query('ROLLBACK').catch(() => {});
      throw error;
    } finally {
      // A broken connection is discarded (released with its error); the pool opens a new one when next needed.
      client.release(broken);
    }
  }

  async close(): Promise<void> {
    if (this.on instanceof pg.Pool) await this.on.end();
  }
}

export interface PostgresOptions {
  url: string;
  poolSize: number;
  /** Wait for the commit to reach the disk: on for requests; off where losing the last writes costs nothing. */
  durable?: boolean;
  state?: DatabaseState;
}

/**
 * A pool on DATABASE_URL. Every connection commits synchronously (a 201 only
 * after the commit is on disk, whatever the server's default) and gives up
 * on a database that does not answer, so readiness turns red instead of hanging.
 */
/**
 * node-postgres emits 'error' on a connection the server ends (pg_terminate_backend, a failover, a restart,
 * a pooler's timeout) whenever no query is running on it; with no listener at that moment (a checked-out
 * connection between two statements, or one being handed out or taken back), that crashes the process.
 * Every connection of ours listens from birth: what it would report, its next query reports, and the pool
 * discards a connection that can no longer take queries when it comes back.
 */
class ListeningClient extends pg.Client {
  constructor(config?: string | pg.ClientConfig) {
    super(config);
    this.on('error', () => {});
  }
}

export function openPostgres({ url, poolSize, durable = true, state }: PostgresOptions): PostgresSql {
  const pool = new pg.Pool({
    Client: ListeningClient,
    connectionString: url,
    max: poolSize,
    connectionTimeoutMillis: 5_000,
    options: `-c synchronous_commit=${durable ? 'on' : 'off'} -c statement_timeout=30000`,
  });
  // Without a listener, an idle connection the server drops (restart, failover, a pooler's timeout) would
  // crash the process. The pool has dropped it already and opens another when needed; whether the database
  // itself is gone, the next call tells (DatabaseState).
  pool.on('error', () => {});
  return new PostgresSql(pool, state);
}
