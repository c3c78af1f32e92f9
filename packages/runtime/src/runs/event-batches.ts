import type { FlowStreamEvent } from '@atelier/schemas';

/**
 * How long after a batch of a run's events the next waits to gather more (see the API's SSE COALESCE_MS):
 * 30 ms, 33 updates a second, smoother than the eye follows text; at 15 ms a stream's writes were 8% of
 * the API's CPU per chat answer in bench:chat (each socket write to a local client also runs its receive).
 */
export const EVENT_COALESCE_MS = 30;

/**
 * A run's events on their way to its log, in order, a tick's worth at a time (and those that come while
 * a batch is on its way, after it). Once text streams (the last batch held a token), what comes within
 * EVENT_COALESCE_MS of a batch waits to leave with the next: a model's tokens (one every few ms) then
 * cost one append to the log (a round trip to Redis) per EVENT_COALESCE_MS instead of one each, and its
 * first token is never held. `end` sends what is left at once and answers when all is appended.
 */
export function createEventBatches(append: (events: FlowStreamEvent[]) => Promise<void>) {
  let queue: FlowStreamEvent[] = [];
  let busy = false;
  let sending: Promise<void> = Promise.resolve();
  let lastSent = -Infinity;
  /** The last batch held text: tokens are flowing. */
  let streaming = false;
  let ending = false;
  let hurry: (() => void) | null = null;

  const pause = (ms: number) =>
    new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        hurry = null;
        resolve();
      };
      const timer = setTimeout(done, ms);
      hurry = done;
    });

  function flush() {
    if (busy || queue.length === 0) return;
    busy = true;
    sending = (async () => {
      while (queue.length > 0) {
        const wait = EVENT_COALESCE_MS - (performance.now() - lastSent);
        if (streaming && wait > 0 && !ending) await pause(wait);
        const batch = queue;
        queue = [];
        lastSent = performance.now();
        streaming = batch.some((event) => event.type === 'text');
        await append(batch);
      }
      busy = false;
    })();
  }

  return {
    emit(event: FlowStreamEvent) {
      if (queue.length === 0 && !busy) queueMicrotask(flush);
      queue.push(event);
    },
    /** The run is ending: what is left leaves now; resolves once all is appended. */
    end(): Promise<void> {
      ending = true;
      hurry?.();
      flush();
      return sending;
    },
  };
}
