import type { Tally } from '../storage/port';

const HOUR_MS = 60 * 60_000;

/**
 * A ceiling on the mails one brand sends to addresses nobody verified, per
 * hour, across every instance: beside the per-mailbox limit, it stops a flood
 * spread over many mailboxes and many clients. Past it, requests are still
 * stored and reach the desk; only their customer and dealer mails are held
 * back. `tripped` hears once per window that the ceiling was reached.
 */
export class MailCap {
  constructor(
    private readonly tally: Tally,
    private readonly perHour: number,
    private readonly tripped: (brand: string, until: number) => void,
  ) {}

  /** Counts `mails` for the brand; whether they may go. */
  async allows(brand: string, mails: number): Promise<boolean> {
    if (mails === 0) return true;
    const { count, resetAt } = await this.tally(`mail-cap:${brand}`, mails, HOUR_MS);
    if (count <= this.perHour) return true;
    if (count - mails <= this.perHour) this.tripped(brand, resetAt);
    return false;
  }
}
