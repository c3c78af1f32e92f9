import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { cancelledError, timeoutError } from './errors';

/**
 * Reads a server-sent-events body as messages. A silence longer than `idleMs` between two chunks
 * ends the stream with a timeout: a provider that stalls mid-answer never hangs a run.
 */
export async function* readSse(
  res: Response,
  idleMs: number,
  signal?: AbortSignal,
): AsyncGenerator<EventSourceMessage> {
  if (!res.body) return;
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  const queue: EventSourceMessage[] = [];
  const parser = createParser({ onEvent: (event) => queue.push(event) });
  try {
    for (;;) {
      let timer: NodeJS.Timeout | undefined;
      const idle = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(timeoutError(idleMs)), idleMs);
      });
      const aborted = new Promise<never>((_, reject) => {
        if (signal?.aborted) reject(cancelledError());
        signal?.addEventListener('abort', () => reject(cancelledError()), { once: true });
      });
      let chunk: Awaited<ReturnType<typeof reader.read>>;
      try {
        chunk = await Promise.race([reader.read(), idle, aborted]);
      } finally {
        clearTimeout(timer);
      }
      if (chunk.done) break;
      parser.feed(decoder.decode(chunk.value, { stream: true }));
      while (queue.length > 0) yield queue.shift()!;
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
}
