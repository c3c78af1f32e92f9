import { LRUCache } from 'lru-cache';
import type { Broadcast } from '../bus/broadcast';

/**
 * Rows every request re-reads (the caller's user row, a model with its provider), kept in memory and
 * dropped on change in every process: the writer calls `invalidate`, which drops the entry here at
 * once and tells the other processes through the broadcast (Redis pub/sub when there is Redis). A
 * lost message (Redis reconnecting) empties every cache; the TTL bounds what a missed message could
 * leave behind (a change made by a process that cannot reach Redis).
 */
export interface SharedCache<T extends object> {
  /** The cached value of `key`, else `load()`'s (kept when not null and nothing changed meanwhile). */
  get(key: string, load: () => Promise<T | null>): Promise<T | null>;
  /** Drops `key` here and in every process; `null` drops every entry of this cache. */
  invalidate(key: string | null): Promise<void>;
}

export interface SharedCaches {
  cache<T extends object>(name: string, options?: { ttlMs?: number; max?: number }): SharedCache<T>;
  /** Stops listening and closes the broadcast (the caches own it). */
  close(): Promise<void>;
}

const ALL = '*';

export function createSharedCaches(broadcast: Broadcast): SharedCaches {
  const caches = new Map<string, { drop: (key: string) => void; dropAll: () => void }>();
  const stopListening = broadcast.listen((message) => {
    const cut = message.indexOf(':');
    const cache = caches.get(message.slice(0, cut));
    const key = message.slice(cut + 1);
    if (!cache) return;
    if (key === ALL) cache.dropAll();
    else cache.drop(key);
  });
  const stopGaps = broadcast.onGap(() => {
    for (const cache of caches.values()) cache.dropAll();
  });

  return {
    cache<T extends object>(name: string, options: { ttlMs?: number; max?: number } = {}): SharedCache<T> {
      if (name.includes(':') || caches.has(name)) throw new Error(`Cache name ${name} is taken or invalid.`);
      const entries = new LRUCache<string, T>({ max: options.max ?? 10_000, ttl: options.ttlMs ?? 10_000 });
      // A load that began before a change must not store what it read: each change moves the epoch.
      let epoch = 0;
      const loading = new Map<string, { epoch: number; value: Promise<T | null> }>();
      const drop = (key: string) => {
        epoch += 1;
        entries.delete(key);
      };
      const dropAll = () => {
        epoch += 1;
        entries.clear();
      };
      caches.set(name, { drop, dropAll });
      return {
        async get(key, load) {
          const hit = entries.get(key);
          if (hit !== undefined) return hit;
          // Callers that miss together share one load (a burst of one user's requests: one read), unless
          // a change came since it began.
          const flying = loading.get(key);
          if (flying && flying.epoch === epoch) return flying.value;
          const started = epoch;
          const entry = { epoch: started, value: load() };
          loading.set(key, entry);
          try {
            const value = await entry.value;
            if (value !== null && started === epoch) entries.set(key, value);
            return value;
          } finally {
            if (loading.get(key) === entry) loading.delete(key);
          }
        },
        async invalidate(key) {
          if (key === null) dropAll();
          else drop(key);
          // The other processes are told within a second or left to the TTL (Redis out of reach).
          const told = broadcast.publish(`${name}:${key ?? ALL}`).catch(() => undefined);
          let timer: NodeJS.Timeout | undefined;
          await Promise.race([told, new Promise((resolve) => (timer = setTimeout(resolve, 1_000)))]);
          clearTimeout(timer);
        },
      };
    },
    async close() {
      stopListening();
      stopGaps();
      for (const cache of caches.values()) cache.dropAll();
      caches.clear();
      await broadcast.close();
    },
  };
}
