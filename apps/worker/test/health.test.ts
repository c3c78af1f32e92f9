import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { startHealthServer } from '../src/health';

describe("the worker's health port", () => {
  it('answers 200 when PostgreSQL and Redis answer, 503 naming the one that does not, 404 elsewhere', async () => {
    let redisUp = true;
    const server = startHealthServer({
      port: 0,
      pingDb: async () => undefined,
      pingRedis: async () => {
        if (!redisUp) throw new Error('Connection is closed.');
      },
      active: () => 3,
    });
    await new Promise<void>((resolve) => server.once('listening', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const ok = await fetch(`${base}/health`);
      expect(ok.status).toBe(200);
      expect(await ok.json()).toEqual({ status: 'ok', db: 'ok', redis: 'ok', active_runs: 3 });
      redisUp = false;
      const down = await fetch(`${base}/health`);
      expect(down.status).toBe(503);
      expect(await down.json()).toEqual({ status: 'degraded', db: 'ok', redis: 'error', active_runs: 3 });
      const other = await fetch(`${base}/nothing-here`);
      expect(other.status).toBe(404);
      expect(((await other.json()) as { code: string }).code).toBe('route_not_found');
    } finally {
      server.close();
    }
  });
});
