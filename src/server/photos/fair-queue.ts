import { HttpError } from '../http-error';

export interface FairQueueLimits {
  /** Tasks run at once. */
  concurrency: number;
  /** Tasks one client may have running or waiting; more is refused. */
  perClient: number;
  /** Tasks all clients together may have running or waiting. */
  total: number;
}

type Task = () => void;

/**
 * Runs tasks a few at a time, taking turns between clients: each free slot
 * goes to the next client in rotation, so one client's flood delays another
 * client's task by at most one task per busy client. Bounded: a client over
 * its share, or everyone together over the total, is refused with 503 at
 * once rather than queued without end.
 */
export class FairQueue {
  private active = 0;
  private size = 0;
  /** Waiting tasks per client, in turn order (a Map keeps insertion order). */
  private readonly waiting = new Map<string, Task[]>();
  private readonly held = new Map<string, number>();

  constructor(private readonly limits: FairQueueLimits) {}

  run<T>(client: string, task: () => Promise<T>): Promise<T> {
    const mine = this.held.get(client) ?? 0;
    if (mine >= this.limits.perClient || this.size >= this.limits.total) {
      return Promise.reject(
        new HttpError(503, 'Too many photos are being processed right now. Please try again in a moment.', {}, { retryAfterSeconds: 5 }),
      );
    }
    this.held.set(client, mine + 1);
    this.size++;
    return new Promise<T>((resolve, reject) => {
      const start = () => {
        this.active++;
        task()
          .then(resolve, reject)
          .finally(() => this.release(client));
      };
      const queue = this.waiting.get(client);
      if (queue) queue.push(start);
      else this.waiting.set(client, [start]);
      this.next();
    });
  }

  private release(client: string): void {
    this.active--;
    this.size--;
    const left = (this.held.get(client) ?? 1) - 1;
    if (left === 0) this.held.delete(client);
    else this.held.set(client, left);
    this.next();
  }

  private next(): void {
    while (this.active < this.limits.concurrency && this.waiting.size > 0) {
      const [client, queue] = this.waiting.entries().next().value as [string, Task[]];
      const start = queue.shift() as Task;
      // Served: this client goes to the back of the rotation.
      this.waiting.delete(client);
      if (queue.length > 0) this.waiting.set(client, queue);
      start();
    }
  }
}
