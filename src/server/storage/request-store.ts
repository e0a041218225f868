import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { Worker } from 'node:worker_threads';
import type { Locale, RepairRequest, Variant } from '../../core/types';
import type { QueuedDelivery } from '../outbox/delivery';
import { GroupCommit, toError, type Outcome } from './group-commit';
import type { FromWriter, SubmitOutcome, ToWriter, WriteItem, WriterOptions } from './request-writer';

export type { SubmitOutcome } from './request-writer';

export interface Submission {
  brand: string;
  variant: Variant;
  locale: Locale;
  payload: RepairRequest;
  idempotencyKey?: string;
  /** Deliveries to queue with the request; built by the caller for the reference and time given to it. */
  deliveries: (reference: string, receivedAt: number) => QueuedDelivery[];
}

interface Waiting {
  resolve: (outcomes: Outcome<SubmitOutcome>[]) => void;
  reject: (reason: unknown) => void;
}

/**
 * Stores repair requests with their photos claimed and their mails queued,
 * in one transaction. The writes run on a writer thread with its own
 * connection (request-writer.ts), so the fsync of one batch overlaps with
 * parsing and validating the next; each submit resolves only once the
 * transaction holding it is committed and fsynced.
 */
export class RequestStore {
  private readonly commits = new GroupCommit<WriteItem, SubmitOutcome>((items) => this.commit(items));
  private readonly waiting = new Map<number, Waiting>();
  private nextSeq = 0;
  private failure: Error | undefined;
  private closing = false;

  private constructor(private readonly writer: Worker) {
    writer.on('message', (message: FromWriter) => {
      if ('ready' in message) return;
      const waiting = this.waiting.get(message.seq);
      this.waiting.delete(message.seq);
      if ('failed' in message) waiting?.reject(toError(message.failed));
      else waiting?.resolve(message.outcomes);
    });
    // A writer that dies takes no request with it unanswered: pending and later submits fail with 503.
    writer.on('error', (error) => this.fail(writerDown(error.message)));
    writer.on('exit', () => this.fail(writerDown('The request writer stopped.')));
  }

  /** False once the writer thread has died: nothing can be stored (readiness reports it). */
  get alive(): boolean {
    return this.failure === undefined;
  }

  /** Starts the writer thread on the (already created) database in `dataDir`. */
  static async open(dataDir: string, options: WriterOptions): Promise<RequestStore> {
    // Compiled, the thread's entry is a built module beside this one; from source, a loader runs it through tsx.
    const entry = import.meta.url.endsWith('.ts') ? './request-writer-thread.mjs' : './request-writer-thread.js';
    const writer = new Worker(new URL(entry, import.meta.url), { workerData: { dataDir, ...options } });
    await once(writer, 'message'); // ready; rejects if the thread fails to open the database
    return new RequestStore(writer);
  }

  /** Resolves once the outcome is durably committed. */
  submit(s: Submission): Promise<SubmitOutcome> {
    const reference = randomUUID();
    return this.commits.submit({
      brand: s.brand,
      variant: s.variant,
      locale: s.locale,
      payload: JSON.stringify(s.payload),
      image1: s.payload.image1,
      image2: s.payload.image2,
      idempotencyKey: s.idempotencyKey,
      reference,
      deliveries: s.deliveries(reference, Date.now()),
    });
  }

  /** Commits anything still queued, then stops the writer, which closes its connection (shutdown). */
  async close(): Promise<void> {
    await this.commits.flush();
    if (this.failure) return;
    this.closing = true;
    const exited = once(this.writer, 'exit');
    this.writer.postMessage({ close: true } satisfies ToWriter);
    await exited;
  }

  private commit(items: WriteItem[]): Promise<Outcome<SubmitOutcome>[]> {
    if (this.failure) return Promise.reject(this.failure);
    const seq = this.nextSeq++;
    return new Promise((resolve, reject) => {
      this.waiting.set(seq, { resolve, reject });
      this.writer.postMessage({ seq, items } satisfies ToWriter);
    });
  }

  private fail(error: Error): void {
    if (this.closing) return;
    this.failure ??= error;
    for (const { reject } of this.waiting.values()) reject(error);
    this.waiting.clear();
  }
}

/** The error handler answers this code with 503 + Retry-After: the service, not the request, is at fault. */
export const STORE_UNAVAILABLE = 'STORE_UNAVAILABLE';

function writerDown(message: string): Error {
  return Object.assign(new Error(message), { code: STORE_UNAVAILABLE });
}
