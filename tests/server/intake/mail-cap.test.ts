/** The brand's mail cap alone, on a clock of the test's: what a customer's mail and a notice are told. */
import { describe, expect, it } from 'vitest';
import { HOLD_HOURS, MailCap, type CappedMail, type MailTurn } from '../../../src/server/intake/mail-cap';
import { gatedTally } from '../../../src/server/storage/gated-tally';
import type { Tally } from '../../../src/server/storage/port';
import { memoryTally } from '../../../src/server/storage/sqlite/memory-tally';

const HOUR = 60 * 60_000;
const start = 1_800_000_000_000 - (1_800_000_000_000 % HOUR) + 5 * 60_000;

function cap(budgets: { perBrand: number; noticesPerBrand: number; perClient: number }) {
  const reached: string[] = [];
  return { cap: new MailCap(memoryTally(), budgets, { reached: (brand, budget) => reached.push(`${brand}:${budget}`) }), reached };
}

/** A shared store that has the one-statement gated count, and how many round trips were made to it. */
function roundTrips(): { counted: Tally; trips: () => number } {
  const shared = memoryTally();
  let trips = 0;
  const counted: Tally = Object.assign(async (...args: Parameters<Tally>) => (trips++, shared(...args)), {
    gated: async (...args: Parameters<ReturnType<typeof gatedTally>>) => (trips++, gatedTally(shared)(...args)),
  });
  return { counted, trips: () => trips };
}

const hourOf = (turn: MailTurn) => (turn.go === 'later' ? (turn.at - (start - (start % HOUR))) / HOUR : turn.go);

describe('the mail cap', () => {
  it("never drops a customer's mail: one client's flood is spread over its own hours, up to the last one it may wait for", async () => {
    const { cap: c } = cap({ perBrand: 1000, noticesPerBrand: 10, perClient: 2 });
    const turns: MailTurn[] = [];
    for (let i = 0; i < 2 * HOLD_HOURS + 10; i++) turns.push(await c.customerMail('acme', '203.0.113.7', start));
    expect(turns.every((t) => t.go !== 'never')).toBe(true);
    expect(turns.slice(0, 4).map(hourOf)).toEqual(['now', 'now', 1, 1]);
    expect(turns.slice(-12).map(hourOf)).toEqual([HOLD_HOURS - 1, HOLD_HOURS - 1, ...Array(10).fill(HOLD_HOURS)]);
    // Another client still has this hour's room.
    expect(await c.customerMail('acme', '198.51.100.1', start)).toEqual({ go: 'now' });
  });

  it("holds customers' mails past the brand's hour, tells it once, and drops notices past their own budget", async () => {
    const { cap: c, reached } = cap({ perBrand: 2, noticesPerBrand: 1, perClient: 100 });
    const customers = [];
    for (let i = 0; i < 5; i++) customers.push(hourOf(await c.customerMail('acme', `198.51.100.${i}`, start)));
    expect(customers).toEqual(['now', 'now', 1, 1, 2]);
    expect([hourOf(await c.notice('acme', '198.51.100.9', start)), hourOf(await c.notice('acme', '198.51.100.10', start))]).toEqual(['now', 'never']);
    expect(reached).toEqual(['acme:customers', 'acme:notices']);
    // The next hour: what was put off to it took its room already.
    expect(hourOf(await c.customerMail('acme', '198.51.100.20', start + HOUR))).toBe(2);
  });

  it('counts a mail in the shared store twice, not once per hour it is put off past: a flood stays cheap for every instance', async () => {
    const tally = memoryTally();
    let counts = 0;
    const c = new MailCap(async (...args) => (counts++, tally(...args)), { perBrand: 10, noticesPerBrand: 10, perClient: 1000 }, { reached: () => {} });
    const hours = [];
    for (let i = 0; i < 60; i++) hours.push(hourOf(await c.customerMail('acme', `198.51.100.${i}`, start)));
    expect(hours).toEqual([...Array(10).fill('now'), ...[1, 2, 3, 4, 5].flatMap((h) => Array(10).fill(h))]);
    // The client's and the brand's count per mail, and one more pair each time an hour turns out full.
    expect(counts).toBeLessThanOrEqual(2 * 60 + 2 * 6);
  });

  it('puts a flood off past the brand\'s hour with one round trip to the shared store per mail, the turns those of two counts each', async () => {
    const budgets = { perBrand: 10, noticesPerBrand: 10, perClient: 25 };
    const { counted, trips } = roundTrips();
    const [gated, alone] = [new MailCap(counted, budgets, { reached: () => {} }), cap(budgets).cap];
    const [got, expected] = [[], []] as [(string | number)[], (string | number)[]];
    // Two clients: one past its share of the hours it tries, the other not.
    for (let i = 0; i < 80; i++) {
      const client = i % 4 === 0 ? '198.51.100.1' : '203.0.113.9';
      got.push(hourOf(await gated.customerMail('acme', client, start)));
      expected.push(hourOf(await alone.customerMail('acme', client, start)));
    }
    expect(got).toEqual(expected);
    expect(got.filter((h) => h === 'now')).toHaveLength(10);
    // A mail, and one more each time an hour turns out full for the brand or a client.
    expect(trips()).toBeLessThanOrEqual(80 + 2 * 8);
  });

  it("gives a request's mails the turns they get one after the other, in one round trip to the shared store while the hour has room", async () => {
    const budgets = { perBrand: 3, noticesPerBrand: 2, perClient: 5 };
    const { counted, trips } = roundTrips();
    const together = new MailCap(counted, budgets, { reached: () => {} });
    const alone = cap(budgets).cap;
    const mails: CappedMail[] = ['customer', 'notice'];
    const clients = ['198.51.100.1', '198.51.100.2', '198.51.100.3', '198.51.100.3', '198.51.100.3', '198.51.100.3'];
    const [got, expected, tripsPerRequest] = [[], [], []] as [(string | number)[][], (string | number)[][], number[]];
    for (const client of clients) {
      const before = trips();
      got.push((await together.turns('acme', client, mails, start)).map(hourOf));
      tripsPerRequest.push(trips() - before);
      expected.push([hourOf(await alone.customerMail('acme', client, start)), hourOf(await alone.notice('acme', client, start))]);
    }
    expect(got).toEqual(expected);
    expect(got.slice(0, 3)).toEqual([['now', 'now'], ['now', 'now'], ['now', 'never']]);
    // One round trip a request until the brand's notices are known to be spent this hour.
    expect(tripsPerRequest.slice(0, 3)).toEqual([1, 1, 1]);
  });
});
