import type { DatabaseSync, SQLInputValue, StatementSync } from 'node:sqlite';
import { storesRequests, type DatabaseState } from '../database-state';
import { isStoreUnavailable } from '../store-unavailable';
import { isBusy, sqliteError } from './sqlite-errors';
import {
  CompiledQuery,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type Kysely,
  type QueryResult,
} from 'kysely';

/**
 * Kysely on one node:sqlite connection. Its statements run synchronously, and
 * whoever has the connection (a query, or a whole transaction across its
 * awaits) has it alone: others wait their turn, so a query from elsewhere in
 * the process never lands inside a transaction. Transactions take the write
 * lock at BEGIN (IMMEDIATE): a deferred one that reads first fails with
 * SQLITE_BUSY_SNAPSHOT when another connection wrote meanwhile.
 *
 * With `lockWaitMs` (the server's own connection, opened with no busy timeout: SQLite's busy wait sleeps
 * on the thread, which here is the event loop) a statement that finds the write lock taken elsewhere is
 * tried again after a pause, up to that long, while others have their turn; then it fails as busy (503).
 */
export class NodeSqliteDialect implements Dialect {
  /** `state` hears whether the database stored (the log says once when it refuses, and when it is back). */
  constructor(
    private readonly db: DatabaseSync,
    private readonly state?: DatabaseState,
    private readonly lockWaitMs = 0,
  ) {}

  createDriver(): Driver {
    return new NodeSqliteDriver(this.db, this.state, this.lockWaitMs);
  }

  createQueryCompiler() {
    return new SqliteQueryCompiler();
  }

  createAdapter() {
    return new NodeSqliteAdapter();
  }

  createIntrospector(db: Kysely<unknown>) {
    return new SqliteIntrospector(db);
  }
}

/**
 * Kysely would otherwise hold its own lock for one connection around each use, also while a statement
 * here waits for a lock held elsewhere; the driver's turns already keep uses apart (and let others in meanwhile).
 */
class NodeSqliteAdapter extends SqliteAdapter {
  override get supportsMultipleConnections(): boolean {
    return true;
  }
}

class NodeSqliteDriver implements Driver {
  private readonly connection: NodeSqliteConnection;
  private turn: Promise<void> = Promise.resolve();

  constructor(
    private readonly db: DatabaseSync,
    state: DatabaseState | undefined,
    lockWaitMs: number,
  ) {
    const pause = async (ms: number) => {
      this.connection.release();
      await new Promise((resolve) => setTimeout(resolve, ms));
      await this.takeTurn();
    };
    this.connection = new NodeSqliteConnection(db, state, lockWaitMs, pause);
  }

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    await this.takeTurn();
    return this.connection;
  }

  private async takeTurn(): Promise<void> {
    const previous = this.turn;
    let release!: () => void;
    this.turn = new Promise((resolve) => (release = resolve));
    await previous;
    this.connection.release = release;
  }

  async releaseConnection(): Promise<void> {
    this.connection.release();
  }

  async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('BEGIN IMMEDIATE'));
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('COMMIT'));
  }

  async rollbackTransaction(): Promise<void> {
    if (this.db.isTransaction) this.db.exec('ROLLBACK');
  }

  async destroy(): Promise<void> {
    await this.turn;
    this.db.close();
  }
}

class NodeSqliteConnection implements DatabaseConnection {
  release: () => void = () => {};
  private readonly statements = new Map<string, StatementSync>();

  constructor(
    private readonly db: DatabaseSync,
    private readonly state: DatabaseState | undefined,
    private readonly lockWaitMs: number,
    /** Gives up the connection for `ms`, then waits for its turn again. */
    private readonly pause: (ms: number) => Promise<void>,
  ) {}

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    const deadline = Date.now() + this.lockWaitMs;
    for (let wait = 2; ; wait = Math.min(2 * wait, 50)) {
      try {
        const result = this.execute<R>(query);
        this.state?.answered(storesRequests(query.sql));
        return result;
      } catch (error) {
        // Outside a transaction a busy statement changed nothing (BEGIN IMMEDIATE included): it can run again.
        if (isBusy(error) && !this.db.isTransaction && Date.now() + wait < deadline) {
          await this.pause(wait);
          continue;
        }
        const sorted = sqliteError(error);
        if (isStoreUnavailable(sorted)) this.state?.unreachable(sorted as Error);
        throw sorted;
      }
    }
  }

  // Writes go through run()/all(), never get(): get() on a writing statement can hide SQLITE_FULL (notes/intake-server.md).
  private execute<R>({ sql, parameters }: CompiledQuery): QueryResult<R> {
    let statement = this.statements.get(sql);
    if (!statement) this.statements.set(sql, (statement = this.db.prepare(sql)));
    const values = parameters as SQLInputValue[];
    if (statement.columns().length > 0) return { rows: statement.all(...values) as R[] };
    const { changes, lastInsertRowid } = statement.run(...values);
    return { rows: [], numAffectedRows: BigInt(changes), insertId: BigInt(lastInsertRowid) };
  }

  async *streamQuery(): AsyncIterableIterator<QueryResult<never>> {
    throw new Error('streaming is not used');
  }
}
