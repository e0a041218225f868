import { PostgresDialect, type CompiledQuery, type DatabaseConnection, type Driver, type QueryResult, type TransactionSettings } from 'kysely';
import type pg from 'pg';
import { storesRequests, type DatabaseState } from '../database-state';
import { answered } from './answered';

/**
 * Kysely's PostgreSQL dialect on the portal's pool, with every call to the
 * database answered as the portal's own are (answered.ts): a lost connection
 * or a database that is down fails as "unavailable" (503), and the state hears of it.
 */
export class PortalPostgresDialect extends PostgresDialect {
  constructor(
    pool: pg.Pool,
    private readonly state: DatabaseState,
  ) {
    super({ pool });
  }

  override createDriver(): Driver {
    return new AnsweringDriver(super.createDriver(), this.state);
  }
}

class AnsweringConnection implements DatabaseConnection {
  constructor(
    readonly inner: DatabaseConnection,
    private readonly state: DatabaseState,
  ) {}

  executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    return answered(this.state, () => this.inner.executeQuery<R>(query), storesRequests(query.sql));
  }

  streamQuery<R>(query: CompiledQuery, chunkSize: number): AsyncIterableIterator<QueryResult<R>> {
    return this.inner.streamQuery<R>(query, chunkSize);
  }
}

class AnsweringDriver implements Driver {
  constructor(
    private readonly inner: Driver,
    private readonly state: DatabaseState,
  ) {}

  init(): Promise<void> {
    return this.inner.init();
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    return new AnsweringConnection(await answered(this.state, () => this.inner.acquireConnection(), false), this.state);
  }

  beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    return this.inner.beginTransaction(connection, settings);
  }

  commitTransaction(connection: DatabaseConnection): Promise<void> {
    return this.inner.commitTransaction(connection);
  }

  rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    // Its own connection: on failure it marks that one to be discarded.
    return this.inner.rollbackTransaction((connection as AnsweringConnection).inner);
  }

  releaseConnection(connection: DatabaseConnection): Promise<void> {
    return this.inner.releaseConnection((connection as AnsweringConnection).inner);
  }

  destroy(): Promise<void> {
    return this.inner.destroy();
  }
}
