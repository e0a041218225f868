import type { FastifyBaseLogger } from 'fastify';
import { DeliveryError } from '../delivery/kinds';
import { scrubText } from '../logging/scrub-text';

/** A destination went down (its first transient failure after a success) or came back (its first success after). */
export type DestinationState = (channel: string, destination: string, up: boolean) => void;

/** One attempt's end, as the watch needs it. */
export interface WatchedAttempt {
  destination: string;
  delivered: boolean;
  error?: unknown;
  /** The attempt's place in the order attempts were started. */
  started: number;
}

export const errorText = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/**
 * Which destinations of one channel are down: one line when one goes down (a transient failure after a
 * success, or the first), one when it is back; only attempts started after the one that said the last
 * of these can say the next (a slow receiver's timeouts that end after it recovered say nothing).
 */
export class DestinationWatch {
  /** The destinations down since the failure recorded then; absent: up (or not tried yet). */
  private readonly down = new Map<string, { since: number; failedAttempts: number }>();
  /** Per destination, the start of the attempt that last said it went down or came back. */
  private readonly turnedBy = new Map<string, number>();

  constructor(
    private readonly channel: string,
    private readonly giveUpMs: number,
    private readonly now: () => number,
    private readonly log: FastifyBaseLogger,
    private readonly onDestination: DestinationState,
  ) {}

  attempted({ destination, delivered, error, started }: WatchedAttempt): void {
    // Only the transport's failures say a destination is down: a permanent refusal is about one recipient,
    // and a request's own trouble (a photo no longer stored) about that request.
    if (!delivered && !(error instanceof DeliveryError && !error.permanent)) return;
    const { channel } = this;
    const stale = started < (this.turnedBy.get(destination) ?? -1);
    const down = this.down.get(destination);
    const where = destination === channel ? channel : `${channel} to ${destination}`;
    if (delivered) {
      if (!down || stale) return;
      this.down.delete(destination);
      this.turnedBy.set(destination, started);
      this.onDestination(channel, destination, true);
      const minutes = Math.round((this.now() - down.since) / 60_000);
      this.log.info({ channel, destination, failedAttempts: down.failedAttempts, downMinutes: minutes }, `delivery: ${where} is back after ${minutes} min; queued deliveries follow`);
    } else if (down) {
      down.failedAttempts++;
    } else if (!stale) {
      this.down.set(destination, { since: this.now(), failedAttempts: 1 });
      this.turnedBy.set(destination, started);
      this.onDestination(channel, destination, false);
      const hours = Math.round(this.giveUpMs / 3_600_000);
      this.log.warn({ channel, destination, err: scrubText(errorText(error)) }, `delivery: ${where} is down; deliveries stay queued and are retried for ${hours} h`);
    }
  }
}
