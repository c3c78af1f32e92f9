import { EventEmitter } from 'node:events';
import { type Broadcast, createMemoryBroadcast } from '../bus/broadcast';

/** "Stop run X", heard by whichever runner holds it: in this process, or any worker over Redis. */
export interface CancelBus {
  cancel(runId: string): Promise<void>;
  /** Calls `onCancel` when run `runId` is cancelled; answers the unsubscribe. */
  watch(runId: string, onCancel: () => void): () => void;
  close(): Promise<void>;
}

/** Run cancels carried by a broadcast (this process only, or every process over Redis). */
export function createCancelBus(broadcast: Broadcast = createMemoryBroadcast()): CancelBus {
  const watchers = new EventEmitter().setMaxListeners(0);
  const stop = broadcast.listen((runId) => watchers.emit(runId));
  return {
    async cancel(runId) {
      await broadcast.publish(runId);
    },
    watch(runId, onCancel) {
      watchers.once(runId, onCancel);
      return () => watchers.off(runId, onCancel);
    },
    async close() {
      stop();
      watchers.removeAllListeners();
      await broadcast.close();
    },
  };
}

/** Cancels within this process (tests, the embedded default). */
export const createMemoryCancelBus = (): CancelBus => createCancelBus();
