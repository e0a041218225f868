import type { Db } from './database';

interface Pending<I, O> {
  item: I;
  resolve: (value: O) => void;
  reject: (reason: unknown) => void;
}

/**
 * Group commit: every item submitted during one event-loop turn is written
 * in a single transaction, so one fsync covers the whole batch. Callers are
 * answered only after that commit. Each item runs in its own savepoint, so
 * an item that throws fails alone; a failed commit (disk full) fails them all.
 */
export class GroupCommit<I, O> {
  private pending: Pending<I, O>[] = [];
  private scheduled = false;
  private readonly runBatch: (batch: Pending<I, O>[]) => { ok: boolean; value?: O; error?: unknown }[];

  constructor(db: Db, writeOne: (item: I) => O) {
    const one = db.transaction(writeOne);
    // Nested db.transaction calls become savepoints inside the outer one.
    this.runBatch = db.transaction((batch: Pending<I, O>[]) =>
      batch.map((p) => {
        try {
          return { ok: true, value: one(p.item) };
        } catch (error) {
          return { ok: false, error };
        }
      }),
    );
  }

  submit(item: I): Promise<O> {
    return new Promise<O>((resolve, reject) => {
      this.pending.push({ item, resolve, reject });
      if (!this.scheduled) {
        this.scheduled = true;
        // setImmediate runs after the poll phase: every request parsed in this turn joins the batch.
        setImmediate(() => this.flush());
      }
    });
  }

  /** Commits what is queued now; also used on shutdown. */
  flush(): void {
    this.scheduled = false;
    const batch = this.pending;
    this.pending = [];
    if (batch.length === 0) return;
    let outcomes;
    try {
      outcomes = this.runBatch(batch);
    } catch (error) {
      for (const p of batch) p.reject(error);
      return;
    }
    batch.forEach((p, i) => {
      const outcome = outcomes[i];
      if (outcome.ok) p.resolve(outcome.value as O);
      else p.reject(outcome.error);
    });
  }
}
