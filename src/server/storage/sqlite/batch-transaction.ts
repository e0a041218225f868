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
 * batch. Each item runs in its own savepoint, so an item that throws fails
 * alone; a failed commit (disk full) throws for the whole batch.
 * BEGIN IMMEDIATE: the batch reads before it writes, and another connection
 * writes too (photo uploads, the mail sender); a deferred transaction would
 * then fail with SQLITE_BUSY_SNAPSHOT instead of waiting for the lock.
 */
export function batchTransaction<I, O>(db: DatabaseSync, writeOne: (item: I) => O): (items: I[]) => Outcome<O>[] {
  return (items) => {
    db.exec('BEGIN IMMEDIATE');
    try {
      const outcomes = items.map((item): Outcome<O> => {
        db.exec('SAVEPOINT item');
        try {
          const value = writeOne(item);
          db.exec('RELEASE item');
          return { ok: true, value };
        } catch (error) {
          db.exec('ROLLBACK TO item; RELEASE item');
          return error instanceof UndoItem ? { ok: true, value: error.outcome as O } : { ok: false, error: plainError(sqliteError(error)) };
        }
      });
      db.exec('COMMIT');
      return outcomes;
    } catch (error) {
      if (db.isTransaction) db.exec('ROLLBACK');
      throw error;
    }
  };
}
