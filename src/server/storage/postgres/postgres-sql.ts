import type pg from 'pg';
import { storesRequests, type DatabaseState } from '../database-state';
import { isStoreUnavailable, unavailability } from '../store-unavailable';
import { answered } from './answered';

export type Param = string | number | null | Buffer;

interface Prepared {
  name: string;
  text: string;
}

const statements = new Map<string, Prepared>();

/**
 * The statement for a text of the portal's SQL: `?` placeholders as PostgreSQL's `$1, $2…` (the
 * portal's SQL has no `?` of its own), and a name, so each connection parses it once instead of at
 * every call (the texts are a fixed set: values are always parameters). Plans are made at each call
 * (pool.ts: a plan kept from when a table was small read whole tables later).
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

/**
 * Prepared statements on the pool, for the hot paths (the request writer, the shared rate-limit
 * counters): named, so parsed once per connection. Every call is answered (answered.ts): a database
 * that is gone fails as "unavailable" (503).
 */
export class PostgresSql {
  constructor(
    private readonly on: Queryable,
    private readonly state: DatabaseState,
  ) {}

  /** Rows of a query (or of a write with RETURNING). */
  async all<T>(text: string, params: readonly Param[] = []): Promise<T[]> {
    return (await this.query(prepared(text), params)).rows as T[];
  }

  /** A write; resolves to the number of rows it changed. */
  async run(text: string, params: readonly Param[] = []): Promise<number> {
    return (await this.query(prepared(text), params)).rowCount ?? 0;
  }

  private query(statement: Prepared | { text: string }, params: readonly Param[]): Promise<pg.QueryResult> {
    return answered(this.state, () => this.on.query({ ...statement, values: params as Param[] }), storesRequests(statement.text));
  }

  /**
   * Runs `work` in one transaction on one connection: committed when it resolves, rolled back when it throws.
   * `locks`: transaction-level advisory locks, each a text hashed with its seed, taken in one order (so two
   * transactions never wait on each other) in the same round trip as BEGIN.
   */
  async transaction<T>(work: (tx: PostgresSql) => Promise<T>, locks?: { seed: number; keys: readonly string[] }): Promise<T> {
    const pool = this.on as pg.Pool;
    const client = await answered(this.state, () => pool.connect(), false);
    let broken: Error | undefined;
    try {
      const tx = new PostgresSql(client, this.state);
      // A simple query (no parameters) may hold two statements: the texts are quoted as literals.
      const begin =
        locks && locks.keys.length > 0
          ? `BEGIN; SELECT pg_advisory_xact_lock(h) FROM (SELECT hashtextextended(k, ${Math.trunc(locks.seed)}) AS h FROM unnest(ARRAY[${locks.keys
              .map((k) => client.escapeLiteral(k))
              .join(', ')}]::text[]) k ORDER BY 1) locks`
          : 'BEGIN';
      await tx.query({ text: begin }, []);
      const result = await work(tx);
      await tx.query({ text: 'COMMIT' }, []);
      return result;
    } catch (error) {
      // A lock not granted or a full disk leaves the connection sound: rolled back and reused.
      if (isStoreUnavailable(error) && unavailability(error) === 'unreachable') broken = error as Error;
      else await client.query('ROLLBACK').catch(() => {});
      throw error;
    } finally {
      // A broken connection is discarded (released with its error); the pool opens a new one when next needed.
      client.release(broken);
    }
  }
}
