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
