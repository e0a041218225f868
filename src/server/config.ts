import { isAbsolute, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEFAULT_ADDRESS_LOOKUP_URL } from '../core/address-lookup';
import { ConfigError, type Env } from './config-error';
import type { MailBudgets } from './intake/mail-cap';
import type { FairQueueLimits } from './photos/fair-queue';
import type { SlowClientLimits } from './plugins/slow-clients';
import type { DecodeBudget } from './photos/reencode';

export interface RateLimit {
  /** Requests per client within the window. */
  max: number;
  windowMs: number;
}

/** Everything the server reads from its environment, parsed and checked once at start. */
export interface ServerConfig {
  port: number;
  host: string;
  dataDir: string;
  /** PostgreSQL (postgres://…) for several instances; empty = SQLite in DATA_DIR. */
  databaseUrl: string;
  /** Connections each instance keeps to PostgreSQL. */
  databasePoolSize: number;
  /**
   * How long an instance holds the deliveries it took: another instance sends
   * them again only after this (the first one crashed). Longer than any attempt lasts.
   */
  deliveryLeaseMs: number;
  webRoot: string;
  /** STUDIO=on: the brand studio (WEB_ROOT/studio, built by npm run build) is served at /studio; off by default. */
  studio: boolean;
  brandsDir: string;
  /** The forms, languages and countries (schemas/: portal-data.ts). */
  schemasDir: string;
  /** Public API origin the page posts to; empty = same origin. */
  apiBase: string;
  addressLookupUrl: string;
  corsOrigins: string[];
  /** Host names the portal answers to besides PUBLIC_URL's and loopback (PORTAL_HOSTS); others get 421. */
  portalHosts: string[];
  /** Proxy addresses/CIDRs whose X-Forwarded-For is believed; empty = none. */
  trustProxy: string[];
  smtpUrl: string;
  /** Sender address of every mail; the display name is "<Brand> Service". */
  mailFrom: string;
  /**
   * SMTP connections kept open; twice as many mails are under way at once. Each mail takes
   * several round trips, so on a busy machine the count, not the CPU, limits mails per second.
   */
  smtpMaxConnections: number;
  /** Host name the SMTP client greets with (EHLO); real mail servers refuse a bare host name. */
  smtpName: string;
  /** Mails to one unverified address (confirmation, dealer notice) per 24 hours; more are dropped silently. */
  mailsPerRecipientPerDay: number;
  /**
   * The brand's hourly mail cap, all instances together (intake/mail-cap.ts): confirmations per brand
   * (past it they wait for a later hour), dealer notices per brand (past it they are not sent), and one
   * client's share of both.
   */
  mailBudgets: MailBudgets;
  /** Bearer token /metrics asks for; empty = /metrics is not served. */
  metricsToken: string;
  /** Origin the signed photo links in webhooks point at (PUBLIC_URL, else API_BASE); empty = unset, refused at start once a brand has a webhook. */
  publicUrl: string;
  /** Key of the photo links' HMAC; empty = generated once and kept in DATA_DIR. */
  photoUrlSecret: string;
  photoUrlTtlMs: number;
  webhookTimeoutMs: number;
  webhookMaxInFlight: number;
  webhookRetryBaseMs: number;
  /** PEM file of extra certificate authorities for webhook receivers (a private CA). */
  webhookCaFile: string;
  /** Where the brands' webhook secrets are read (brand files name the variable). */
  secretsEnv: Env;
  /**
   * Per client. `submits`: requests the JSON API is sent, and requests the form
   * without scripts gets accepted (valid ones); `formPosts`: every post of the
   * form without scripts, whatever its outcome, so a customer correcting mistakes
   * has room while a flood of posts meets a limit before its body is read.
   */
  rateLimits: { uploads: RateLimit; submits: RateLimit; formPosts: RateLimit };
  jsonBodyLimitBytes: number;
  requestTimeoutMs: number;
  headersTimeoutMs: number;
  shutdownDeadlineMs: number;
  /** Slow bodies are cut off, and one address holds a bounded number of connections. */
  slowClients: SlowClientLimits;
  /** What decoding one photo may cost (pixels per format, bit depth, time). */
  photoBudget: DecodeBudget;
  /** Photos decoded at once, and how many one client / all clients may have waiting. */
  photoDecoding: FairQueueLimits;
  /** Unclaimed photos kept per client and in total (bytes), before uploads are refused with 503. */
  photoQuota: { perClientBytes: number; perNetworkBytes: number; perProviderBytes: number; totalBytes: number; keptForFormMs: number };
  /** Unreferenced photos older than this are removed by the sweep. */
  photoTtlMs: number;
  /** Unreferenced photos of a client whose unclaimed photos reach its quota are removed after this. */
  photoOverShareTtlMs: number;
  photoSweepIntervalMs: number;
  /** Requests (photos, mails, delivery records) are removed this long after they were created and delivered (GDPR). */
  retentionMs: number;
  retentionIntervalMs: number;
  mailRetryBaseMs: number;
  /**
   * DELIVERY_GIVE_UP_HOURS: how long after it was queued a delivery that keeps meeting a relay or
   * receiver down is still retried (at most 30 min apart); a permanent refusal ends it at once.
   */
  deliveryGiveUpMs: number;
  mailPollIntervalMs: number;
  webhookPollIntervalMs: number;
  minFreeDiskBytes: number;
  logLevel: string;
  /** PORTAL_TIME_ZONE: the IANA zone whose clock mails and the staff's commands state times in, with its offset. */
  timeZone: string;
}


const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
const MB = 1024 * 1024;

function text(env: Env, name: string, fallback: string): string {
  const value = env[name]?.trim();
  return value === undefined || value === '' ? fallback : value;
}

function integer(env: Env, name: string, fallback: number, min: number, max = Number.MAX_SAFE_INTEGER): number {
  const raw = env[name]?.trim();
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw new ConfigError(`${name} must be a whole number from ${min} to ${max}, got "${raw}"`);
  }
  return Number(raw);
}

/** A switch: "on" or "off" (also true/false, 1/0, yes/no); anything else is refused by name. */
function onOff(env: Env, name: string, fallback: boolean): boolean {
  const value = text(env, name, fallback ? 'on' : 'off').toLowerCase();
  if (['on', 'true', '1', 'yes'].includes(value)) return true;
  if (['off', 'false', '0', 'no'].includes(value)) return false;
  throw new ConfigError(`${name} must be on or off`);
}

function list(env: Env, name: string): string[] {
  return text(env, name, '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

function httpUrl(name: string, value: string, { originOnly = false } = {}): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigError(`${name} must be an absolute URL, got "${value}"`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new ConfigError(`${name} must be http(s)`);
  if (originOnly && value.replace(/\/$/, '') !== url.origin) {
    throw new ConfigError(`${name} must be an origin like https://example.com, got "${value}"`);
  }
  return originOnly ? url.origin : value;
}

function isInside(parent: string, child: string): boolean {
  const rel = relative(parent, child);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

const ADDRESS = /^[^\s@<>"]+@[^\s@<>"]+\.[^\s@<>"]+$/;

/**
 * MAIL_FROM is a bare address. Without SMTP (mails become .eml files) a
 * placeholder will do; a real mail server needs a real sender.
 */
function senderAddress(env: Env, smtpUrl: string): string {
  const value = text(env, 'MAIL_FROM', '');
  if (!value) {
    if (smtpUrl) throw new ConfigError('MAIL_FROM must be set when SMTP_URL is set (the sender address, e.g. service@portal.example.com)');
    return 'no-reply@portal.invalid';
  }
  if (!ADDRESS.test(value)) throw new ConfigError(`MAIL_FROM must be an e-mail address like service@portal.example.com, got "${value}"`);
  return value;
}

/** An IANA zone name (Area/Location, or UTC); offsets such as +01:00 know no summer time and are refused. */
const ZONE_NAME = /^(?:[A-Za-z][A-Za-z0-9_+-]*)(?:\/[A-Za-z0-9_+-]+)*$/;

/** PORTAL_TIME_ZONE, default Europe/Brussels: read alike by the server and the staff commands. */
export function portalTimeZone(env: Env = process.env): string {
  const zone = text(env, 'PORTAL_TIME_ZONE', 'Europe/Brussels');
  let known = ZONE_NAME.test(zone);
  try {
    if (known) new Intl.DateTimeFormat('en', { timeZone: zone });
  } catch {
    known = false;
  }
  if (!known) throw new ConfigError(`PORTAL_TIME_ZONE must be an IANA time zone such as Europe/Brussels or Europe/Amsterdam, got "${zone}"`);
  return zone;
}

/** Where requests are kept: read alike by the server and the staff commands (npm run requests). */
export type StoreConfig = Pick<ServerConfig, 'dataDir' | 'databaseUrl'>;

/** The store's settings alone: the staff commands need no mail server or photo-link key. */
export function loadStoreConfig(env: Env = process.env, cwd = process.cwd()): StoreConfig {
  const databaseUrl = text(env, 'DATABASE_URL', '');
  if (databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl)) throw new ConfigError('DATABASE_URL must start with postgres:// or postgresql://');
  return { dataDir: resolve(cwd, text(env, 'DATA_DIR', './data')), databaseUrl };
}

/**
 * SCHEMAS_DIR: where the forms, languages and countries are (the server and the staff commands read
 * them); by default the release's own schemas/, beside src/ and dist/, wherever the process starts.
 */
export function schemasDirOf(env: Env = process.env, cwd = process.cwd()): string {
  return resolve(cwd, text(env, 'SCHEMAS_DIR', fileURLToPath(new URL('../../schemas', import.meta.url))));
}

type RequestLimits = Pick<ServerConfig, 'rateLimits' | 'jsonBodyLimitBytes' | 'requestTimeoutMs' | 'headersTimeoutMs' | 'shutdownDeadlineMs' | 'slowClients'>;

/** `name` hits per client per `name`_WINDOW_MS (a minute unless set). */
function rateLimitOf(env: Env, name: string, max: number): { max: number; windowMs: number } {
  return { max: integer(env, name, max, 1), windowMs: integer(env, `${name}_WINDOW_MS`, MINUTE, 1000) };
}

/** What one client may ask and how long a request may take. */
function requestLimitsOf(env: Env): RequestLimits {
  return {
    rateLimits: {
      uploads: rateLimitOf(env, 'RATE_LIMIT_UPLOADS', 30),
      submits: rateLimitOf(env, 'RATE_LIMIT_SUBMITS', 10),
      formPosts: rateLimitOf(env, 'RATE_LIMIT_FORM_POSTS', 60),
    },
    // Two 8000-character texts of 4-byte characters plus the short fields fit well within this.
    jsonBodyLimitBytes: integer(env, 'JSON_BODY_LIMIT_BYTES', 128 * 1024, 1024),
    // A 32 MB photo over a slow mobile uplink needs minutes; headers never do.
    requestTimeoutMs: integer(env, 'REQUEST_TIMEOUT_MS', 5 * MINUTE, 1000),
    headersTimeoutMs: integer(env, 'HEADERS_TIMEOUT_MS', 15_000, 1000),
    shutdownDeadlineMs: integer(env, 'SHUTDOWN_DEADLINE_MS', 25_000, 0),
    slowClients: {
      // 8 kB/s over every 10 s: a 32 MB photo at 1 Mbit/s (125 kB/s) passes with room to spare.
      minBodyBytesPerSecond: integer(env, 'MIN_BODY_BYTES_PER_S', 8 * 1024, 1),
      windowMs: integer(env, 'MIN_BODY_RATE_WINDOW_MS', 10_000, 100),
      // A browser opens at most 6 per host; an office behind one address has several. Off behind a proxy.
      maxConnectionsPerClient: env.TRUST_PROXY?.trim() ? 0 : integer(env, 'MAX_CONNECTIONS_PER_CLIENT', 32, 0),
    },
  };
}

type PhotoSettings = Pick<ServerConfig, 'photoBudget' | 'photoDecoding' | 'photoQuota' | 'photoTtlMs' | 'photoOverShareTtlMs' | 'photoSweepIntervalMs'>;

/** How large a photo may be, how many are decoded at once, how much room they get and how long they are kept unclaimed. */
function photoSettingsOf(env: Env): PhotoSettings {
  return {
    photoBudget: {
      maxPixels: {
        // 50 MP covers phones' high-resolution modes (8160×6120); screenshots stay far below 16 MP.
        jpeg: integer(env, 'MAX_PHOTO_PIXELS', 51_000_000, 1),
        png: integer(env, 'MAX_PNG_PIXELS', 16_000_000, 1),
      },
      timeoutSeconds: integer(env, 'PHOTO_DECODE_TIMEOUT_S', 10, 1),
    },
    photoDecoding: {
      // libvips already spreads one decode over every core; more at once only adds memory.
      concurrency: integer(env, 'PHOTO_DECODE_CONCURRENCY', 1, 1, 64),
      perClient: integer(env, 'PHOTO_DECODE_PER_CLIENT', 4, 1),
      total: integer(env, 'PHOTO_DECODE_QUEUE', 64, 1),
    },
    // Two phone photos re-encoded take about 10–20 MB; a client may start a few forms.
    photoQuota: {
      perClientBytes: integer(env, 'PHOTO_QUOTA_PER_CLIENT_MB', 100, 1) * MB,
      // A /24 or a /48 holds an office, a site or a small provider's customers: a few dozen clients' worth.
      perNetworkBytes: integer(env, 'PHOTO_QUOTA_PER_NETWORK_MB', 500, 1) * MB,
      // An IPv4 /16 or IPv6 /32: one provider's many networks, a few of them busy at once.
      perProviderBytes: integer(env, 'PHOTO_QUOTA_PER_PROVIDER_MB', 1500, 1) * MB,
      totalBytes: integer(env, 'PHOTO_QUOTA_TOTAL_MB', 5 * 1024, 1) * MB,
      // A customer choosing photos and filling in the form: their photos never make room for others meanwhile.
      keptForFormMs: integer(env, 'PHOTO_KEPT_FOR_FORM_MS', 30 * MINUTE, 1000),
    },
    photoTtlMs: integer(env, 'PHOTO_TTL_MS', 24 * 60 * MINUTE, 1000),
    photoOverShareTtlMs: integer(env, 'PHOTO_TTL_OVER_SHARE_MS', 60 * MINUTE, 1000),
    photoSweepIntervalMs: integer(env, 'PHOTO_SWEEP_INTERVAL_MS', 15 * MINUTE, 1000),
  };
}

/** Parses the environment; throws ConfigError with the variable's name on anything malformed. */
export function loadConfig(env: Env = process.env, cwd = process.cwd()): ServerConfig {
  const { dataDir, databaseUrl } = loadStoreConfig(env, cwd);
  const webRoot = resolve(cwd, text(env, 'WEB_ROOT', './dist/web'));
  // The web root is served; photos and the database must never be reachable through it.
  if (isInside(webRoot, dataDir)) throw new ConfigError('DATA_DIR must not lie inside WEB_ROOT');
  const apiBase = text(env, 'API_BASE', '');
  const smtpUrl = text(env, 'SMTP_URL', '');
  if (smtpUrl && !/^smtps?:\/\//.test(smtpUrl)) throw new ConfigError('SMTP_URL must start with smtp:// or smtps://');
  const mailFrom = senderAddress(env, smtpUrl);
  const port = integer(env, 'PORT', 8080, 0, 65535);
  const photoUrlSecret = text(env, 'PHOTO_URL_SECRET', '');
  if (photoUrlSecret && photoUrlSecret.length < 32) throw new ConfigError('PHOTO_URL_SECRET must be at least 32 characters');
  // A link signed by one instance is followed on any other: they need one key, not one each in their own DATA_DIR.
  if (databaseUrl && !photoUrlSecret) throw new ConfigError('PHOTO_URL_SECRET must be set when DATABASE_URL is set: every instance signs photo links with it');
  const webhookTimeoutMs = integer(env, 'WEBHOOK_TIMEOUT_MS', 10_000, 100);
  // API_BASE is the public origin of this server's API, where the photo links lead too.
  const publicUrl = text(env, 'PUBLIC_URL', apiBase);

  return {
    port,
    host: text(env, 'HOST', '0.0.0.0'),
    dataDir,
    databaseUrl,
    databasePoolSize: integer(env, 'DATABASE_POOL_SIZE', 10, 1, 200),
    // Mail attempts end within about a minute (SMTP socket timeout), webhooks within their timeout.
    deliveryLeaseMs: integer(env, 'DELIVERY_LEASE_MS', 5 * MINUTE, Math.max(webhookTimeoutMs, 1000) + 1000),
    webRoot,
    studio: onOff(env, 'STUDIO', false),
    brandsDir: resolve(cwd, text(env, 'BRANDS_DIR', './brands')),
    schemasDir: schemasDirOf(env, cwd),
    apiBase: apiBase && httpUrl('API_BASE', apiBase, { originOnly: true }),
    addressLookupUrl: httpUrl('ADDRESS_LOOKUP_URL', text(env, 'ADDRESS_LOOKUP_URL', DEFAULT_ADDRESS_LOOKUP_URL)),
    corsOrigins: list(env, 'CORS_ORIGINS').map((o) => httpUrl('CORS_ORIGINS', o, { originOnly: true })),
    portalHosts: list(env, 'PORTAL_HOSTS').map((h) => {
      if (!/^[a-z0-9.-]+$/i.test(h)) throw new ConfigError(`PORTAL_HOSTS: "${h}" is not a host name (no scheme, port or path)`);
      return h.toLowerCase();
    }),
    trustProxy: list(env, 'TRUST_PROXY'),
    smtpUrl,
    mailFrom,
    smtpName: text(env, 'SMTP_NAME', mailFrom.split('@')[1]),
    smtpMaxConnections: integer(env, 'SMTP_MAX_CONNECTIONS', 10, 1, 50),
    mailsPerRecipientPerDay: integer(env, 'MAILS_PER_RECIPIENT_PER_DAY', 5, 1),
    mailBudgets: {
      perBrand: integer(env, 'MAILS_PER_BRAND_PER_HOUR', 1000, 1),
      noticesPerBrand: integer(env, 'DEALER_MAILS_PER_BRAND_PER_HOUR', 100, 1),
      perClient: integer(env, 'MAILS_PER_CLIENT_PER_HOUR', 20, 1),
    },
    metricsToken: text(env, 'METRICS_TOKEN', ''),
    publicUrl: publicUrl && httpUrl('PUBLIC_URL', publicUrl, { originOnly: true }),
    photoUrlSecret,
    photoUrlTtlMs: integer(env, 'PHOTO_URL_TTL_MS', 7 * 24 * 60 * MINUTE, 1000),
    webhookTimeoutMs,
    webhookMaxInFlight: integer(env, 'WEBHOOK_MAX_IN_FLIGHT', 8, 1, 256),
    webhookRetryBaseMs: integer(env, 'WEBHOOK_RETRY_BASE_MS', 30_000, 10),
    webhookCaFile: text(env, 'WEBHOOK_CA_FILE', ''),
    secretsEnv: env,
    ...requestLimitsOf(env),
    ...photoSettingsOf(env),
    retentionMs: integer(env, 'RETENTION_DAYS', 90, 1, 3650) * DAY,
    retentionIntervalMs: integer(env, 'RETENTION_INTERVAL_MS', 60 * MINUTE, 1000),
    mailRetryBaseMs: integer(env, 'MAIL_RETRY_BASE_MS', 30_000, 10),
    // A long weekend with the relay down: Friday evening to Monday evening.
    deliveryGiveUpMs: integer(env, 'DELIVERY_GIVE_UP_HOURS', 72, 1, 24 * 90) * 60 * MINUTE,
    mailPollIntervalMs: integer(env, 'MAIL_POLL_INTERVAL_MS', 50, 10),
    webhookPollIntervalMs: integer(env, 'WEBHOOK_POLL_INTERVAL_MS', 50, 10),
    minFreeDiskBytes: integer(env, 'MIN_FREE_DISK_MB', 256, 0) * MB,
    logLevel: text(env, 'LOG_LEVEL', 'info'),
    timeZone: portalTimeZone(env),
  };
}
