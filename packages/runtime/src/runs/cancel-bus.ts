import { EventEmitter } from 'node:events';
import { Redis } from 'ioredis';

/** "Stop run X", heard by whichever runner holds it: in this process, or any worker over Redis. */
export interface CancelBus {
  cancel(runId: string): Promise<void>;
  /** Calls `onCancel` when run `runId` is cancelled; answers the unsubscribe. */
  watch(runId: string, onCancel: () => void): () => void;
  close(): Promise<void>;
}

export function createMemoryCancelBus(): CancelBus {
  const emitter = new EventEmitter().setMaxListeners(0);
  return {
    async cancel(runId) {
      emitter.emit(runId);
    },
    watch(runId, onCancel) {
      emitter.once(runId, onCancel);
      return () => emitter.off(runId, onCancel);
    },
    async close() {
      emitter.removeAllListeners();
    },
  };
}

export function createRedisCancelBus(url: string, prefix = 'atelier'): CancelBus {
  const CHANNEL = `${prefix}:run-cancel`;
  const local = createMemoryCancelBus();
  const publisher = new Redis(url, { maxRetriesPerRequest: 3 });
  const subscriber = new Redis(url, { maxRetriesPerRequest: null });
  publisher.on('error', () => undefined);
  subscriber.on('error', () => undefined);
  const ready = subscriber.subscribe(CHANNEL);
  ready.catch(() => undefined);
  subscriber.on('message', (_channel: string, runId: string) => void local.cancel(runId));
  return {
    async cancel(runId) {
      await publisher.publish(CHANNEL, runId);
    },
    watch: local.watch,
    async close() {
      await local.close();
      await Promise.allSettled([publisher.quit(), subscriber.quit()]);
    },
  };
}
