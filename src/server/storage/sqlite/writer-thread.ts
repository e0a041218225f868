import { once } from 'node:events';
import { Worker } from 'node:worker_threads';
import { toError } from '../group-commit';
import type { Outcome, RequestWriter, WritePolicy } from '../port';
import type { DeliveryUpdate, NewRequest, WriteOutcome } from '../records';
import type { DatabaseState } from '../database-state';
import { isStoreUnavailable, storeUnavailable } from '../store-unavailable';
import type { FromWriter, ToWriter } from './request-writer';

interface Waiting {
  /** With the outcomes of a batch; with nothing for recorded deliveries. */
  resolve: (outcomes?: Outcome<WriteOutcome>[]) => void;
  reject: (reason: unknown) => void;
}

/**
 * SQLite's request writer: a thread with its own connection
 * (request-writer.ts), so the fsync of one batch overlaps with parsing and
 * validating the next.
 */
export class SqliteWriterThread implements RequestWriter {
  private readonly waiting = new Map<number, Waiting>();
  private nextSeq = 0;
  private failure: Error | undefined;
  private closing = false;

  private constructor(
    private readonly thread: Worker,
    state: DatabaseState,
  ) {
    thread.on('message', (message: FromWriter) => {
      if ('ready' in message) return;
      const waiting = this.waiting.get(message.seq);
      this.waiting.delete(message.seq);
      if ('failed' in message) {
        const error = toError(message.failed);
        if (isStoreUnavailable(error)) state.unreachable(error);
        waiting?.reject(error);
      } else {
        state.answered();
        waiting?.resolve('outcomes' in message ? message.outcomes : undefined);
      }
    });
    // A writer that dies takes no request with it unanswered: pending and later submits fail with 503.
    thread.on('error', (error) => this.fail(storeUnavailable(error.message)));
    thread.on('exit', () => this.fail(storeUnavailable('The request writer stopped.')));
  }

  /** Starts the thread on the (already migrated) database in `dataDir`. */
  static async start(dataDir: string, policy: WritePolicy, state: DatabaseState): Promise<SqliteWriterThread> {
    // Compiled, the thread's entry is a built module beside the server; from source, a loader runs it through tsx.
    const entry = import.meta.url.endsWith('.ts') ? './writer-entry.mjs' : './sqlite-writer.js';
    const thread = new Worker(new URL(entry, import.meta.url), { workerData: { dataDir, ...policy } });
    await once(thread, 'message'); // ready; rejects if the thread fails to open the database
    return new SqliteWriterThread(thread, state);
  }

  get alive(): boolean {
    return this.failure === undefined;
  }

  async write(items: NewRequest[]): Promise<Outcome<WriteOutcome>[]> {
    return (await this.send((seq) => ({ seq, items, sentAt: Date.now() }))) ?? [];
  }

  async recordDeliveries(updates: readonly DeliveryUpdate[], now: number): Promise<void> {
    await this.send((seq) => ({ seq, deliveries: [...updates], now }));
  }

  private send(message: (seq: number) => ToWriter): Promise<Outcome<WriteOutcome>[] | undefined> {
    if (this.failure) return Promise.reject(this.failure);
    const seq = this.nextSeq++;
    return new Promise((resolve, reject) => {
      this.waiting.set(seq, { resolve, reject });
      this.thread.postMessage(message(seq));
    });
  }

  async close(): Promise<void> {
    if (this.failure) return;
    this.closing = true;
    const exited = once(this.thread, 'exit');
    this.thread.postMessage({ close: true } satisfies ToWriter);
    await exited;
  }

  private fail(error: Error): void {
    if (this.closing) return;
    this.failure ??= error;
    for (const { reject } of this.waiting.values()) reject(error);
    this.waiting.clear();
  }
}
