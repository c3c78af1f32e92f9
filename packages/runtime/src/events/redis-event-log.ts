import { flowStreamEvent, type FlowStreamEvent } from '@atelier/schemas';
import { Redis } from 'ioredis';
import { EVENT_RETENTION_MS, isTerminal, type EventLog, type LoggedEvent } from './event-log';

/** Closes a connection politely when Redis answers, at once when it is away. */
export async function quitSoon(client: Redis, waitMs = 1_000): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    client.quit().catch(() => undefined),
    new Promise((resolve) => {
      timer = setTimeout(resolve, waitMs);
    }),
  ]);
  clearTimeout(timer);
  client.disconnect();
}

/** A reader looks again at least this often, so a lost notification only delays, never hangs. */
const SAFETY_POLL_MS = 2_000;
const LIVE_TTL_SECONDS = 7 * 24 * 3600;
const MAX_EVENTS = 100_000;

/**
 * Run events in a Redis Stream per run (ids are the stream's, e.g. `1700000000000-3`), so a runner in
 * one process and readers in others share them. An append also publishes a nudge; readers sleep on one
 * shared subscriber connection and read with XRANGE from their last id: no blocking connection per
 * client, no gap, no duplicate.
 */
/** A stream entry's event, parsed: what Redis hands back is not trusted to be one of ours. */
function parseEntry(raw: string | undefined): FlowStreamEvent | Error {
  let json: unknown;
  try {
    json = JSON.parse(raw ?? '');
  } catch {
    return new Error('it is not JSON');
  }
  const parsed = flowStreamEvent.safeParse(json);
  return parsed.success ? parsed.data : new Error(`it is not a run event: ${parsed.error.message}`);
}

/**
 * `onInvalid` hears of stream entries that are not run events; readers skip them (a reader that
 * stopped on one would lose the rest of the run).
 */
export function createRedisEventLog(
  url: string,
  prefix = 'atelier',
  onInvalid: (error: Error) => void = () => undefined,
): EventLog {
  const key = (runId: string) => `${prefix}:run:${runId}:events`;
  const channel = (runId: string) => `${prefix}:run:${runId}:notify`;
  // While Redis is away, appends wait for its return (nothing a run says is lost); readers wait too.
  // Auto-pipelining: the commands of every run's appends and reads in one tick leave in one write
  // (one system call for all of them instead of one per run and per reader).
  const writer = new Redis(url, { maxRetriesPerRequest: null, enableAutoPipelining: true });
  const subscriber = new Redis(url, { maxRetriesPerRequest: null });
  const listeners = new Map<string, Set<() => void>>();
  subscriber.on('message', (ch: string) => {
    for (const wake of listeners.get(ch) ?? []) wake();
  });
  writer.on('error', () => undefined);
  subscriber.on('error', () => undefined);

  async function listen(runId: string, wake: () => void) {
    const ch = channel(runId);
    let set = listeners.get(ch);
    if (!set) {
      set = new Set();
      listeners.set(ch, set);
      await subscriber.subscribe(ch);
    }
    set.add(wake);
  }
  async function unlisten(runId: string, wake: () => void) {
    const ch = channel(runId);
    const set = listeners.get(ch);
    if (!set) return;
    set.delete(wake);
    if (set.size === 0) {
      listeners.delete(ch);
      await subscriber.unsubscribe(ch).catch(() => undefined);
    }
  }

  /**
   * Appends events in order, then sets the stream's lifetime and nudges readers: commands in order on
   * one connection (no MULTI: the order is the guarantee, and they share the tick's pipeline).
   */
  async function write(runId: string, events: readonly FlowStreamEvent[]): Promise<string[]> {
    const terminal = events.some(isTerminal);
    const stream = key(runId);
    const added = events.map((event) =>
      writer.xadd(stream, 'MAXLEN', '~', MAX_EVENTS, '*', 'e', JSON.stringify(event)),
    );
    const ttl = writer.expire(stream, terminal ? Math.ceil(EVENT_RETENTION_MS / 1000) : LIVE_TTL_SECONDS);
    const nudge = writer.publish(channel(runId), '1');
    const [ids] = await Promise.all([Promise.all(added), ttl, nudge]);
    return ids as string[];
  }

  return {
    async appendMany(runId, events) {
      if (events.length === 0) return;
      await write(runId, events);
    },

    async append(runId, event: FlowStreamEvent) {
      return (await write(runId, [event]))[0]!;
    },

    async *read(runId, afterId, signal, options) {
      const follow = options?.follow ?? true;
      let last = afterId && /^\d+-\d+$/.test(afterId) ? afterId : null;
      let nudged = false;
      const wake = { fn: () => undefined as void };
      const onNudge = () => {
        nudged = true;
        wake.fn();
      };
      await listen(runId, onNudge);
      try {
        while (!signal.aborted) {
          nudged = false;
          const entries = (await writer.xrange(key(runId), last ? `(${last}` : '-', '+', 'COUNT', 500)) as [
            string,
            string[],
          ][];
          for (const [id, fields] of entries) {
            last = id;
            const event = parseEntry(fields[1]);
            if (event instanceof Error) {
              onInvalid(new Error(`Run ${runId}: event ${id} skipped, ${event.message}`));
              continue;
            }
            yield { id, event } satisfies LoggedEvent;
            if (isTerminal(event)) return;
          }
          if (entries.length === 500 || nudged) continue;
          if (!follow) return;
          await new Promise<void>((resolve) => {
            const timer = setTimeout(done, SAFETY_POLL_MS);
            function done() {
              clearTimeout(timer);
              signal.removeEventListener('abort', done);
              wake.fn = () => undefined;
              resolve();
            }
            wake.fn = done;
            signal.addEventListener('abort', done, { once: true });
          });
        }
      } finally {
        await unlisten(runId, onNudge);
      }
    },

    async close() {
      for (const set of listeners.values()) for (const wake of set) wake();
      listeners.clear();
      await Promise.allSettled([quitSoon(writer), quitSoon(subscriber)]);
    },
  };
}
