import { join } from 'node:path';
import cookie from '@fastify/cookie';
import multipart from '@fastify/multipart';
import rateLimit from '@fastify/rate-limit';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import { repairAjvOptions } from '../core/ajv-options';
import { personalFields, uploadRules } from '../core/form-model';
import { loadBrands } from './brands';
import { loadPortalData, type PortalData } from './portal-data';
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
import { loadPortalPages, type PortalPages } from './portal-pages';
import { PostOrigins } from './post-origin';
import { installHostPin, portalHostNames } from './plugins/host-pin';
import { installStrictUtf8Json } from './plugins/strict-utf8';
import { formsRoute } from './routes/forms';
import { healthRoutes } from './routes/health';
import { imagesRoute } from './routes/images';
import { metricsRoute } from './routes/metrics';
import { noScriptFormRoute } from './routes/no-script-form';
import { photosRoute } from './routes/photos';
import { studioRoutes } from './routes/studio';
import { portalRoutes } from './routes/portal';
import { FormRevisions } from './revisions/form-revisions';
import { openStorage } from './storage/open-storage';
import type { RequestWriter, Storage } from './storage/port';
import type { Brand } from '../core/types';
import type { Webhook } from 'standardwebhooks';
import { FormDataValidator } from './validation/form-data-validator';
import { swollenBodies } from './validation/swollen-bodies';
import { compileForms, RequestValidator } from './validation/request-validator';

declare module 'fastify' {
  interface FastifyInstance {
    /** The request store, for health checks and tests that need to see its writer. */
    requestStore: RequestStore;
  }
}

/**
 * Removes half-written mail copies a crash left and (PostgreSQL) moves those an earlier release wrote to
 * DATA_DIR/outbox into the database. A folder it cannot read is logged, not fatal: it stays recorded, and
 * erasure names it until this is done.
 */
async function tidyMailCopies(storage: Storage, log: FastifyBaseLogger): Promise<void> {
  try {
    const { moved, removed } = await storage.mailCopies.tidy();
    if (moved > 0) log.info({ moved, removed }, `mail files of an earlier release moved into ${storage.mailCopies.place}`);
  } catch (error) {
    log.error({ err: error }, 'the mail folder of an earlier release could not be tidied: erase names it until it is');
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

/** What the app stands on: the storage, read and tidied at start, and its one writer. */
interface Backend {
  storage: Storage;
  writer: RequestWriter;
  /** The secret every instance shares: it signs photo links, and keys of their own are derived from it. */
  secret: Buffer;
  revisions: FormRevisions;
}

/** Opens the storage and readies it; any failure after it opened closes it again before it is thrown. */
async function openBackend(config: ServerConfig, data: PortalData, log: FastifyBaseLogger): Promise<Backend> {
  const storage = await openStorage(config, { log });
  try {
    await storage.photos.tidy(config.photoTtlMs);
    const mayCreate = (await storage.requestsAfter(0, 1)).length === 0;
    const secret = photoLinkSecret(config.photoUrlSecret, config.dataDir, { mayCreate });
    await tidyMailCopies(storage, log);
    if (!config.smtpUrl) {
      const { place } = storage.mailCopies;
      log.warn({ mailCopies: place }, `SMTP_URL is not set: mails are only kept (${place}), none is sent`);
    }
    // Each request keeps the form it was sent with; those stored before revisions existed get today's.
    const revisions = new FormRevisions(data, storage);
    const adopted = await revisions.register(storage);
    if (adopted > 0) log.info({ requests: adopted }, 'requests stored without a form revision now have their form of today');
    const writer = await storage.openWriter({ mailsPerRecipientPerDay: config.mailsPerRecipientPerDay });
    return { storage, writer, secret, revisions };
  } catch (error) {
    await storage.close();
    throw error;
  }
}

/** The server's parts that answer requests, made over the backend. */
interface Parts {
  config: ServerConfig;
  data: PortalData;
  brands: Map<string, Brand>;
  pages: PortalPages;
  backend: Backend;
  store: RequestStore;
  links: PhotoLinks;
  signers: Map<string, Webhook>;
  metrics: PortalMetrics;
}

/** Deliveries, the photo sweep and retention, running until the returned stop is called. */
async function startBackgroundWork(app: FastifyInstance, { config, brands, backend, links, signers, metrics }: Parts, clock: AppOptions['clock']): Promise<() => Promise<void>> {
  const { storage, writer, revisions } = backend;
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
  const stopSweep = schedulePhotoSweep(
    storage.photos,
    { ttlMs: config.photoTtlMs, overShareTtlMs: config.photoOverShareTtlMs, shareBytes: config.photoQuota.perClientBytes, intervalMs: config.photoSweepIntervalMs },
    app.log,
  );
  const stopRetention = scheduleRetention(storage, { retentionMs: config.retentionMs, intervalMs: config.retentionIntervalMs }, app.log);
  return async () => {
    stopSweep();
    await stopRetention();
    // The workers record their last results through the writer, so they stop before it closes.
    await deliveries.stop();
  };
}

/** The submit's path: validation with the forms of today, the mail caps, the store. */
function makeIntake(app: FastifyInstance, { config, data, backend, store, metrics }: Parts, validators: ReturnType<typeof compileForms>): Intake {
  const mailCap = new MailCap(backend.storage.tally, config.mailBudgets, {
    reached: (brand, budget, until) =>
      app.log.warn(
        { brand, budget, until: new Date(until).toISOString() },
        budget === 'customers'
          ? "mail cap reached: this brand's confirmations wait for the next hour with room"
          : "mail cap reached: this brand's dealer notices are not sent until the hour is over",
      ),
  });
  return new Intake({
    store,
    validator: new RequestValidator(data, validators),
    mailCap,
    events: {
      accepted: (brand) => metrics.requestAccepted(brand),
      held: (brand) => metrics.mailHeld(brand),
      withheld: (brand) => metrics.mailWithheld(brand),
    },
    data,
    revisions: backend.revisions,
    earlier: backend.storage,
    timeZone: config.timeZone,
  });
}

/** The hooks every route passes through: errors, host pin, strict JSON, drain, slow clients, headers, limits. */
async function installPlugins(app: FastifyInstance, { config, data, backend }: Parts): Promise<void> {
  installErrorHandler(app);
  installHostPin(app, portalHostNames(config.publicUrl, config.portalHosts));
  installStrictUtf8Json(app, swollenBodies(data));
  installDrainOnClose(app);
  installSlowClientGuard(app, config.slowClients);
  await installSecurityHeaders(app, config);
  // Counters that cannot be read (the database is down) let the request through: it then meets the
  // database itself and gets 503, rather than a 500 from the limiter.
  await app.register(rateLimit, { global: false, store: backend.storage.rateLimitStore, skipOnError: true });
  await app.register(multipart, { throwFileSizeLimit: false });
  await app.register(cookie);
}

/** The routes: health, uploads, the JSON submit, the form without scripts, photo links, metrics, the studio, the pages. */
async function registerRoutes(app: FastifyInstance, parts: Parts): Promise<void> {
  const { config, data, brands, pages, backend, store, links, metrics } = parts;
  const { storage, secret, revisions } = backend;
  // An upload precedes the form it is for: every form's photos follow one rule (npm run validate checks it); no photos, no uploads.
  const rules = uploadRules(data.forms.values()) ?? { maxBytes: 0, types: [] };
  const photoIntake = new PhotoIntake(storage.photos, rules, config.photoBudget, new FairQueue(config.photoDecoding));
  const room = new DiskGuard(storage.photos, config.dataDir, { ...config.photoQuota, minFreeDiskBytes: config.minFreeDiskBytes }, {
    evicted: (n) => {
      metrics.photosEvicted(n);
      app.log.warn({ photos: n }, `unclaimed photos older than ${config.photoQuota.keptForFormMs / 60_000} minutes removed to make room for an upload`);
    },
  });
  metrics.unclaimedPhotoQuota(() => room.quotaUsed());
  const validators = compileForms(data);
  const intake = makeIntake(app, parts, validators);
  await app.register(healthRoutes, { storage, store, dataDir: config.dataDir, minFreeDiskBytes: config.minFreeDiskBytes, room });
  // Forms of other sites must not post in a visitor's name (uploads and the form without scripts).
  const origins = new PostOrigins([config.publicUrl, ...config.corsOrigins]);
  await app.register(imagesRoute, { intake: photoIntake, rules, room, rateLimit: config.rateLimits.uploads, metrics, origins, languages: data.languages });
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
  await app.register(photosRoute, { links, photos: storage.photos });
  await app.register(metricsRoute, { metrics, token: config.metricsToken });
  if (config.studio) await app.register(studioRoutes, { webRoot: config.webRoot });
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
}

/** The Fastify instance with the portal's limits and log (its redaction needs the forms' personal fields). */
function createFastify(config: ServerConfig, data: PortalData, logger: AppOptions['logger']): FastifyInstance {
  return Fastify({
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
}

/**
 * The whole intake server as one Fastify instance: the portal's pages and
 * assets, the upload and submit API, signed photo links, health checks and
 * metrics, and the background deliveries (mails, webhooks) and photo sweep,
 * all stopped by `app.close()`. Built in three steps: open the backend, start
 * the background work, register the routes; a failure in any step after the
 * first stops and closes what the steps before it started.
 */
export async function buildApp(config: ServerConfig, { logger = false, references, clock }: AppOptions = {}): Promise<FastifyInstance> {
  // The forms, languages and countries (schemas/).
  const data = loadPortalData(config.schemasDir);
  const app = createFastify(config, data, logger);
  const [brands, pages] = await Promise.all([
    loadBrands(config.brandsDir, data),
    loadPortalPages(config.webRoot, { apiBase: config.apiBase, addressLookupUrl: config.addressLookupUrl }),
  ]);
  const signers = webhookSigners(brands, config.secretsEnv);
  requirePublicUrl(brands, config.publicUrl);

  const backend = await openBackend(config, data, app.log);
  const store = new RequestStore(backend.writer, references);
  let stopWork = async () => {};
  const stop = async () => {
    await stopWork();
    await store.close();
    await backend.storage.close();
  };
  try {
    const links = new PhotoLinks(backend.secret, config.publicUrl, config.photoUrlTtlMs);
    const metrics = new PortalMetrics(backend.storage, () => backend.storage.state.up && backend.writer.alive);
    const parts: Parts = { config, data, brands, pages, backend, store, links, signers, metrics };
    stopWork = await startBackgroundWork(app, parts, clock);
    // Runs after the server stopped taking requests and in-flight ones finished.
    app.addHook('onClose', stop);
    app.decorate('requestStore', store);
    await installPlugins(app, parts);
    await registerRoutes(app, parts);
  } catch (error) {
    await stop();
    throw error;
  }
  return app;
}
