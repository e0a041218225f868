import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import cookie from '@fastify/cookie';
import multipart from '@fastify/multipart';
import rateLimit from '@fastify/rate-limit';
import Fastify, { type FastifyInstance } from 'fastify';
import { repairAjvOptions } from '../core/ajv-options';
import { formSchemas, photoRules } from '../core/form-schemas';
import { loadBrands } from './brands';
import { logOptions, type LogSettings } from './logging/log-options';
import type { ServerConfig } from './config';
import { mailSender } from './mail/mail-sender';
import { createMailTransport, removeMailLeftovers } from './mail/transport';
import { PortalMetrics } from './metrics';
import { OutboxRows } from './outbox/outbox-rows';
import { OutboxWorker } from './outbox/outbox-worker';
import { FairQueue } from './photos/fair-queue';
import { PhotoIntake } from './photos/photo-intake';
import { PhotoLinks, photoLinkSecret } from './photos/photo-links';
import { StorageGuard } from './photos/storage-guard';
import { schedulePhotoSweep } from './photos/photo-sweep';
import { scheduleRetention } from './privacy/retention';
import { installDrainOnClose } from './plugins/drain-on-close';
import { answerUnparsableRequest, installErrorHandler, sendError } from './plugins/error-handler';
import { installSecurityHeaders } from './plugins/security-headers';
import { SeededPages } from './no-script/seeded-pages';
import { SentRequests } from './no-script/sent-requests';
import { installSlowClientGuard } from './plugins/slow-clients';
import { loadPortalPages } from './portal-pages';
import { formsRoute } from './routes/forms';
import { healthRoutes } from './routes/health';
import { imagesRoute } from './routes/images';
import { metricsRoute } from './routes/metrics';
import { noScriptFormRoute } from './routes/no-script-form';
import { photosRoute } from './routes/photos';
import { portalRoutes } from './routes/portal';
import { OUTBOX_DIR } from './storage/data-dirs';
import { RequestStore } from './storage/request-store';
import { openStorage } from './storage/storage';
import { FormDataValidator } from './validation/form-data-validator';
import { RequestValidator } from './validation/request-validator';
import { createWebhookSender, requirePublicUrl, webhookSigners } from './webhook/webhook-sender';

declare module 'fastify' {
  interface FastifyInstance {
    /** The request store, for health checks and tests that need to see its writer. */
    requestStore: RequestStore;
  }
}

export interface AppOptions {
  /** Where the log goes; false (the default) for none. Personal data is kept out of it either way (logging/). */
  logger?: false | LogSettings;
}

/**
 * The whole intake server as one Fastify instance: the portal's pages and
 * assets, the upload and submit API, signed photo links, health checks and
 * metrics, and the background deliveries (mails, webhooks) and photo sweep,
 * all stopped by `app.close()`.
 */
export async function buildApp(config: ServerConfig, { logger = false }: AppOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    logger: logger && logOptions(logger),
    bodyLimit: config.jsonBodyLimitBytes,
    requestTimeout: config.requestTimeoutMs,
    trustProxy: config.trustProxy.length > 0 ? config.trustProxy : false,
    // Should a route ever declare a schema, judge it as the page does (no coercion, no removal).
    ajv: { customOptions: { ...repairAjvOptions } },
    // A bad URL or an overlong parameter is refused before routing: same body shape as every other error.
    frameworkErrors: (error, req, reply) => sendError(error, req, reply),
    clientErrorHandler: answerUnparsableRequest,
  });
  app.server.headersTimeout = config.headersTimeoutMs;

  const [brands, pages] = await Promise.all([
    loadBrands(config.brandsDir),
    loadPortalPages(config.webRoot, { apiBase: config.apiBase, addressLookupUrl: config.addressLookupUrl }),
  ]);

  const signers = webhookSigners(brands, config.secretsEnv);
  requirePublicUrl(brands, config.publicUrl);
  const storage = await openStorage(config, { log: app.log });
  const { sql, photos } = storage;
  await photos.tidy(config.photoTtlMs);
  const links = new PhotoLinks(photoLinkSecret(config.photoUrlSecret, config.dataDir), config.publicUrl, config.photoUrlTtlMs);

  const outboxDir = join(config.dataDir, OUTBOX_DIR);
  await removeMailLeftovers(outboxDir);
  const mail = createMailTransport({ url: config.smtpUrl, name: config.smtpName, maxConnections: config.smtpMaxConnections }, outboxDir);
  const writer = await storage.openWriter({ mailsPerRecipientPerDay: config.mailsPerRecipientPerDay });
  const metrics = new PortalMetrics(sql, () => storage.state.up && writer.alive);
  const onAttempt = metrics.deliveryAttempt.bind(metrics);
  const recordDeliveries = writer.recordDeliveries.bind(writer);
  const mailWorker = new OutboxWorker(
    new OutboxRows(sql, 'mail', config.deliveryLeaseMs, recordDeliveries),
    mailSender(mail, { brands, fromAddress: config.mailFrom, readPhoto: (name) => photos.read(name) }),
    {
      // Twice the pooled connections: each has its next mail ready while results are recorded.
      maxInFlight: 2 * config.smtpMaxConnections,
      retryBaseMs: config.mailRetryBaseMs,
      maxAttempts: config.mailMaxAttempts,
      pollIntervalMs: config.mailPollIntervalMs,
    },
    app.log,
    onAttempt,
  );
  const webhooks = createWebhookSender({
    brands,
    signers,
    links,
    timeoutMs: config.webhookTimeoutMs,
    maxInFlight: config.webhookMaxInFlight,
    ca: config.webhookCaFile ? readFileSync(config.webhookCaFile) : undefined,
  });
  const webhookWorker = new OutboxWorker(
    new OutboxRows(sql, 'webhook', config.deliveryLeaseMs, recordDeliveries),
    webhooks.deliver,
    {
      maxInFlight: config.webhookMaxInFlight,
      retryBaseMs: config.webhookRetryBaseMs,
      maxAttempts: config.webhookMaxAttempts,
      pollIntervalMs: config.mailPollIntervalMs,
    },
    app.log,
    onAttempt,
  );
  const store = new RequestStore(writer);
  const stopSweep = schedulePhotoSweep(
    photos,
    { ttlMs: config.photoTtlMs, intervalMs: config.photoSweepIntervalMs },
    app.log,
  );
  const stopRetention = scheduleRetention(
    { sql, photos, dataDir: config.dataDir },
    { retentionMs: config.retentionMs, intervalMs: config.retentionIntervalMs },
    app.log,
  );
  mailWorker.start();
  webhookWorker.start();
  // Runs after the server stopped taking requests and in-flight ones finished.
  app.addHook('onClose', async () => {
    stopSweep();
    await stopRetention();
    // The workers record their last results through the writer, so they stop before it closes.
    await Promise.all([mailWorker.stop(), webhookWorker.stop()]);
    await store.close();
    mail.close();
    webhooks.close();
    await storage.close();
  });

  app.decorate('requestStore', store);
  installErrorHandler(app);
  installDrainOnClose(app);
  installSlowClientGuard(app, config.slowClients);
  await installSecurityHeaders(app, config);
  // Counters that cannot be read (the database is down) let the request through: it then meets the
  // database itself and gets 503, rather than a 500 from the limiter.
  await app.register(rateLimit, { global: false, store: storage.rateLimitStore, skipOnError: true });
  await app.register(multipart, { throwFileSizeLimit: false });
  await app.register(cookie);

  const rules = uploadRules();
  const intake = new PhotoIntake(photos, rules, config.photoBudget, new FairQueue(config.photoDecoding));
  await app.register(healthRoutes, { sql, store, dataDir: config.dataDir, minFreeDiskBytes: config.minFreeDiskBytes });
  const room = new StorageGuard(photos, config.dataDir, { ...config.photoQuota, minFreeDiskBytes: config.minFreeDiskBytes });
  await app.register(imagesRoute, { intake, rules, storage: room, rateLimit: config.rateLimits.uploads, metrics });
  const requestValidator = new RequestValidator();
  await app.register(formsRoute, { brands, validator: requestValidator, store, rateLimit: config.rateLimits.submits, metrics });
  // Pages after a post without scripts are rendered by the prerender's SSR build (npm run build).
  const seededPages = new SeededPages(join(config.webRoot, 'ssr', 'entry-server.js'), pages);
  const sent = new SentRequests(sql);
  await app.register(noScriptFormRoute, {
    brands,
    intake,
    rules,
    storage: room,
    formValidator: new FormDataValidator(),
    requestValidator,
    store,
    pages: seededPages,
    sent,
    rateLimit: config.rateLimits.submits,
    metrics,
  });
  await app.register(photosRoute, { links, photos });
  await app.register(metricsRoute, { metrics, token: config.metricsToken });
  await app.register(portalRoutes, {
    webRoot: config.webRoot,
    brands,
    pages,
    async confirmation(req, route) {
      const email = await sent.sentTo(req, route.brand.id);
      return email ? seededPages.render(route, { brandId: route.brand.id, formData: {}, errors: {}, sentTo: email }) : undefined;
    },
  });
  return app;
}

/**
 * One rule, one place: the upload limits are those the form schemas give the
 * photo pickers. An upload precedes the form's variant, so both must agree.
 */
function uploadRules() {
  const [first, ...others] = Object.values(formSchemas).map(({ schema }) => photoRules(schema));
  if (others.some((r) => JSON.stringify(r) !== JSON.stringify(first))) {
    throw new Error('The form variants disagree on photo limits (fileRules); the upload route needs one rule');
  }
  return first;
}
