import { join, resolve } from 'node:path';
import { MAIL_SPOOL_DIR } from './delivery/mail/transport';
import cookie from '@fastify/cookie';
import multipart from '@fastify/multipart';
import rateLimit from '@fastify/rate-limit';
import Fastify, { type FastifyInstance } from 'fastify';
import { repairAjvOptions } from '../core/ajv-options';
import { personalFields, uploadRules } from '../core/form-model';
import { loadBrands } from './brands';
import { loadPortalData } from './portal-data';
import { logOptions, type LogSettings } from './logging/log-options';
import type { ServerConfig } from './config';
import { requirePublicUrl, webhookSigners } from './delivery/webhook/webhook-sender';
import { MailCap } from './intake/mail-cap';
import { Intake } from './intake/submit-request';
import { RequestStore } from './intake/request-store';
import { PortalMetrics } from './metrics';
import { startDeliveryWorkers } from './outbox/delivery-workers';
import { DiskGuard } from './photos/disk-guard';
import { FairQueue } from './photos/fair-queue';
import { PhotoIntake } from './photos/photo-intake';
import { PhotoLinks, photoLinkSecret } from './photos/photo-links';
import { schedulePhotoSweep } from './photos/photo-sweep';
import { scheduleRetention } from './privacy/retention';
import { installDrainOnClose } from './plugins/drain-on-close';
import { answerUnparsableRequest, installErrorHandler, sendError } from './plugins/error-handler';
import { installSecurityHeaders } from './plugins/security-headers';
import { PostAnswers } from './no-script/post-answers';
import { SeededPages } from './no-script/seeded-pages';
import { SentRequests } from './no-script/sent-requests';
import { SubmissionKeys } from './no-script/submission-key';
import { installSlowClientGuard } from './plugins/slow-clients';
import { loadPortalPages } from './portal-pages';
import { PostOrigins } from './post-origin';
import { installHostPin, portalHostNames } from './plugins/host-pin';
import { installStrictUtf8Json } from './plugins/strict-utf8';
import { formsRoute } from './routes/forms';
import { healthRoutes } from './routes/health';
import { imagesRoute } from './routes/images';
import { metricsRoute } from './routes/metrics';
import { noScriptFormRoute } from './routes/no-script-form';
import { photosRoute } from './routes/photos';
import { portalRoutes } from './routes/portal';
import { FormRevisions } from './revisions/form-revisions';
import { openStorage } from './storage/open-storage';
import { FormDataValidator } from './validation/form-data-validator';
import { compileForms, RequestValidator } from './validation/request-validator';

declare module 'fastify' {
  interface FastifyInstance {
    /** The request store, for health checks and tests that need to see its writer. */
    requestStore: RequestStore;
  }
}

export interface AppOptions {
  /** Where the log goes; false (the default) for none. Personal data is kept out of it either way (logging/). */
  logger?: false | LogSettings;
  /** Makes new requests' references; the default draws them at random (tests force a collision with their own). */
  references?: () => string;
  /** The delivery workers' clock (ms since 1970); the default is Date.now. Tests move it on by hours. */
  clock?: () => number;
}

/**
 * The whole intake server as one Fastify instance: the portal's pages and
 * assets, the upload and submit API, signed photo links, health checks and
 * metrics, and the background deliveries (mails, webhooks) and photo sweep,
 * all stopped by `app.close()`.
 */
export async function buildApp(config: ServerConfig, { logger = false, references, clock }: AppOptions = {}): Promise<FastifyInstance> {
  // The forms, languages and countries (schemas/): the log's redaction needs the forms' personal fields.
  const data = loadPortalData(config.schemasDir);
  const app = Fastify({
    logger: logger && logOptions(logger, [...data.forms.values()].flatMap(personalFields)),
    bodyLimit: config.jsonBodyLimitBytes,
    requestTimeout: config.requestTimeoutMs,
    // Node checks the header and request timeouts only every 30 s by default: a client trickling its headers
    // was held for up to 45 s against a 15 s limit. Checked every second, it is cut off on time.
    http: { headersTimeout: config.headersTimeoutMs, connectionsCheckingInterval: 1000 },
    trustProxy: config.trustProxy.length > 0 ? config.trustProxy : false,
    // Should a route ever declare a schema, judge it as the page does (no coercion, no removal).
    ajv: { customOptions: { ...repairAjvOptions } },
    // A bad URL or an overlong parameter is refused before routing: same body shape as every other error.
    frameworkErrors: (error, req, reply) => sendError(error, req, reply),
    clientErrorHandler: answerUnparsableRequest,
  });

  const [brands, pages] = await Promise.all([
    loadBrands(config.brandsDir, data),
    loadPortalPages(config.webRoot, { apiBase: config.apiBase, addressLookupUrl: config.addressLookupUrl }),
  ]);

  const signers = webhookSigners(brands, config.secretsEnv);
  requirePublicUrl(brands, config.publicUrl);
  const storage = await openStorage(config, { log: app.log });
  const { photos } = storage;
  await photos.tidy(config.photoTtlMs);
  // One secret every instance shares: it signs photo links, and keys of their own are derived from it.
  const mayCreate = (await storage.requestsAfter(0, 1)).length === 0;
  const secret = await Promise.resolve()
    .then(() => photoLinkSecret(config.photoUrlSecret, config.dataDir, { mayCreate }))
    .catch(async (error: unknown) => {
      await storage.close();
      throw error;
    });
  const links = new PhotoLinks(secret, config.publicUrl, config.photoUrlTtlMs);
  if (!config.smtpUrl) {
    const mailFiles = resolve(config.dataDir, MAIL_SPOOL_DIR);
    // Staff commands run elsewhere (erase) find the files by this, or refuse when they cannot reach them.
    await storage.recordMailFilesDir(mailFiles);
    app.log.warn({ mailFiles }, `SMTP_URL is not set: mails are only written as .eml files to ${mailFiles}, none is sent`);
  }
  // Each request keeps the form it was sent with; those stored before revisions existed get today's.
  const revisions = new FormRevisions(data, storage);
  const adopted = await revisions.register(storage);
  if (adopted > 0) app.log.info({ requests: adopted }, 'requests stored without a form revision now have their form of today');
  const writer = await storage.openWriter({ mailsPerRecipientPerDay: config.mailsPerRecipientPerDay });
  const metrics = new PortalMetrics(storage, () => storage.state.up && writer.alive);
  const deliveries = await startDeliveryWorkers({
    config,
    brands,
    forms: revisions,
    storage,
    writer,
    links,
    signers,
    log: app.log,
    onAttempt: metrics.deliveryAttempt.bind(metrics),
    onDestination: metrics.deliveryDestination.bind(metrics),
    clock,
  });
  const store = new RequestStore(writer, references);
  const mailCap = new MailCap(storage.tally, config.mailBudgets, {
    reached: (brand, budget, until) =>
      app.log.warn(
        { brand, budget, until: new Date(until).toISOString() },
        budget === 'customers'
          ? "mail cap reached: this brand's confirmations wait for the next hour with room"
          : "mail cap reached: this brand's dealer notices are not sent until the hour is over",
      ),
  });
  const validators = compileForms(data);
  const intake = new Intake({
    store,
    validator: new RequestValidator(data, validators),
    mailCap,
    events: {
      accepted: (brand) => metrics.requestAccepted(brand),
      held: (brand) => metrics.mailHeld(brand),
      withheld: (brand) => metrics.mailWithheld(brand),
    },
    data,
    revisions,
    earlier: storage,
    timeZone: config.timeZone,
  });
  const stopSweep = schedulePhotoSweep(
    photos,
    { ttlMs: config.photoTtlMs, overShareTtlMs: config.photoOverShareTtlMs, shareBytes: config.photoQuota.perClientBytes, intervalMs: config.photoSweepIntervalMs },
    app.log,
  );
  const stopRetention = scheduleRetention(
    { storage, mailFolders: [resolve(config.dataDir, MAIL_SPOOL_DIR)] },
    { retentionMs: config.retentionMs, intervalMs: config.retentionIntervalMs },
    app.log,
  );
  // Runs after the server stopped taking requests and in-flight ones finished.
  app.addHook('onClose', async () => {
    stopSweep();
    await stopRetention();
    // The workers record their last results through the writer, so they stop before it closes.
    await deliveries.stop();
    await store.close();
    await storage.close();
  });

  app.decorate('requestStore', store);
  installErrorHandler(app);
  installHostPin(app, portalHostNames(config.publicUrl, config.portalHosts));
  installStrictUtf8Json(app);
  installDrainOnClose(app);
  installSlowClientGuard(app, config.slowClients);
  await installSecurityHeaders(app, config);
  // Counters that cannot be read (the database is down) let the request through: it then meets the
  // database itself and gets 503, rather than a 500 from the limiter.
  await app.register(rateLimit, { global: false, store: storage.rateLimitStore, skipOnError: true });
  await app.register(multipart, { throwFileSizeLimit: false });
  await app.register(cookie);

  // An upload precedes the form it is for: every form's photos follow one rule (npm run validate checks it); no photos, no uploads.
  const rules = uploadRules(data.forms.values()) ?? { maxBytes: 0, types: [] };
  const photoIntake = new PhotoIntake(photos, rules, config.photoBudget, new FairQueue(config.photoDecoding));
  const room = new DiskGuard(photos, config.dataDir, { ...config.photoQuota, minFreeDiskBytes: config.minFreeDiskBytes }, {
    evicted: (n) => metrics.photosEvicted(n),
  });
  metrics.unclaimedPhotoQuota(() => room.quotaUsed());
  await app.register(healthRoutes, { storage, store, dataDir: config.dataDir, minFreeDiskBytes: config.minFreeDiskBytes, room });
  // Forms of other sites must not post in a visitor's name (uploads and the form without scripts).
  const origins = new PostOrigins([config.publicUrl, ...config.corsOrigins]);
  await app.register(imagesRoute, { intake: photoIntake, rules, room, rateLimit: config.rateLimits.uploads, metrics, origins });
  await app.register(formsRoute, { brands, intake, rateLimit: config.rateLimits.submits });
  // Pages after a post without scripts are rendered by the prerender's SSR build (npm run build).
  const seeded = new SeededPages(join(config.webRoot, 'ssr', 'entry-server.js'), pages);
  const sent = new SentRequests(storage, secret, revisions);
  const keys = new SubmissionKeys(secret);
  await app.register(noScriptFormRoute, {
    brands,
    data,
    photos: photoIntake,
    rules,
    room,
    formValidator: new FormDataValidator(data, validators),
    intake,
    answers: new PostAnswers(pages, seeded, sent, keys, data),
    sent,
    keys,
    origins,
    limits: { accepted: config.rateLimits.submits, posts: config.rateLimits.formPosts },
  });
  await app.register(photosRoute, { links, photos });
  await app.register(metricsRoute, { metrics, token: config.metricsToken });
  await app.register(portalRoutes, {
    webRoot: config.webRoot,
    brands,
    languages: new Set(data.languages.keys()),
    pages,
    async confirmation(req, route) {
      const request = await sent.confirmed(req, route.brand.id);
      return request ? seeded.confirmation(route, request) : undefined;
    },
    forgetConfirmation: (req, reply, route) => sent.forget(req, reply, route.brand.id),
    submissionKey: (req, reply) => keys.issue(req, reply),
  });
  return app;
}
