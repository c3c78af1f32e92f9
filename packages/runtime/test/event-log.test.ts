import type { FlowStreamEvent } from '@atelier/schemas';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { createMemoryEventLog, createRedisEventLog, type EventLog, type LoggedEvent } from '../src';

const REDIS_URL = process.env.REDIS_URL;
const logs: [string, EventLog][] = [['memory', createMemoryEventLog()]];
if (REDIS_URL) logs.push(['redis', createRedisEventLog(REDIS_URL)]);
afterAll(async () => {
  for (const [, log] of logs) await log.close();
});

const node = (i: number): FlowStreamEvent => ({ type: 'text', node_id: 'llm_ab12', text: `t${i}` });
const done = (runId: string): FlowStreamEvent => ({
  type: 'execution_completed',
  run_id: runId,
  outputs: {},
  final_output: 'ok',
});

async function collect(
  log: EventLog,
  runId: string,
  after: string | null,
  signal = new AbortController().signal,
) {
  const seen: LoggedEvent[] = [];
  for await (const entry of log.read(runId, after, signal)) seen.push(entry);
  return seen;
}

describe.each(logs)('%s event log', (_kind, log) => {
  it('a reader that attaches before the run follows it live to the end, in order', async () => {
    const runId = crypto.randomUUID();
    const reading = collect(log, runId, null);
    for (let i = 0; i < 5; i++) {
      await log.append(runId, node(i));
      await new Promise((r) => setTimeout(r, 5));
    }
    await log.append(runId, done(runId));
    const seen = await reading;
    expect(seen.map((e) => e.event.type)).toEqual([...Array(5).fill('text'), 'execution_completed']);
    expect(new Set(seen.map((e) => e.id)).size).toBe(6);
  });

  it('re-attaching after an id gives exactly the rest: no gap, no duplicate', async () => {
    const runId = crypto.randomUUID();
    const ids: string[] = [];
    for (let i = 0; i < 10; i++) ids.push(await log.append(runId, node(i)));
    const controller = new AbortController();
    const firstPart: LoggedEvent[] = [];
    for await (const entry of log.read(runId, null, controller.signal)) {
      firstPart.push(entry);
      if (firstPart.length === 4) break; // the client leaves
    }
    const rest = collect(log, runId, firstPart.at(-1)!.id);
    await log.append(runId, node(10));
    await log.append(runId, done(runId));
    const texts = [...firstPart, ...(await rest)].map((e) =>
      e.event.type === 'text' ? e.event.text : e.event.type,
    );
    expect(texts).toEqual([...Array.from({ length: 11 }, (_, i) => `t${i}`), 'execution_completed']);
  });

  it('a finished run is read whole and the reader ends; an abort ends a waiting reader', async () => {
    const runId = crypto.randomUUID();
    await log.append(runId, node(0));
    await log.append(runId, done(runId));
    expect(await collect(log, runId, null)).toHaveLength(2);

    const waiting = crypto.randomUUID();
    const controller = new AbortController();
    const reading = collect(log, waiting, null, controller.signal);
    setTimeout(() => controller.abort(), 50);
    expect(await reading).toEqual([]);
  });
});

describe.runIf(REDIS_URL)('redis event log, entries that are not run events', () => {
  it('are skipped and reported; the events around them still arrive', async () => {
    const reported: string[] = [];
    const prefix = `atelier-test-${crypto.randomUUID()}`;
    const log = createRedisEventLog(REDIS_URL!, prefix, (error) => reported.push(error.message));
    const raw = new Redis(REDIS_URL!);
    try {
      const runId = crypto.randomUUID();
      await log.append(runId, node(0));
      await raw.xadd(`${prefix}:run:${runId}:events`, '*', 'e', '{not json');
      await raw.xadd(`${prefix}:run:${runId}:events`, '*', 'e', JSON.stringify({ type: 'text', text: 1 }));
      await log.append(runId, done(runId));
      const seen = await collect(log, runId, null);
      expect(seen.map((e) => e.event.type)).toEqual(['text', 'execution_completed']);
      expect(reported).toHaveLength(2);
      expect(reported[0]).toMatch(/not JSON/);
      expect(reported[1]).toMatch(/not a run event/);
    } finally {
      raw.disconnect();
      await log.close();
    }
  });
});

describe.runIf(REDIS_URL)('redis event log, a reader in the appending process', () => {
  it('takes that process’s appends from memory and still gets every other process’s, in stream order', async () => {
    const prefix = `atelier-test-${crypto.randomUUID()}`;
    // Two processes sharing Redis: A runs the run and streams it; B appends too (a cancel, a reaper).
    const a = createRedisEventLog(REDIS_URL!, prefix);
    const b = createRedisEventLog(REDIS_URL!, prefix);
    const raw = new Redis(REDIS_URL!);
    try {
      const runId = crypto.randomUUID();
      const mine = [node(0), node(1), node(2)];
      await a.append(runId, node(-1));
      const reading = collect(a, runId, null);
      await new Promise((r) => setTimeout(r, 20));
      await a.append(runId, mine[0]!);
      await new Promise((r) => setTimeout(r, 10));
      await b.append(runId, node(100));
      await new Promise((r) => setTimeout(r, 20));
      // An append whose nudge is lost (straight into the stream): A's next batch does not follow on
      // from what the reader has, so the reader goes to the stream and gets it.
      await raw.xadd(`${prefix}:run:${runId}:events`, '*', 'e', JSON.stringify(node(50)));
      await a.appendMany(runId, [mine[1]!, mine[2]!]);
      // Appends of both at once, every way they can interleave.
      await Promise.all([
        (async () => {
          for (let i = 3; i < 40; i++) await a.append(runId, node(i));
        })(),
        (async () => {
          for (let i = 101; i < 120; i++) await b.append(runId, node(i));
        })(),
      ]);
      await a.append(runId, done(runId));
      const seen = await reading;
      const stream = (await raw.xrange(`${prefix}:run:${runId}:events`, '-', '+')) as [string, string[]][];
      // Exactly the stream: every event once, in its order.
      expect(seen.map((e) => e.id)).toEqual(stream.map(([id]) => id));
      expect(seen.map((e) => e.event)).toEqual(stream.map(([, f]) => JSON.parse(f[1]!)));
      // A's own appends after the reader attached came from memory: the very objects appended.
      expect(seen.find((e) => e.event === mine[0])).toBeDefined();
      expect(seen.filter((e) => ['t50', 't100'].includes((e.event as { text?: string }).text!))).toHaveLength(
        2,
      );
    } finally {
      raw.disconnect();
      await Promise.all([a.close(), b.close()]);
    }
  });

  it('a reader that resumes after an id in the appending process gets exactly the rest', async () => {
    const prefix = `atelier-test-${crypto.randomUUID()}`;
    const a = createRedisEventLog(REDIS_URL!, prefix);
    try {
      const runId = crypto.randomUUID();
      const ids: string[] = [];
      for (let i = 0; i < 4; i++) ids.push(await a.append(runId, node(i)));
      const reading = collect(a, runId, ids[1]!);
      await new Promise((r) => setTimeout(r, 20));
      ids.push(await a.append(runId, node(4)));
      ids.push(await a.append(runId, done(runId)));
      const seen = await reading;
      expect(seen.map((e) => e.id)).toEqual(ids.slice(2));
    } finally {
      await a.close();
    }
  });
});
