import type { DatabaseSync, SQLInputValue, StatementSync } from 'node:sqlite';
import { storesRequests, type DatabaseState } from '../database-state';
import { isStoreUnavailable } from '../store-unavailable';
import { sqliteError } from './sqlite-errors';
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
 */
export class NodeSqliteDialect implements Dialect {
  /** `state` hears whether the database stored (the log says once when it refuses, and when it is back). */
  constructor(
    private readonly db: DatabaseSync,
    private readonly state?: DatabaseState,
  ) {}

  createDriver(): Driver {
    return new NodeSqliteDriver(this.db, this.state);
  }

  createQueryCompiler() {
    return new SqliteQueryCompiler();
  }

  createAdapter() {
    return new SqliteAdapter();
  }

  createIntrospector(db: Kysely<unknown>) {
    return new SqliteIntrospector(db);
  }
}

class NodeSqliteDriver implements Driver {
  private readonly connection: NodeSqliteConnection;
  private turn: Promise<void> = Promise.resolve();

  constructor(
    private readonly db: DatabaseSync,
    state: DatabaseState | undefined,
  ) {
    this.connection = new NodeSqliteConnection(db, state);
  }

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    const previous = this.turn;
    let release!: () => void;
    this.turn = new Promise((resolve) => (release = resolve));
    await previous;
    this.connection.release = release;
    return this.connection;
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
  ) {}

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    try {
      const result = this.execute<R>(query);
      this.state?.answered(storesRequests(query.sql));
      return result;
    } catch (error) {
      const sorted = sqliteError(error);
      if (isStoreUnavailable(sorted)) this.state?.unreachable(sorted as Error);
      throw sorted;
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
