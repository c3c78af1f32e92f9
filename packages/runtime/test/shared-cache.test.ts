import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  type Broadcast,
  createMemoryBroadcast,
  createRedisBroadcast,
  createSharedCaches,
  type SharedCaches,
} from '../src';

const REDIS_URL = process.env.REDIS_URL;
const opened: SharedCaches[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((c) => c.close()));
});

/** Two processes' caches: over one memory broadcast, or each on its own Redis connection. */
async function twoProcesses(kind: 'memory' | 'redis'): Promise<[SharedCaches, SharedCaches]> {
  const prefix = `test-${randomUUID()}`;
  const shared = createMemoryBroadcast();
  const make = (): Broadcast =>
    kind === 'redis' ? createRedisBroadcast(REDIS_URL!, prefix, 'cache-invalidate') : shared;
  const broadcasts = [make(), make()];
  await Promise.all(broadcasts.map((b) => b.ready()));
  const pair: [SharedCaches, SharedCaches] = [
    createSharedCaches(broadcasts[0]!),
    createSharedCaches(broadcasts[1]!),
  ];
  opened.push(...(kind === 'redis' ? pair : [pair[0]]));
  return pair;
}

describe.each(REDIS_URL ? (['memory', 'redis'] as const) : (['memory'] as const))(
  'shared caches (%s)',
  (kind) => {
    it('keep a loaded row, and a change made in one process drops it in both', async () => {
      const [here, there] = await twoProcesses(kind);
      const rows = { u1: { role: 'creator' } };
      const load = vi.fn(async () => ({ ...rows.u1 }));
      const cacheHere = here.cache<{ role: string }>('users');
      const cacheThere = there.cache<{ role: string }>('users');
      expect(await cacheHere.get('u1', load)).toEqual({ role: 'creator' });
      expect(await cacheThere.get('u1', load)).toEqual({ role: 'creator' });
      expect(await cacheHere.get('u1', load)).toEqual({ role: 'creator' });
      expect(load).toHaveBeenCalledTimes(2);

      rows.u1.role = 'user';
      await cacheHere.invalidate('u1');
      // Dropped here at once; over Redis the other process hears it within moments.
      expect(await cacheHere.get('u1', load)).toEqual({ role: 'user' });
      await vi.waitFor(async () => expect(await cacheThere.get('u1', load)).toEqual({ role: 'user' }));
    });

    it('do not keep what a load read before a change, nor a missing row', async () => {
      const [here] = await twoProcesses(kind);
      const cache = here.cache<{ v: number }>('models');
      let release!: () => void;
      const slow = cache.get('m', () => new Promise((resolve) => (release = () => resolve({ v: 1 }))));
      await cache.invalidate('m');
      release();
      expect(await slow).toEqual({ v: 1 });
      expect(await cache.get('m', async () => ({ v: 2 }))).toEqual({ v: 2 });
      expect(await cache.get('gone', async () => null)).toBeNull();
      expect(await cache.get('gone', async () => ({ v: 3 }))).toEqual({ v: 3 });
    });

    it('share one load among callers that miss together, but not across a change', async () => {
      const [here] = await twoProcesses(kind);
      const cache = here.cache<{ v: number }>('users');
      const releases: ((v: { v: number }) => void)[] = [];
      const load = vi.fn(() => new Promise<{ v: number }>((resolve) => releases.push(resolve)));
      const together = [cache.get('u', load), cache.get('u', load), cache.get('u', load)];
      expect(load).toHaveBeenCalledTimes(1);
      releases[0]!({ v: 1 });
      expect(await Promise.all(together)).toEqual([{ v: 1 }, { v: 1 }, { v: 1 }]);

      await cache.invalidate('u');
      const before = cache.get('u', load); // a load begun before the next change
      await cache.invalidate('u');
      const after = cache.get('u', load); // not handed what that load reads
      expect(load).toHaveBeenCalledTimes(3);
      releases[1]!({ v: 2 });
      releases[2]!({ v: 3 });
      expect([await before, await after]).toEqual([{ v: 2 }, { v: 3 }]);
    });

    it('drop every entry of one cache on invalidate(null), and leave the other caches alone', async () => {
      const [here, there] = await twoProcesses(kind);
      const models = there.cache<{ v: number }>('models');
      const users = there.cache<{ v: number }>('users');
      await models.get('a', async () => ({ v: 1 }));
      await users.get('a', async () => ({ v: 1 }));
      await here.cache<{ v: number }>('models').invalidate(null);
      await vi.waitFor(async () => expect(await models.get('a', async () => ({ v: 2 }))).toEqual({ v: 2 }));
      expect(await users.get('a', async () => ({ v: 2 }))).toEqual({ v: 1 });
    });
  },
);

it('a lost connection to Redis (a gap) empties the caches: messages may have been missed', async () => {
  const broadcast = createMemoryBroadcast();
  let gap!: () => void;
  const caches = createSharedCaches({
    ...broadcast,
    onGap: (listener) => ((gap = listener), () => undefined),
  });
  opened.push(caches);
  const cache = caches.cache<{ v: number }>('users');
  await cache.get('a', async () => ({ v: 1 }));
  gap();
  expect(await cache.get('a', async () => ({ v: 2 }))).toEqual({ v: 2 });
});

it('an entry lives at most its TTL', async () => {
  const caches = createSharedCaches(createMemoryBroadcast());
  opened.push(caches);
  const cache = caches.cache<{ v: number }>('short', { ttlMs: 30 });
  await cache.get('a', async () => ({ v: 1 }));
  await new Promise((resolve) => setTimeout(resolve, 60));
  expect(await cache.get('a', async () => ({ v: 2 }))).toEqual({ v: 2 });
});
