import { describe, expect, it } from 'vitest';
import { createInProcessQueue, createLocalFirstQueue, createMemoryCancelBus, createRunSlots } from '../src';

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

describe('local-first queue (a runner sharing a queue)', () => {
  function setup(concurrency: number) {
    const shared: string[] = [];
    let sharedClosed = false;
    const releases = new Map<string, () => void>();
    const executed: string[] = [];
    const errors: string[] = [];
    const localCounts: number[] = [];
    let reachable = true;
    const slots = createRunSlots(concurrency);
    const execute = slots.track(async (runId) => {
      executed.push(runId);
      await new Promise<void>((resolve) => releases.set(runId, resolve));
      if (runId === 'boom') throw new Error('boom');
    });
    const queue = createLocalFirstQueue({
      shared: {
        kind: 'bullmq',
        enqueue: async (runId) => {
          shared.push(runId);
        },
        requeue: async () => true,
        close: async () => {
          sharedClosed = true;
        },
      },
      slots,
      execute,
      canStart: () => reachable,
      onError: (_, runId) => errors.push(runId),
      onLocal: (n) => localCounts.push(n),
      holdMs: 30,
    });
    const release = (runId: string) => releases.get(runId)!();
    const setReachable = (r: boolean) => (reachable = r);
    return {
      queue,
      slots,
      shared,
      executed,
      errors,
      localCounts,
      release,
      setReachable,
      closed: () => sharedClosed,
    };
  }

  it('starts runs here while a slot is free and hands the rest to the shared queue', async () => {
    const t = setup(2);
    for (const id of ['a', 'b', 'c', 'd']) await t.queue.enqueue(id);
    expect(t.executed).toEqual(['a', 'b']);
    expect(t.shared).toEqual(['c', 'd']);
    expect(t.slots.running).toBe(2);
    expect(t.localCounts).toEqual([1, 2]);
    // A slot freed, and the hand-offs are a while ago: the next run starts here.
    t.release('a');
    await new Promise((r) => setTimeout(r, 40));
    expect(t.localCounts.at(-1)).toBe(1);
    await t.queue.enqueue('e');
    expect(t.executed).toEqual(['a', 'b', 'e']);
    // The events' store out of reach: the shared queue answers (and refuses), nothing starts here.
    t.setReachable(false);
    await t.queue.enqueue('f');
    expect(t.shared).toEqual(['c', 'd', 'f']);
    expect(t.executed).toEqual(['a', 'b', 'e']);
    t.release('b');
    t.release('e');
    await t.queue.close();
    expect(t.slots.running).toBe(0);
  });

  it('sends new runs after a hand-off to the shared queue for a while, behind the one handed off', async () => {
    const t = setup(1);
    await t.queue.enqueue('a');
    await t.queue.enqueue('b');
    t.release('a');
    await new Promise((r) => setTimeout(r, 0));
    // A slot is free, but 'b' was just handed off: 'c' goes behind it.
    expect(t.slots.free).toBe(true);
    await t.queue.enqueue('c');
    expect(t.shared).toEqual(['b', 'c']);
    // The hold is over: the next run starts here again.
    await new Promise((r) => setTimeout(r, 40));
    await t.queue.enqueue('d');
    expect(t.executed).toEqual(['a', 'd']);
    t.release('d');
    await t.queue.close();
  });

  it('counts the runs the shared queue hands over in the same slots', async () => {
    const t = setup(1);
    // The shared queue's worker executes a run through the same tracked executor: no slot is left.
    const fromWorker = t.slots.track(async () => new Promise<void>((r) => setTimeout(r, 10)))('w');
    await t.queue.enqueue('x');
    expect(t.shared).toEqual(['x']);
    await fromWorker;
    await new Promise((r) => setTimeout(r, 40));
    await t.queue.enqueue('y');
    expect(t.executed).toEqual(['y']);
    t.release('y');
    await t.queue.close();
  });

  it('reports a failing local run with its id, and close waits for local runs then closes the shared queue', async () => {
    const t = setup(2);
    await t.queue.enqueue('boom');
    await t.queue.enqueue('slow');
    let closed = false;
    const closing = t.queue.close().then(() => (closed = true));
    await new Promise((r) => setTimeout(r, 5));
    expect(closed).toBe(false);
    expect(t.closed()).toBe(false);
    t.release('boom');
    t.release('slow');
    await closing;
    expect(t.errors).toEqual(['boom']);
    expect(t.closed()).toBe(true);
    // Once closed, nothing starts here any more.
    await t.queue.enqueue('late');
    expect(t.shared).toEqual(['late']);
    expect(t.executed).toEqual(['boom', 'slow']);
  });
});
