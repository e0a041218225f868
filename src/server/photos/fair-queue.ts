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
 * goes to the waiting client with the fewest tasks running, and among
 * equals to the one served longest ago, so one client's flood delays another
 * client's task by at most the tasks already running. Bounded: a client over
 * its share, or everyone together over the total, is refused with 503 at
 * once rather than queued without end.
 */
export class FairQueue {
  private active = 0;
  private size = 0;
  /** Waiting tasks per client. */
  private readonly waiting = new Map<string, Task[]>();
  private readonly held = new Map<string, number>();
  /** Tasks running per client. */
  private readonly running = new Map<string, number>();
  /** When each client holding tasks was last given a slot (a counter), for taking turns. */
  private readonly lastServed = new Map<string, number>();
  private served = 0;

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
    const stillRunning = (this.running.get(client) ?? 1) - 1;
    if (stillRunning === 0) this.running.delete(client);
    else this.running.set(client, stillRunning);
    const left = (this.held.get(client) ?? 1) - 1;
    if (left === 0) {
      this.held.delete(client);
      this.lastServed.delete(client);
    } else this.held.set(client, left);
    this.next();
  }

  private next(): void {
    while (this.active < this.limits.concurrency && this.waiting.size > 0) {
      // Fewest running first, then the one served longest ago: arrival order alone would let a
      // flood that just had a slot go before a visitor who has had none.
      let client = '';
      let best = [Infinity, Infinity];
      for (const waiting of this.waiting.keys()) {
        const rank = [this.running.get(waiting) ?? 0, this.lastServed.get(waiting) ?? -1];
        if (rank[0] < best[0] || (rank[0] === best[0] && rank[1] < best[1])) [client, best] = [waiting, rank];
      }
      const queue = this.waiting.get(client) as Task[];
      const start = queue.shift() as Task;
      if (queue.length === 0) this.waiting.delete(client);
      this.running.set(client, best[0] + 1);
      this.lastServed.set(client, this.served++);
      start();
    }
  }
}
