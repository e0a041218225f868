import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/server/config';
import { ConfigError } from '../../src/server/config-error';

describe('loadConfig', () => {
  it('has working defaults', () => {
    const config = loadConfig({}, '/srv/portal');
    expect(config).toMatchObject({
      port: 8080,
      host: '0.0.0.0',
      dataDir: '/srv/portal/data',
      webRoot: '/srv/portal/dist/web',
      apiBase: '',
      addressLookupUrl: 'https://api.pdok.nl/bzk/locatieserver/search/v3_1/free',
      corsOrigins: [],
    });
    expect(config.requestTimeoutMs).toBeGreaterThan(0);
    expect(config.headersTimeoutMs).toBeGreaterThan(0);
  });

  it('greets SMTP servers with the sender\'s domain unless SMTP_NAME says otherwise', () => {
    const env = { SMTP_URL: 'smtp://mail.example.com', MAIL_FROM: 'service@portal.example.com' };
    expect(loadConfig(env, '/srv/portal')).toMatchObject({ mailFrom: 'service@portal.example.com', smtpName: 'portal.example.com' });
    expect(loadConfig({ ...env, SMTP_NAME: 'mx1.portal.example.com' }, '/srv/portal').smtpName).toBe('mx1.portal.example.com');
  });

  it('lets a 32 MB photo through at 1 Mbit/s by default: above the minimum body rate, within the request timeout', () => {
    const config = loadConfig({}, '/srv/portal');
    const weakUplink = 1_000_000 / 8; // bytes per second
    const photo = 32 * 1024 * 1024 + 64 * 1024;
    expect(weakUplink).toBeGreaterThan(10 * config.slowClients.minBodyBytesPerSecond);
    expect((photo / weakUplink) * 1000).toBeLessThan(config.requestTimeoutMs);
  });

  it('states times in Europe/Brussels unless PORTAL_TIME_ZONE names another IANA zone', () => {
    expect(loadConfig({}, '/srv').timeZone).toBe('Europe/Brussels');
    expect(loadConfig({ PORTAL_TIME_ZONE: ' Europe/Amsterdam ' }, '/srv').timeZone).toBe('Europe/Amsterdam');
    expect(loadConfig({ PORTAL_TIME_ZONE: 'UTC' }, '/srv').timeZone).toBe('UTC');
  });

  it('counts retention in days, and turns the connection cap off behind a proxy', () => {
    expect(loadConfig({ RETENTION_DAYS: '30' }, '/srv').retentionMs).toBe(30 * 24 * 60 * 60_000);
    expect(loadConfig({}, '/srv').slowClients.maxConnectionsPerClient).toBeGreaterThan(0);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8' }, '/srv').slowClients.maxConnectionsPerClient).toBe(0);
    expect(() => loadConfig({ RETENTION_DAYS: '0' }, '/srv')).toThrow(/RETENTION_DAYS/);
  });

  it('retries deliveries for 72 hours unless DELIVERY_GIVE_UP_HOURS says otherwise (whole hours, at least 1)', () => {
    expect(loadConfig({}, '/srv').deliveryGiveUpMs).toBe(72 * 60 * 60_000);
    expect(loadConfig({ DELIVERY_GIVE_UP_HOURS: '168' }, '/srv').deliveryGiveUpMs).toBe(168 * 60 * 60_000);
    expect(() => loadConfig({ DELIVERY_GIVE_UP_HOURS: '0' }, '/srv')).toThrow(/DELIVERY_GIVE_UP_HOURS/);
    expect(() => loadConfig({ DELIVERY_GIVE_UP_HOURS: '1.5' }, '/srv')).toThrow(/DELIVERY_GIVE_UP_HOURS/);
  });

  it.each([
    [{ PORT: 'eighty' }, /PORT/],
    [{ PORT: '70000' }, /PORT/],
    [{ API_BASE: 'https://api.example.com/path' }, /API_BASE/],
    [{ CORS_ORIGINS: 'javascript:alert(1)' }, /CORS_ORIGINS/],
    [{ ADDRESS_LOOKUP_URL: 'not a url' }, /ADDRESS_LOOKUP_URL/],
    [{ SMTP_URL: 'http://mail' }, /SMTP_URL/],
    [{ SMTP_URL: 'smtp://mail.example.com' }, /MAIL_FROM must be set when SMTP_URL is set/],
    [{ MAIL_FROM: 'Service <no-reply@localhost>' }, /MAIL_FROM must be an e-mail address/],
    [{ PHOTO_URL_SECRET: 'short' }, /PHOTO_URL_SECRET/],
    [{ PUBLIC_URL: 'https://portal.example.com/path' }, /PUBLIC_URL/],
    [{ WEB_ROOT: './public', DATA_DIR: './public/data' }, /DATA_DIR/],
    [{ PORTAL_TIME_ZONE: 'Europe/Nowhere' }, /^PORTAL_TIME_ZONE must be an IANA time zone such as Europe\/Brussels .*, got "Europe\/Nowhere"$/],
    [{ PORTAL_TIME_ZONE: '+01:00' }, /PORTAL_TIME_ZONE must be an IANA time zone/],
    [{ PORTAL_TIME_ZONE: 'CET; rm -rf' }, /PORTAL_TIME_ZONE must be an IANA time zone/],
  ])('refuses %o by name', (env, message) => {
    expect(() => loadConfig(env, '/srv/portal')).toThrow(ConfigError);
    expect(() => loadConfig(env, '/srv/portal')).toThrow(message);
  });
});
