import { randomUUID } from 'node:crypto';
import type { Locale, RepairRequest, Variant } from '../../core/types';
import { GroupCommit } from '../storage/group-commit';
import type { RequestWriter } from '../storage/port';
import type { NewRequest, QueuedDelivery, SubmitOutcome } from '../storage/records';

export interface Submission {
  brand: string;
  variant: Variant;
  locale: Locale;
  payload: RepairRequest;
  idempotencyKey?: string;
  /** Deliveries to queue with the request; built by the caller for the reference and time given to it. */
  deliveries: (reference: string, receivedAt: number) => QueuedDelivery[];
}

/**
 * Stores repair requests with their photos claimed and their mails queued,
 * in one transaction each. Submits of one event-loop turn go to the writer
 * together (SQLite commits them as one); each resolves only once the
 * transaction holding it is committed.
 */
export class RequestStore {
  private readonly commits = new GroupCommit<NewRequest, SubmitOutcome>((items) => this.writer.write(items));

  constructor(private readonly writer: RequestWriter) {}

  /** False once the writer can no longer store (readiness reports it). */
  get alive(): boolean {
    return this.writer.alive;
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

  /** Commits anything still queued, then closes the writer (shutdown). */
  async close(): Promise<void> {
    await this.commits.flush();
    await this.writer.close();
  }
}
