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
      RUN_CONCURRENCY: 50,
      NODE_URL_POLICY: 'public-only',
      QUEUE_PREFIX: 'atelier',
      RUN_LOCK_MS: 30_000,
    });
    expect(config.encryptionKey).toHaveLength(32);
  });
});
