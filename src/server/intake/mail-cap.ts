import { gatedTally } from '../storage/gated-tally';
import type { GatedTally, Tally } from '../storage/port';

const HOUR_MS = 60 * 60_000;

/** How far ahead a held mail may be put off: past it, it takes that hour's turn anyway (never dropped). */
export const HOLD_HOURS = 72;

/** The hourly budgets of one brand's mails to addresses nobody verified (MAILS_PER_…, config.ts). */
export interface MailBudgets {
  /** Customers' own mails (confirmations) per brand per hour: past it they wait for a later hour. */
  perBrand: number;
  /** Notices to other addresses (dealers) per brand per hour: past it they are not sent. */
  noticesPerBrand: number;
  /** Mails one client's requests cause per brand per hour, both kinds: its share of the brand's budgets. */
  perClient: number;
}

/** A mail the cap counts: the customer's own, or a notice to another address. */
export type CappedMail = 'customer' | 'notice';

/** What the cap decides for one mail: sent now, held back until `at`, or not sent. */
export type MailTurn = { go: 'now' } | { go: 'later'; at: number } | { go: 'never' };

/**
 * A client's counter and a brand's: every client's sorts before every brand's, so a turn's counts of
 * many brands, each client's before its brand's, lock their rows in one order in one statement (counters.ts).
 */
const clientCounter = (brand: string, client: string) => `client:${brand}:${client}`;
const brandCounter = (brand: string, budget: 'customers' | 'notices') => `total:${brand}:${budget}`;

/** What the cap tells the rest (the log, metrics). */
export interface MailCapEvents {
  /** A brand's budget (`customers` or `notices`) was reached in the hour ending at `until`; told once per hour and budget. */
  reached(brand: string, budget: 'customers' | 'notices', until: number): void;
}

/**
 * The ceiling on the mails one brand sends to addresses nobody verified, per
 * hour, across every instance: beside the per-mailbox limit, it stops a flood
 * spread over many mailboxes. A customer's own mail (the confirmation the page
 * promises) is never dropped: past the brand's budget, or past the client's
 * share of it, it waits for the first hour that has room in both (so one
 * client cannot use up the hour for everyone else, and a flood delays only
 * itself first). A notice to another address (the dealer's) has its own,
 * smaller budget and the same per-client share; past either it is not sent.
 *
 * Each hour is a counter of its own (`mail-cap:total:<brand>:<budget>:<hour>`,
 * `mail-cap:client:<brand>:<client>:<hour>`), so mails put off to an hour take
 * its room before the hour comes.
 */
export class MailCap {
  /** Per counter key, the first hour not known to be full: hours only fill up, so later looks start there. */
  private readonly fullUntil = new Map<string, number>();

  private readonly gated: GatedTally;

  constructor(
    private readonly tally: Tally,
    private readonly budgets: MailBudgets,
    private readonly events: MailCapEvents,
  ) {
    this.gated = gatedTally(tally);
  }

  /**
   * The turns of one request's mails, in order, as customerMail and notice one after the other would
   * give them; counted in one round trip when this hour is not known to be full for any of them. Without
   * a `clock`, counted at the store's time (so one turn's requests share a statement: counters.ts).
   */
  async turns(brand: string, client: string, mails: readonly CappedMail[], clock?: number): Promise<MailTurn[]> {
    const now = clock ?? Date.now();
    const hour = Math.floor(now / HOUR_MS);
    const clientKey = clientCounter(brand, client);
    const keys = mails.map((m) => brandCounter(brand, m === 'customer' ? 'customers' : 'notices'));
    if (mails.length === 0 || new Set(keys).size < keys.length || [clientKey, ...keys].some((k) => this.from(k, hour) > hour)) {
      const turns: MailTurn[] = [];
      for (const m of mails) turns.push(m === 'customer' ? await this.customerMail(brand, client, clock) : await this.notice(brand, client, clock));
      return turns;
    }
    const windowMs = (hour + 2) * HOUR_MS - now;
    const n = mails.length;
    // The client's count after its i-th mail is the gate's new count less those after it.
    const { gate, then } = await this.gated(
      { key: `mail-cap:${clientKey}:${hour}`, amount: n, windowMs },
      keys.map((key, i) => ({ key: `mail-cap:${key}:${hour}`, amount: 1, windowMs, gateAtMost: this.budgets.perClient + n - 1 - i })),
      clock,
    );
    if (gate > this.budgets.perClient) this.remember(clientKey, hour + 1, hour);
    const turns: MailTurn[] = [];
    for (const [i, mail] of mails.entries()) {
      const count = then[i];
      const budget = mail === 'customer' ? this.budgets.perBrand : this.budgets.noticesPerBrand;
      if (count !== undefined && count <= budget) {
        turns.push({ go: 'now' });
        continue;
      }
      if (count !== undefined) {
        this.remember(keys[i], hour + 1, hour);
        this.tell(brand, mail === 'customer' ? 'customers' : 'notices', hour);
      }
      // Past this hour's room a customer's mail looks on from the next hour (known full now); a notice is not sent.
      turns.push(mail === 'customer' ? await this.customerMail(brand, client, clock) : { go: 'never' });
    }
    return turns;
  }

  /** A customer's own mail for `brand`, caused by `client`: when it goes. */
  async customerMail(brand: string, client: string, clock?: number): Promise<MailTurn> {
    const now = clock ?? Date.now();
    const thisHour = Math.floor(now / HOUR_MS);
    const last = thisHour + HOLD_HOURS;
    const [clientKey, brandKey] = [clientCounter(brand, client), brandCounter(brand, 'customers')];
    // Hours known to be full for either are not tried: each try is a count in the shared store.
    for (let hour = Math.min(Math.max(this.from(clientKey, thisHour), this.from(brandKey, thisHour)), last); ; hour++) {
      const final = hour >= last;
      const [clientRoom, brandRoom] = final ? await this.takeFinal(clientKey, brandKey, hour, now, clock) : await this.takeBoth(clientKey, brandKey, hour, now, clock);
      if (!clientRoom && !final) continue;
      if (!brandRoom && hour === thisHour) this.tell(brand, 'customers', hour);
      if (brandRoom || final) return hour === thisHour ? { go: 'now' } : { go: 'later', at: hour * HOUR_MS };
    }
  }

  /**
   * One customer mail counted in `hour`: the client's counter, then the brand's only where the client had
   * room, in one round trip (a flood past the brand's budget tries an hour a submit). Whether each had room.
   */
  private async takeBoth(clientKey: string, brandKey: string, hour: number, now: number, clock?: number): Promise<[boolean, boolean]> {
    if ((this.fullUntil.get(clientKey) ?? 0) > hour) return [false, false];
    if ((this.fullUntil.get(brandKey) ?? 0) > hour) return [await this.take(clientKey, hour, this.budgets.perClient, now, clock), false];
    const windowMs = (hour + 2) * HOUR_MS - now;
    const { gate, then } = await this.gated(
      { key: `mail-cap:${clientKey}:${hour}`, amount: 1, windowMs },
      [{ key: `mail-cap:${brandKey}:${hour}`, amount: 1, windowMs, gateAtMost: this.budgets.perClient }],
      clock,
    );
    const thisHour = Math.floor(now / HOUR_MS);
    if (gate > this.budgets.perClient) {
      this.remember(clientKey, hour + 1, thisHour);
      return [false, false];
    }
    const brandRoom = then[0] !== undefined && then[0] <= this.budgets.perBrand;
    if (!brandRoom) this.remember(brandKey, hour + 1, thisHour);
    return [true, brandRoom];
  }

  /** The last hour a mail may wait for takes it whatever the client's count: both are counted. */
  private async takeFinal(clientKey: string, brandKey: string, hour: number, now: number, clock?: number): Promise<[boolean, boolean]> {
    const clientRoom = await this.take(clientKey, hour, this.budgets.perClient, now, clock);
    return [clientRoom, await this.take(brandKey, hour, this.budgets.perBrand, now, clock)];
  }

  /** A notice to an address other than the customer's, for `brand`, caused by `client`: now or never. */
  async notice(brand: string, client: string, clock?: number): Promise<MailTurn> {
    const now = clock ?? Date.now();
    const hour = Math.floor(now / HOUR_MS);
    if (!(await this.take(clientCounter(brand, client), hour, this.budgets.perClient, now, clock))) return { go: 'never' };
    if (await this.take(brandCounter(brand, 'notices'), hour, this.budgets.noticesPerBrand, now, clock)) return { go: 'now' };
    this.tell(brand, 'notices', hour);
    return { go: 'never' };
  }

  /** The first hour from `hour` on that `key` may have room in. */
  private from(key: string, hour: number): number {
    return Math.max(hour, this.fullUntil.get(key) ?? hour);
  }

  /** Counts one mail in `key`'s counter of `hour`; whether it fits the `budget`. */
  private async take(key: string, hour: number, budget: number, now: number, clock?: number): Promise<boolean> {
    if ((this.fullUntil.get(key) ?? 0) > hour) return false;
    // The counter outlives its hour by one, so nothing counted for an hour is forgotten before it ends.
    const { count } = await this.tally(`mail-cap:${key}:${hour}`, 1, (hour + 2) * HOUR_MS - now, clock);
    if (count <= budget) return true;
    this.remember(key, hour + 1, Math.floor(now / HOUR_MS));
    return false;
  }

  private remember(key: string, hour: number, thisHour: number): void {
    this.fullUntil.set(key, hour);
    // Keys of hours gone are of no use: the map stays as small as the clients of the last few hours.
    if (this.fullUntil.size > 10_000) for (const [k, h] of this.fullUntil) if (h <= thisHour) this.fullUntil.delete(k);
  }

  private readonly told = new Set<string>();

  /** Tells `reached` once per brand, budget and hour (per instance). */
  private tell(brand: string, budget: 'customers' | 'notices', hour: number): void {
    const key = `${brand}:${budget}:${hour}`;
    if (this.told.has(key)) return;
    for (const k of this.told) if (!k.endsWith(`:${hour}`)) this.told.delete(k);
    this.told.add(key);
    this.events.reached(brand, budget, (hour + 1) * HOUR_MS);
  }
}
