import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { Redis } from 'ioredis';
import { beatEvery } from '../runs/run-lock';

/** A process that executes runs, as its heartbeat describes it. */
export interface RunnerInfo {
  id: string;
  kind: 'api' | 'worker';
  host: string;
  pid: number;
  concurrency: number;
  /** Runs it was executing at its last heartbeat. */
  active: number;
  since: string;
}

/** Which processes execute runs now: the health check's "live workers". */
export interface Presence {
  live(): Promise<RunnerInfo[]>;
  /** Whether the store of heartbeats (Redis) answers; always in embedded mode. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

export interface RunnerSelf {
  kind: RunnerInfo['kind'];
  concurrency: number;
  active(): number;
}

function describe(self: RunnerSelf, id: string, since: string): RunnerInfo {
  return {
    id,
    kind: self.kind,
    host: hostname(),
    pid: process.pid,
    concurrency: self.concurrency,
    active: self.active(),
    since,
  };
}

/** Embedded mode: the one process is the only runner there is (when it executes runs). */
export function createLocalPresence(self: RunnerSelf | null): Presence {
  const id = `${hostname()}:${process.pid}`;
  const since = new Date().toISOString();
  return {
    live: async () => (self ? [describe(self, id, since)] : []),
    ping: async () => undefined,
    close: async () => undefined,
  };
}

/**
 * With Redis: each runner keeps a key `<prefix>:runner:<id>` alive (expiring after the run lock, so a
 * killed runner drops out by itself) and its id in the set `<prefix>:runners`; readers drop the ids
 * whose key expired. A process that does not execute runs only reads.
 */
export function createRedisPresence(
  url: string,
  prefix: string,
  self: RunnerSelf | null,
  lockMs: number,
): Presence {
  const client = new Redis(url, {
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    commandTimeout: 2_000,
  });
  client.on('error', () => undefined);
  const set = `${prefix}:runners`;
  const key = (id: string) => `${prefix}:runner:${id}`;
  const id = `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
  const since = new Date().toISOString();
  const beat = async () => {
    if (!self) return;
    await client
      .multi()
      .set(key(id), JSON.stringify(describe(self, id, since)), 'PX', lockMs)
      .sadd(set, id)
      .exec()
      .catch(() => undefined);
  };
  const ready = client.connect().then(beat, () => undefined);
  const timer = self ? setInterval(() => void beat(), beatEvery(lockMs)) : null;
  timer?.unref();

  return {
    async live() {
      const ids = await client.smembers(set);
      if (ids.length === 0) return [];
      const values = await client.mget(ids.map(key));
      const gone = ids.filter((_, i) => values[i] === null);
      if (gone.length > 0) await client.srem(set, ...gone);
      return values.flatMap((v) => (v ? [JSON.parse(v) as RunnerInfo] : []));
    },
    async ping() {
      await client.ping();
    },
    async close() {
      if (timer) clearInterval(timer);
      await ready;
      if (self)
        await client
          .multi()
          .del(key(id))
          .srem(set, id)
          .exec()
          .catch(() => undefined);
      await client.quit().catch(() => client.disconnect());
    },
  };
}
