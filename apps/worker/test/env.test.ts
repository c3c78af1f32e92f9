import { describe, expect, it } from 'vitest';
import { loadWorkerConfig } from '../src/env';

const key = Buffer.alloc(32, 1).toString('base64');

describe('worker configuration', () => {
  it('needs the API database, Redis and the encryption key, and says which is missing', () => {
    expect(() => loadWorkerConfig({ REDIS_URL: 'redis://x', ENCRYPTION_KEY: key })).toThrow(/DATABASE_URL/);
    expect(() => loadWorkerConfig({ DATABASE_URL: 'postgres://x', ENCRYPTION_KEY: key })).toThrow(
      /REDIS_URL/,
    );
    expect(() =>
      loadWorkerConfig({ DATABASE_URL: 'postgres://x', REDIS_URL: 'redis://x', ENCRYPTION_KEY: 'c2hvcnQ=' }),
    ).toThrow(/32 bytes/);
  });

  it('has defaults for the rest', () => {
    const config = loadWorkerConfig({
      DATABASE_URL: 'postgres://x',
      REDIS_URL: 'redis://x',
      ENCRYPTION_KEY: key,
    });
    expect(config).toMatchObject({
      RUN_CONCURRENCY: 200,
      NODE_URL_POLICY: 'public-only',
      QUEUE_PREFIX: 'atelier',
      RUN_LOCK_MS: 30_000,
    });
    expect(config.encryptionKey).toHaveLength(32);
  });

  it('reads the URL allow lists and names a bad entry', () => {
    const base = { DATABASE_URL: 'postgres://x', REDIS_URL: 'redis://x', ENCRYPTION_KEY: key };
    expect(loadWorkerConfig(base)).toMatchObject({
      NODE_URL_ALLOW: [],
      PROVIDER_URL_ALLOW: [],
      PROVIDER_URL_POLICY: 'any',
    });
    expect(
      loadWorkerConfig({ ...base, NODE_URL_ALLOW: 'api.lan, 10.0.0.0/8', PROVIDER_URL_ALLOW: '10.0.0.5' }),
    ).toMatchObject({ NODE_URL_ALLOW: ['api.lan', '10.0.0.0/8'], PROVIDER_URL_ALLOW: ['10.0.0.5'] });
    expect(() => loadWorkerConfig({ ...base, PROVIDER_URL_ALLOW: '10.0.0.0/77' })).toThrow(
      /PROVIDER_URL_ALLOW/,
    );
  });
});
