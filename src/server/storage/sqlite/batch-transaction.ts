import type { DatabaseSync } from 'node:sqlite';
import { plainError } from '../group-commit';
import type { Outcome } from '../port';
import { sqliteError } from './sqlite-errors';

/** Thrown by an item to undo its writes and still answer with `outcome` (a photo another request claimed). */
export class UndoItem<O> extends Error {
  constructor(readonly outcome: O) {
    super('item undone');
  }
}

/**
 * Writes a batch in a single transaction, so one fsync covers the whole
 * batch; a failed commit (disk full) throws for the whole batch. An item that
 * throws fails alone: the batch is first written without savepoints, and only
 * when an item throws is it undone and written again with a savepoint per item.
 * A savepoint per item cost the writer about a seventh of its CPU per submit
 * (the statement bench: the statements, and the copies of the pages each
 * changes), where nearly every batch has no item that fails. A batch with one
 * that fails is written twice: at worst, twice the writer's work for it.
 * BEGIN IMMEDIATE: the batch reads before it writes, and another connection
 * writes too (photo uploads, the mail sender); a deferred transaction would
 * then fail with SQLITE_BUSY_SNAPSHOT instead of waiting for the lock.
 */
export function batchTransaction<I, O>(db: DatabaseSync, writeOne: (item: I) => O): (items: I[]) => Outcome<O>[] {
  const [savepoint, release, undo] = ['SAVEPOINT item', 'RELEASE item', 'ROLLBACK TO item'].map((sql) => db.prepare(sql));

  /** Every item, or undefined as soon as one throws (what the batch wrote is then to be rolled back). */
  const whole = (items: I[]): Outcome<O>[] | undefined => {
    const outcomes: Outcome<O>[] = [];
    for (const item of items) {
      try {
        outcomes.push({ ok: true, value: writeOne(item) });
      } catch {
        return undefined;
      }
    }
    return outcomes;
  };

  const alone = (item: I): Outcome<O> => {
    savepoint.run();
    try {
      const value = writeOne(item);
      release.run();
      return { ok: true, value };
    } catch (error) {
      undo.run();
      release.run();
      return error instanceof UndoItem ? { ok: true, value: error.outcome as O } : { ok: false, error: plainError(sqliteError(error)) };
    }
  };

  return (items) => {
    db.exec('BEGIN IMMEDIATE');
    try {
      let outcomes = whole(items);
      if (outcomes === undefined) {
        // A statement that failed may have ended the transaction itself (SQLITE_FULL).
        if (db.isTransaction) db.exec('ROLLBACK');
        db.exec('BEGIN IMMEDIATE');
        outcomes = items.map(alone);
      }
      db.exec('COMMIT');
      return outcomes;
    } catch (error) {
      if (db.isTransaction) db.exec('ROLLBACK');
      throw error;
    }
  };
}
