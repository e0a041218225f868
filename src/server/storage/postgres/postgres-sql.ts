import type pg from 'pg';
import { storesRequests, type DatabaseState } from '../database-state';
import type { Unavailability } from '../store-unavailable';
import { answered } from './answered';

// An array is sent as a PostgreSQL array (node-postgres writes its literal).
export type Param = string | number | null | Buffer | readonly string[];

interface Prepared {
  name: string;
  text: string;
}

const statements = new Map<string, Prepared>();

/**
 * The statement for a text of the portal's SQL: `?` placeholders as PostgreSQL's `$1, $2…` (the
 * portal's SQL has no `?` of its own), and a name, so each connection parses it once instead of at
 * every call (the texts are a fixed set: values are always parameters). PostgreSQL keeps a plan it finds
 * as good for any values (pool.ts); a statement whose best plan depends on how many rows match is `fresh`.
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

/**
 * Prepared statements on the pool, for the hot paths (the request writer, the shared rate-limit
 * counters): named, so parsed once per connection. Every call is answered (answered.ts): a database
 * that is gone fails as "unavailable" (503).
 */
export class PostgresSql {
  constructor(
    private readonly on: pg.Pool,
    private readonly state: DatabaseState,
  ) {}

  /** Rows of a query (or of a write with RETURNING). */
  async all<T>(text: string, params: readonly Param[] = []): Promise<T[]> {
    return (await this.query(prepared(text), params)).rows as T[];
  }

  /**
   * The same, but a lock not granted in time (`busy`) is the caller's to tell (tell) or to wait out: the state
   * hears nothing of it, so a wait the caller chooses turns no readiness red and writes no log line.
   */
  async allWaiting<T>(text: string, params: readonly Param[] = []): Promise<T[]> {
    return (await this.query(prepared(text), params, (kind) => kind !== 'busy')).rows as T[];
  }

  /** Tells the database's state of a failure a caller chose not to wait out (allWaiting). */
  tell(error: Error): void {
    this.state.unreachable(error);
  }

  /**
   * Rows of a query planned from the tables as they are at this call (sent unnamed, so never a plan kept
   * from when a table was small): for statements whose rows to read depend on the data, run seldom.
   */
  async fresh<T>(text: string, params: readonly Param[] = []): Promise<T[]> {
    return (await this.query({ text: prepared(text).text }, params)).rows as T[];
  }

  /** A write; resolves to the number of rows it changed. */
  async run(text: string, params: readonly Param[] = []): Promise<number> {
    return (await this.query(prepared(text), params)).rowCount ?? 0;
  }

  /** `statement` with no name is parsed and planned at this call only. */
  private query(statement: { name?: string; text: string }, params: readonly Param[], told?: (kind: Unavailability) => boolean): Promise<pg.QueryResult> {
    return answered(this.state, () => this.on.query({ ...statement, values: params as Param[] }), storesRequests(statement.text), told);
  }
}
