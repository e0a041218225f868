import type { Outcome } from './port';

/** Errors as plain data, so they can cross a thread boundary. */
export interface ErrorData {
  message: string;
  code?: string;
  kind?: string;
}

export function plainError(error: unknown): ErrorData {
  const { message, code, kind } = error as { message?: unknown; code?: unknown; kind?: unknown };
  return { message: String(message ?? error), ...(typeof code === 'string' ? { code } : {}), ...(typeof kind === 'string' ? { kind } : {}) };
}

/** The error handler maps `code` (STORE_UNAVAILABLE → 503) and the state tells `kind` (locked, full), so both are kept. */
export function toError({ message, code, kind }: ErrorData): Error {
  return Object.assign(new Error(message), code === undefined ? {} : { code }, kind === undefined ? {} : { kind });
}

interface Pending<I, O> {
  item: I;
  resolve: (value: O) => void;
  reject: (reason: unknown) => void;
}

/**
 * Group commit, the queue side: every item submitted during one event-loop
 * turn goes to `commit` as one batch; each caller is answered with its own
 * outcome once that batch is committed.
 */
export class GroupCommit<I, O> {
  private pending: Pending<I, O>[] = [];
  private scheduled = false;

  constructor(private readonly commit: (items: I[]) => Promise<Outcome<O>[]>) {}

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

  /** Hands what is queued now to `commit`; resolves once it is committed (shutdown waits for this). */
  async flush(): Promise<void> {
    this.scheduled = false;
    const batch = this.pending;
    this.pending = [];
    if (batch.length === 0) return;
    let outcomes: Outcome<O>[];
    try {
      outcomes = await this.commit(batch.map((p) => p.item));
    } catch (error) {
      for (const p of batch) p.reject(error);
      return;
    }
    batch.forEach((p, i) => {
      const outcome = outcomes[i];
      if (outcome.ok) p.resolve(outcome.value);
      else p.reject(toError(outcome.error));
    });
  }
}
