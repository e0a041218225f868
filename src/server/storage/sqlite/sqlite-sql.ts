import type { DatabaseSync, StatementSync } from 'node:sqlite';
import type { Param, Sql } from '../sql';

/**
 * The Sql calls on a node:sqlite connection. Statements run synchronously;
 * while a transaction is open on this connection, other calls wait for it, so
 * a query from elsewhere in the process never lands inside it.
 */
export class SqliteSql implements Sql {
  readonly dialect = 'sqlite';
  private readonly statements = new Map<string, StatementSync>();
  private open: Promise<void> | undefined;

  constructor(readonly db: DatabaseSync) {}

  async all<T>(text: string, params: readonly Param[] = []): Promise<T[]> {
    await this.idle();
    return this.allNow<T>(text, params);
  }

  async run(text: string, params: readonly Param[] = []): Promise<number> {
    await this.idle();
    return this.runNow(text, params);
  }

  async exec(text: string): Promise<void> {
    await this.idle();
    this.db.exec(text);
  }

  async transaction<T>(work: (tx: Sql) => Promise<T>): Promise<T> {
    await this.idle();
    let done!: () => void;
    this.open = new Promise((resolve) => (done = resolve));
    const tx: Sql = {
      dialect: 'sqlite',
      all: async (text, params = []) => this.allNow(text, params),
      run: async (text, params = []) => this.runNow(text, params),
      exec: async (text) => void this.db.exec(text),
      transaction: () => Promise.reject(new Error('nested transactions are not used')),
      close: () => Promise.reject(new Error('close the connection, not the transaction')),
    };
    try {
      // IMMEDIATE: take the write lock now; a deferred transaction that reads first fails with SQLITE_BUSY_SNAPSHOT.
      this.db.exec('BEGIN IMMEDIATE');
      const result = await work(tx);
      this.db.exec('COMMIT');
      return result;
    } catch (error) {
      if (this.db.isTransaction) this.db.exec('ROLLBACK');
      throw error;
    } finally {
      this.open = undefined;
      done();
    }
  }

  async close(): Promise<void> {
    await this.idle();
    this.db.close();
  }

  private async idle(): Promise<void> {
    while (this.open) await this.open;
  }

  private statement(text: string): StatementSync {
    let statement = this.statements.get(text);
    if (!statement) this.statements.set(text, (statement = this.db.prepare(text)));
    return statement;
  }

  private allNow<T>(text: string, params: readonly Param[]): T[] {
    return this.statement(text).all(...params) as T[];
  }

  // Writes go through .run(): `.get()` on a writing statement can hide SQLITE_FULL (notes/intake-server.md).
  private runNow(text: string, params: readonly Param[]): number {
    return Number(this.statement(text).run(...params).changes);
  }
}
