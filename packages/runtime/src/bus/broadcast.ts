import { EventEmitter } from 'node:events';
import { Redis } from 'ioredis';
import { quitSoon } from '../events/redis-event-log';

/**
 * Messages every process hears: in this process only (the embedded default), or in every API and
 * worker over Redis pub/sub. The one room for "tell the others" (run cancels, cache invalidations).
 */
export interface Broadcast {
  publish(message: string): Promise<void>;
  /** Calls `listener` with every message published, here or elsewhere; answers the stop. */
  listen(listener: (message: string) => void): () => void;
  /**
   * Calls `listener` when messages may have been missed (the connection to Redis came back): what
   * was kept on their strength must be dropped. Never called in the memory version.
   */
  onGap(listener: () => void): () => void;
  /** Settles once this process hears messages (over Redis: subscribed). */
  ready(): Promise<void>;
  close(): Promise<void>;
}

/** The listeners of this process, for both versions. */
function localListeners() {
  const emitter = new EventEmitter().setMaxListeners(0);
  const on = (event: 'message' | 'gap', listener: (message: string) => void) => {
    emitter.on(event, listener);
    return () => void emitter.off(event, listener);
  };
  return {
    message: (message: string) => emitter.emit('message', message),
    gap: () => emitter.emit('gap'),
    listen: (listener: (message: string) => void) => on('message', listener),
    onGap: (listener: () => void) => on('gap', listener),
    clear: () => emitter.removeAllListeners(),
  };
}

export function createMemoryBroadcast(): Broadcast {
  const local = localListeners();
  return {
    async publish(message) {
      local.message(message);
    },
    listen: local.listen,
    onGap: local.onGap,
    ready: async () => undefined,
    async close() {
      local.clear();
    },
  };
}

/** Over Redis channel `${prefix}:${name}`: a publisher hears its own message back through Redis. */
export function createRedisBroadcast(url: string, prefix: string, name: string): Broadcast {
  const channel = `${prefix}:${name}`;
  const local = localListeners();
  const publisher = new Redis(url, { maxRetriesPerRequest: 3 });
  const subscriber = new Redis(url, { maxRetriesPerRequest: null });
  publisher.on('error', () => undefined);
  subscriber.on('error', () => undefined);
  const subscribed = subscriber.subscribe(channel).then(
    () => undefined,
    () => undefined,
  );
  subscriber.on('message', (_channel: string, message: string) => local.message(message));
  // ioredis re-subscribes after a reconnect; what was published meanwhile is lost.
  let connectedOnce = false;
  subscriber.on('ready', () => {
    if (connectedOnce) local.gap();
    connectedOnce = true;
  });
  subscriber.on('close', () => {
    if (connectedOnce) local.gap();
  });
  return {
    async publish(message) {
      await publisher.publish(channel, message);
    },
    listen: local.listen,
    onGap: local.onGap,
    ready: () => subscribed,
    async close() {
      local.clear();
      await Promise.allSettled([quitSoon(publisher), quitSoon(subscriber)]);
    },
  };
}
