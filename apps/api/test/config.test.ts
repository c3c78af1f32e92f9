import { existsSync, mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/env';

describe('configuration', () => {
  it('refuses to start in production without JWT_SECRET', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(ConfigError);
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(/JWT_SECRET is required/);
  });

  it('refuses a short JWT_SECRET', () => {
    expect(() => loadConfig({ NODE_ENV: 'production', JWT_SECRET: 'short' })).toThrow(/at least 32/);
  });

  it('generates a secret once in development and keeps it under DATA_DIR', () => {
    const dir = mkdtempSync(join(tmpdir(), 'atelier-config-'));
    const first = loadConfig({ NODE_ENV: 'development', DATA_DIR: dir });
    const second = loadConfig({ NODE_ENV: 'development', DATA_DIR: dir });
    expect(first.jwtSecret.length).toBeGreaterThanOrEqual(60);
    expect(second.jwtSecret).toBe(first.jwtSecret);
    const file = join(dir, 'jwt-secret');
    expect(existsSync(file)).toBe(true);
    expect(readFileSync(file, 'utf8')).toBe(first.jwtSecret);
    expect(statSync(file).mode & 0o077).toBe(0);
  });

  it('has the documented defaults', () => {
    const dir = mkdtempSync(join(tmpdir(), 'atelier-config-'));
    const config = loadConfig({ DATA_DIR: dir });
    expect(config).toMatchObject({
      port: 5001,
      databaseUrl: undefined,
      redisUrl: undefined,
      accessTokenTtlSeconds: 900,
      webOrigins: ['http://localhost:3000', 'http://127.0.0.1:3000'],
      trustProxy: false,
    });
  });

  it('PARSE_THREADS: unset or empty leaves the default to the parser pool; a count from 1 to 64', () => {
    const dir = mkdtempSync(join(tmpdir(), 'atelier-config-'));
    expect(loadConfig({ DATA_DIR: dir }).parseThreads).toBeUndefined();
    expect(loadConfig({ DATA_DIR: dir, PARSE_THREADS: ' ' }).parseThreads).toBeUndefined();
    expect(loadConfig({ DATA_DIR: dir, PARSE_THREADS: '3' }).parseThreads).toBe(3);
    for (const bad of ['0', '-1', '1.5', 'many', '65']) {
      expect(() => loadConfig({ DATA_DIR: dir, PARSE_THREADS: bad })).toThrow(/PARSE_THREADS/);
    }
  });

  it('explains what is wrong with a bad value', () => {
    expect(() => loadConfig({ PORT: 'abc', JWT_SECRET: 'x'.repeat(40) })).toThrow(/PORT/);
  });
});
