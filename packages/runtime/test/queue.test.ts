import { describe, expect, it } from 'vitest';
import { createInProcessQueue, createMemoryCancelBus } from '../src';

describe('in-process queue', () => {
  it('runs at most `concurrency` runs at once, in order, and survives a failing run', async () => {
    let active = 0;
    let peak = 0;
    const started: string[] = [];
    const ended: string[] = [];
    const errors: [string, string][] = [];
    let allDone: () => void = () => undefined;
    const done = new Promise<void>((resolve) => (allDone = resolve));
    const settle = (runId: string) => {
      ended.push(runId);
      if (ended.length === 6) allDone();
    };
    const queue = createInProcessQueue({
      concurrency: 2,
      onError: (e, runId) => {
        errors.push([runId, (e as Error).message]);
        settle(runId);
      },
      execute: async (runId) => {
        started.push(runId);
        active++;
        peak = Math.max(peak, active);
        await new Promise((r) => setTimeout(r, 20));
        active--;
        if (runId === 'r1') throw new Error('boom');
        settle(runId);
      },
    });
    for (let i = 0; i < 6; i++) await queue.enqueue(`r${i}`);
    await done;
    expect(peak).toBe(2);
    expect(started).toEqual(['r0', 'r1', 'r2', 'r3', 'r4', 'r5']);
    // The failing run was executed, its error reported with its id, and the runs after it still ran.
    expect(errors).toEqual([['r1', 'boom']]);
    expect([...ended].sort()).toEqual(['r0', 'r1', 'r2', 'r3', 'r4', 'r5']);
    await queue.close();
  });

  it('close waits for the active runs and drops the waiting ones', async () => {
    const started: string[] = [];
    const finished: string[] = [];
    const queue = createInProcessQueue({
      concurrency: 2,
      onError: () => undefined,
      execute: async (runId) => {
        started.push(runId);
        await new Promise((r) => setTimeout(r, 20));
        finished.push(runId);
      },
    });
    for (let i = 0; i < 6; i++) await queue.enqueue(`r${i}`);
    await queue.close();
    expect(started).toEqual(['r0', 'r1']);
    expect([...finished].sort()).toEqual(['r0', 'r1']);
    await expect(queue.enqueue('r6')).rejects.toThrow('closed');
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
