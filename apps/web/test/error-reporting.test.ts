// @vitest-environment node
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as Sentry from '@sentry/browser';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startErrorReporting } from '@/lib/error-reporting';

// The web app's error reports, sent to a local Sentry-compatible endpoint: an error whose message and
// extra data carry a prompt and a token arrives without them.
let server: Server;
let port: number;
const envelopes: string[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      envelopes.push(Buffer.concat(chunks).toString('utf8'));
      res.writeHead(200, { 'access-control-allow-origin': '*' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  await Sentry.close(1000);
  server.close();
});

describe('web error reporting', () => {
  it('is not started without a DSN', () => {
    expect(Sentry.isInitialized()).toBe(false);
  });

  it('reports an error without the prompt, the answer or the token it was thrown with', async () => {
    startErrorReporting({ dsn: `http://webkey@127.0.0.1:${port}/7`, environment: 'test' });
    expect(Sentry.isInitialized()).toBe(true);
    const token = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ1In0.c2lnbmF0dXJlLXNpZ25hdHVyZQ';
    Sentry.captureException(new Error(`request failed with Bearer ${token}`), {
      extra: { prompt: 'my secret prompt', answer: 'the secret answer', status: 500 },
    });
    await Sentry.flush(5000);
    await vi.waitFor(() =>
      expect(envelopes.some((e) => e.includes('request failed with Bearer'))).toBe(true),
    );
    const text = envelopes.join('\n');
    for (const leak of [token, 'my secret prompt', 'the secret answer']) expect(text).not.toContain(leak);
    expect(text).toContain('"status":500');
  });
});
