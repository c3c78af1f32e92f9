import { describe, expect, it } from 'vitest';
import { createInProcessQueue, createMemoryCancelBus } from '../src';

describe('in-process queue', () => {
  it('runs at most `concurrency` runs at once, in order, and survives a failing run', async () => {
    let active = 0;
    let peak = 0;
    const started: string[] = [];
    const errors: string[] = [];
    const queue = createInProcessQueue({
      concurrency: 2,
      onError: (_e, runId) => errors.push(runId),
      execute: async (runId) => {
        started.push(runId);
        active++;
        peak = Math.max(peak, active);
        await new Promise((r) => setTimeout(r, 20));
        active--;
        if (runId === 'r2') throw new Error('boom');
      },
    });
    for (let i = 0; i < 6; i++) await queue.enqueue(`r${i}`);
    await queue.close();
    expect(peak).toBe(2);
    expect(started).toEqual(['r0', 'r1']);
    expect(errors).toEqual([]);
  });

  it('drains every run when left open', async () => {
    const done: string[] = [];
    const queue = createInProcessQueue({
      concurrency: 3,
      onError: () => undefined,
      execute: async (runId) => {
        await new Promise((r) => setTimeout(r, 5));
        done.push(runId);
      },
    });
    for (let i = 0; i < 9; i++) await queue.enqueue(`r${i}`);
    await new Promise((r) => setTimeout(r, 100));
    expect(done.sort()).toEqual(Array.from({ length: 9 }, (_, i) => `r${i}`).sort());
    await queue.close();
  });
});

describe('cancel bus (memory)', () => {
  it('tells the watcher of that run only', async () => {
    const bus = createMemoryCancelBus();
    const heard: string[] = [];
    const stopA = bus.watch('a', () => heard.push('a'));
    bus.watch('b', () => heard.push('b'));
    await bus.cancel('a');
    stopA();
    await bus.cancel('a');
    expect(heard).toEqual(['a']);
    await bus.close();
  });
});
