import { randomFillSync } from 'node:crypto';
import { REFERENCE_LENGTH, referenceFromBytes } from '../../core/reference';
import { requestPhotos, type FormModel } from '../../core/form-model';
import type { Locale, RepairRequest } from '../../core/types';
import { GroupCommit } from '../storage/group-commit';
import type { RequestWriter } from '../storage/port';
import type { NewRequest, QueuedDelivery, SubmitOutcome, WriteOutcome } from '../storage/records';

export interface Submission {
  brand: string;
  /** The brand's form: its name is stored with the request, its photo fields say which photos the request claims. */
  model: Pick<FormModel, 'name' | 'photos'>;
  /** The revision of that form (revisions/form-revisions.ts), stored with the request. */
  formRevision: string;
  locale: Locale;
  payload: RepairRequest;
  idempotencyKey?: string;
  /** Deliveries to queue with the request; built by the caller for the reference and time given to it. */
  deliveries: (reference: string, receivedAt: number) => QueuedDelivery[];
}

/**
 * Random bytes for references, drawn a few hundred references at a time: each call into
 * the system's generator costs about 7 µs, a tenth of a submit's own work on the server,
 * whatever its size (as crypto.randomUUID keeps its own cache). Each byte is used once.
 */
const randomPool = Buffer.alloc(REFERENCE_LENGTH * 400);
let poolUsed = randomPool.length;

/** A new short reference (core/reference.ts) from the system's cryptographic randomness. */
export function newReference(): string {
  if (poolUsed === randomPool.length) {
    randomFillSync(randomPool);
    poolUsed = 0;
  }
  return referenceFromBytes(randomPool.subarray(poolUsed, (poolUsed += REFERENCE_LENGTH)));
}

/**
 * Tries per request before giving up: with fifty random bits, a second
 * collision in a row means the generator is broken, not unlucky.
 */
const REFERENCE_ATTEMPTS = 5;

/**
 * Stores repair requests with their photos claimed and their mails queued,
 * in one transaction each. Submits of one event-loop turn go to the writer
 * together (SQLite commits them as one); each resolves only once the
 * transaction holding it is committed.
 */
export class RequestStore {
  private readonly commits = new GroupCommit<NewRequest, WriteOutcome>((items) => this.writer.write(items));

  /** `references` makes each new request's reference (tests force collisions with their own). */
  constructor(
    private readonly writer: RequestWriter,
    private readonly references: () => string = newReference,
  ) {}

  /** False once the writer can no longer store (readiness reports it). */
  get alive(): boolean {
    return this.writer.alive;
  }

  /**
   * Resolves once the outcome is durably committed. A reference another
   * request has already (the database's unique column says so, on either
   * backend) is replaced by a new one, with the deliveries composed anew for it.
   */
  async submit(s: Submission): Promise<SubmitOutcome> {
    for (let attempt = 1; ; attempt++) {
      const reference = this.references();
      const outcome = await this.commits.submit({
        brand: s.brand,
        variant: s.model.name,
        formRevision: s.formRevision,
        locale: s.locale,
        payload: JSON.stringify(s.payload),
        photos: requestPhotos(s.model, s.payload),
        idempotencyKey: s.idempotencyKey,
        reference,
        deliveries: s.deliveries(reference, Date.now()),
      });
      if (outcome.kind !== 'reference-taken') return outcome;
      if (attempt === REFERENCE_ATTEMPTS) throw new Error(`no free reference after ${attempt} attempts`);
    }
  }

  /** Commits anything still queued, then closes the writer (shutdown). */
  async close(): Promise<void> {
    await this.commits.flush();
    await this.writer.close();
  }
}
