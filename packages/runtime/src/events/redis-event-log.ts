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

/** Stream ids (`ms-seq`) in order: negative when `a` comes before `b`. */
export function compareStreamIds(a: string, b: string): number {
  const [am, as] = a.split('-');
  const [bm, bs] = b.split('-');
  return Number(am) - Number(bm) || Number(as) - Number(bs);
}

/**
 * One batch of appends in one script: the id before it (`''` for an empty stream), then the events,
 * the stream's lifetime and the readers' nudge (carrying the writer's id). Knowing exactly what came
 * before a batch lets this process's readers take it from memory (see `read`). The nudge is published
 * only when another process listens (subscribers beyond the writer's own, which ARGV[5] says it has):
 * a chat streamed by the process that runs it then costs no message back to itself per batch. A
 * reader that subscribes after this script reads the stream first, so it misses nothing.
 */
const APPEND_SCRIPT = `
local last = redis.call('XREVRANGE', KEYS[1], '+', '-', 'COUNT', 1)
local before = ''
if last[1] then before = last[1][1] end
local ids = {}
for i = 6, #ARGV do
  ids[#ids + 1] = redis.call('XADD', KEYS[1], 'MAXLEN', '~', ARGV[2], '*', 'e', ARGV[i])
end
redis.call('EXPIRE', KEYS[1], ARGV[1])
local listening = redis.call('PUBSUB', 'NUMSUB', ARGV[3])[2]
if listening > tonumber(ARGV[5]) then redis.call('PUBLISH', ARGV[3], ARGV[4]) end
return {before, ids}`;

interface AppendingRedis extends Redis {
  appendEvents(
    stream: string,
    ttlSeconds: number,
    maxLength: number,
    channel: string,
    writer: string,
    /** Whether this process listens on `channel` (1) or not (0). */
    ownListener: '0' | '1',
    ...events: string[]
  ): Promise<[string, string[]]>;
}

/** Events this process appended, for its own readers of that run: `before` is the id they follow. */
interface Batch {
  before: string;
  entries: LoggedEvent[];
}

/**
 * Run events in a Redis Stream per run (ids are the stream's, e.g. `1700000000000-3`), so a runner in
 * one process and readers in others share them. An append also publishes a nudge; readers sleep on one
 * shared subscriber connection and read with XRANGE from their last id: no blocking connection per
 * client, no gap, no duplicate.
 *
 * `onInvalid` hears of stream entries that are not run events; readers skip them (a reader that
 * stopped on one would lose the rest of the run).
 *
 * A reader in the process that appends (the API that runs a chat also streams it) takes the events
 * from memory as they are appended, without reading them back from Redis: an append answers the id
 * that came before it, and a reader takes a batch only when that id is the last one it has (else it
 * reads the stream from its last id, which holds the batch too). Nudges carry the writer's id, so a
 * process's readers skip their own process's nudges and read only for other processes' appends.
 */
export function createRedisEventLog(
  url: string,
  prefix = 'atelier',
  onInvalid: (error: Error) => void = () => undefined,
): EventLog {
  const key = (runId: string) => `${prefix}:run:${runId}:events`;
  const channel = (runId: string) => `${prefix}:run:${runId}:notify`;
  const self = crypto.randomUUID();
  // While Redis is away, appends wait for its return (nothing a run says is lost); readers wait too.
  // Auto-pipelining: the commands of every run's appends and reads in one tick leave in one write
  // (one system call for all of them instead of one per run and per reader).
  const writer = new Redis(url, { maxRetriesPerRequest: null, enableAutoPipelining: true }) as AppendingRedis;
  writer.defineCommand('appendEvents', { numberOfKeys: 1, lua: APPEND_SCRIPT });
  const subscriber = new Redis(url, { maxRetriesPerRequest: null });
  const listeners = new Map<string, Set<(from: string) => void>>();
  /** Channels Redis counts this process's subscriber on (its subscribe answered). */
  const subscribed = new Set<string>();
  /** This process's readers by run: each takes the batches appended here. */
  const locals = new Map<string, Set<(batch: Batch) => void>>();
  subscriber.on('message', (ch: string, from: string) => {
    for (const wake of listeners.get(ch) ?? []) wake(from);
  });
  writer.on('error', () => undefined);
  subscriber.on('error', () => undefined);

  async function listen(runId: string, wake: (from: string) => void) {
    const ch = channel(runId);
    let set = listeners.get(ch);
    if (!set) {
      set = new Set();
      listeners.set(ch, set);
      await subscriber.subscribe(ch);
      if (listeners.get(ch) === set) subscribed.add(ch);
    }
    set.add(wake);
  }
  async function unlisten(runId: string, wake: (from: string) => void) {
    const ch = channel(runId);
    const set = listeners.get(ch);
    if (!set) return;
    set.delete(wake);
    if (set.size === 0) {
      listeners.delete(ch);
      subscribed.delete(ch);
      await subscriber.unsubscribe(ch).catch(() => undefined);
    }
  }

  /** Appends events in order (one script), then hands them to this process's readers of the run. */
  async function write(runId: string, events: readonly FlowStreamEvent[]): Promise<string[]> {
    const terminal = events.some(isTerminal);
    const ttl = terminal ? Math.ceil(EVENT_RETENTION_MS / 1000) : LIVE_TTL_SECONDS;
    const [before, ids] = await writer.appendEvents(
      key(runId),
      ttl,
      MAX_EVENTS,
      channel(runId),
      self,
      subscribed.has(channel(runId)) ? '1' : '0',
      ...events.map((event) => JSON.stringify(event)),
    );
    const readers = locals.get(runId);
    if (readers) {
      const batch = { before, entries: events.map((event, i) => ({ id: ids[i]!, event })) };
      for (const take of readers) take(batch);
    }
    return ids;
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
      // What to do next: read the stream from `last` (at first, after another process's append, when
      // a batch does not follow on, and on the safety poll), or take the batches appended here.
      let mustRead = true;
      const inbox: Batch[] = [];
      const wake = { fn: () => undefined as void };
      const onNudge = (from: string) => {
        if (from === self) return;
        mustRead = true;
        wake.fn();
      };
      const onBatch = (batch: Batch) => {
        inbox.push(batch);
        wake.fn();
      };
      let mine = locals.get(runId);
      if (!mine) locals.set(runId, (mine = new Set()));
      mine.add(onBatch);
      await listen(runId, onNudge);
      try {
        while (!signal.aborted) {
          if (mustRead) {
            mustRead = false;
            // Whatever was handed over so far is in the stream already: the read below has it.
            inbox.length = 0;
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
            if (entries.length === 500) mustRead = true;
            if (mustRead) continue;
            if (!follow) return;
          }
          while (inbox.length > 0 && !mustRead) {
            const batch = inbox.shift()!;
            const end = batch.entries.at(-1)!.id;
            // Already read from the stream.
            if (last && compareStreamIds(end, last) <= 0) continue;
            // Something came between (another process's append): the stream has it all, in order.
            if (batch.before !== (last ?? '')) {
              mustRead = true;
              break;
            }
            for (const entry of batch.entries) {
              last = entry.id;
              yield entry;
              if (isTerminal(entry.event)) return;
            }
          }
          if (mustRead || inbox.length > 0) continue;
          await new Promise<void>((resolve) => {
            const timer = setTimeout(() => {
              mustRead = true;
              done();
            }, SAFETY_POLL_MS);
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
        mine.delete(onBatch);
        if (mine.size === 0 && locals.get(runId) === mine) locals.delete(runId);
        await unlisten(runId, onNudge);
      }
    },

    reachable: () => writer.status === 'ready',

    async close() {
      for (const set of listeners.values()) for (const wake of set) wake('');
      listeners.clear();
      await Promise.allSettled([quitSoon(writer), quitSoon(subscriber)]);
    },
  };
}
