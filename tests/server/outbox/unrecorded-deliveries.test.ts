/**
 * A delivery counts as made only once recorded: what was sent and not yet recorded is what a crash
 * sends again. While recording is slow or refused (the database locked by a backup, which leaves due
 * rows readable), the worker must not go on sending: sent-and-unrecorded never exceeds the deliveries
 * it allows in flight, however long the recording takes.
 */
import pino from 'pino';
import type { FastifyBaseLogger } from 'fastify';
import { describe, expect, it } from 'vitest';
import { OutboxWorker } from '../../../src/server/outbox/outbox-worker';
import type { DeliveryUpdate, DueDelivery } from '../../../src/server/storage/records';
import { storeUnavailable } from '../../../src/server/storage/store-unavailable';

const MAX_IN_FLIGHT = 4;

const row = (id: number): DueDelivery => ({
  id, kind: 'desk', recipient: 'desk@example.com', subject: 's', body: 'b', attempts: 0, queuedAt: Date.now(),
  messageId: `m${id}`, reference: `R${id}`, brand: 'b', locale: 'nl', variant: 'simple', payload: '{}', formRevision: null, language: 'nl',
});

describe('deliveries sent while their results cannot be recorded', () => {
  it('stops at the deliveries in flight: a crash then would send again at most those', async () => {
    const due = Array.from({ length: 200 }, (_, i) => row(i + 1));
    const recorded = new Set<number>();
    const sent = new Set<number>();
    let locked = true;
    let mostUnrecorded = 0;
    const worker = new OutboxWorker(
      {
        take: async (limit, busy) => due.filter((d) => !recorded.has(d.id) && !busy.has(d.id)).slice(0, limit),
        record: async (updates: readonly DeliveryUpdate[]) => {
          await new Promise((r) => setTimeout(r, 20));
          if (locked) throw storeUnavailable('database: database is locked', 'busy');
          for (const u of updates) recorded.add(u.id);
        },
      },
      async (delivery) => {
        await new Promise((r) => setTimeout(r, 5));
        sent.add(delivery.id);
        mostUnrecorded = Math.max(mostUnrecorded, [...sent].filter((id) => !recorded.has(id)).length);
      },
      { channel: 'mail', maxInFlight: MAX_IN_FLIGHT, retryBaseMs: 100, giveUpMs: 3_600_000, pollIntervalMs: 10 },
      pino({ level: 'silent' }) as FastifyBaseLogger,
    );
    worker.start();
    await new Promise((r) => setTimeout(r, 1500));
    const sentWhileLocked = sent.size;
    locked = false;
    await expect.poll(() => recorded.size, { timeout: 30_000 }).toBe(due.length);
    await worker.stop();
    console.log(`[measure] recording refused for 1.5 s: ${sentWhileLocked} deliveries sent meanwhile, at most ${mostUnrecorded} unrecorded at once (in flight: ${MAX_IN_FLIGHT})`);
    expect(mostUnrecorded).toBeLessThanOrEqual(MAX_IN_FLIGHT);
    expect(sent.size).toBe(due.length);
  });
});
