import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/server/config';

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

  it.each([
    [{ PORT: 'eighty' }, /PORT/],
    [{ PORT: '70000' }, /PORT/],
    [{ API_BASE: 'https://api.example.com/path' }, /API_BASE/],
    [{ CORS_ORIGINS: 'javascript:alert(1)' }, /CORS_ORIGINS/],
    [{ ADDRESS_LOOKUP_URL: 'not a url' }, /ADDRESS_LOOKUP_URL/],
    [{ SMTP_URL: 'http://mail' }, /SMTP_URL/],
    [{ WEB_ROOT: './public', DATA_DIR: './public/data' }, /DATA_DIR/],
  ])('refuses %o by name', (env, message) => {
    expect(() => loadConfig(env, '/srv/portal')).toThrow(ConfigError);
    expect(() => loadConfig(env, '/srv/portal')).toThrow(message);
  });
});
