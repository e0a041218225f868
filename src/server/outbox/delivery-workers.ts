import { readFileSync } from 'node:fs';
import type { FastifyBaseLogger } from 'fastify';
import type { Brand } from '../../core/types';
import type { ServerConfig } from '../config';
import { mailSender } from '../delivery/mail/mail-sender';
import { createMailTransport } from '../delivery/mail/transport';
import type { Webhook } from 'standardwebhooks';
import { createWebhookSender } from '../delivery/webhook/webhook-sender';
import type { PhotoLinks } from '../photos/photo-links';
import type { FormRevisions } from '../revisions/form-revisions';
import type { RequestWriter, Storage } from '../storage/port';
import { OutboxWorker, type AttemptOutcome, type OutboxRows } from './outbox-worker';
import type { DestinationState } from './destination-watch';

export interface DeliveryWorkersOptions {
  config: ServerConfig;
  brands: ReadonlyMap<string, Brand>;
  /** Each request's form as it was sent: what its deliveries are read by. */
  forms: Pick<FormRevisions, 'of' | 'languagesOf'>;
  storage: Storage;
  /** Records attempts where requests are written (SQLite: its writer thread). */
  writer: RequestWriter;
  links: PhotoLinks;
  /** Each webhook brand's signer (webhookSigners, checked at start before anything else). */
  signers: ReadonlyMap<string, Webhook>;
  log: FastifyBaseLogger;
  onAttempt: (kind: string, outcome: AttemptOutcome) => void;
  onDestination: DestinationState;
  /** The workers' time: Date.now, or a test's clock moved on by hours. */
  clock?: () => number;
}

/**
 * One worker per channel (mail, webhook), each leasing its rows from storage
 * and handing them to its sender (delivery/), with its own limits. Stopping
 * waits for what is under way and records it.
 */
export async function startDeliveryWorkers({ config, brands, forms, storage, writer, links, signers, log, onAttempt, onDestination, clock }: DeliveryWorkersOptions) {
  const rows = (channel: string): OutboxRows => ({
    take: (limit, busy, now) => storage.leaseDue(channel, limit, busy, now),
    record: (updates, now) => writer.recordDeliveries(updates, now),
  });
  const mail = createMailTransport({ url: config.smtpUrl, name: config.smtpName, maxConnections: config.smtpMaxConnections }, storage.mailCopies);
  const webhooks = createWebhookSender({
    brands,
    signers,
    links,
    forms,
    timeoutMs: config.webhookTimeoutMs,
    maxInFlight: config.webhookMaxInFlight,
    ca: config.webhookCaFile ? readFileSync(config.webhookCaFile) : undefined,
  });
  const workers = [
    new OutboxWorker(
      rows('mail'),
      mailSender(mail, { brands, forms, fromAddress: config.mailFrom, readPhoto: (name) => storage.photos.read(name), timeZone: config.timeZone }),
      {
        channel: 'mail',
        // Twice the pooled connections: each has its next mail ready while results are recorded.
        maxInFlight: 2 * config.smtpMaxConnections,
        // But a slow relay gets fewer (4 at 200 ms a mail): each under way at a crash is sent again after it.
        pace: { min: 4, steadyMs: 800 },
        retryBaseMs: config.mailRetryBaseMs,
        giveUpMs: config.deliveryGiveUpMs,
        pollIntervalMs: config.mailPollIntervalMs,
        clock,
      },
      log,
      onAttempt,
      onDestination,
    ),
    new OutboxWorker(
      rows('webhook'),
      webhooks.deliver,
      {
        channel: 'webhook',
        maxInFlight: config.webhookMaxInFlight,
        retryBaseMs: config.webhookRetryBaseMs,
        giveUpMs: config.deliveryGiveUpMs,
        pollIntervalMs: config.webhookPollIntervalMs,
        // Each brand's webhook goes to its own receiver, up or down on its own.
        destinationOf: (delivery) => delivery.brand,
        clock,
      },
      log,
      onAttempt,
      onDestination,
    ),
  ];
  for (const worker of workers) worker.start();
  return {
    async stop(): Promise<void> {
      await Promise.all(workers.map((w) => w.stop()));
      mail.close();
      webhooks.close();
    },
  };
}
