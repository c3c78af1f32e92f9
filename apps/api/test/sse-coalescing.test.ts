import type { AddressInfo } from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COALESCE_MS, openSse } from '../src/plugins/sse';

// A stream's first event leaves at once; the events that follow within COALESCE_MS share one socket
// write, so a fast token stream does not cost a system call per token. Nothing is lost or reordered.
let app: FastifyInstance;
let base: string;
let writes = 0;

beforeAll(async () => {
  app = Fastify({ logger: false });
  app.get('/stream', async (_request, reply) => {
    const sse = openSse(reply);
    const write = reply.raw.write.bind(reply.raw);
    reply.raw.write = ((...args: Parameters<typeof write>) => {
      writes += 1;
      return write(...args);
    }) as typeof reply.raw.write;
    sse.send({ n: 0 });
    for (let n = 1; n <= 40; n++) {
      await new Promise((resolve) => setTimeout(resolve, 1));
      sse.send({ n });
    }
    sse.end();
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await app.close();
});

describe('event stream writes', () => {
  it('sends the first event at once and coalesces the fast ones after it, in order', async () => {
    const res = await fetch(`${base}/stream`);
    const reader = res.body!.getReader();
    const first = await reader.read();
    let text = new TextDecoder().decode(first.value);
    expect(text).toContain('data: {"n":0}');
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      text += new TextDecoder().decode(value);
    }
    const numbers = [...text.matchAll(/data: \{"n":(\d+)\}/g)].map((m) => Number(m[1]));
    expect(numbers).toEqual(Array.from({ length: 41 }, (_, i) => i));
    expect(text.trimEnd().endsWith('data: [DONE]')).toBe(true);
    // 41 events over at least 40 ms: fewer writes than events (one per COALESCE_MS at most, plus the
    // first and the end); with a write per event there would be 42.
    expect(COALESCE_MS).toBeGreaterThanOrEqual(5);
    expect(writes).toBeLessThan(41);
  });
});
