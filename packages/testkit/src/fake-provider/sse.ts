import type { Exchange } from './types';

/** One server-sent event; `data` strings are sent verbatim (OpenAI's `[DONE]`), anything else as JSON. */
export interface SseEvent {
  event?: string;
  data: unknown;
}

export function sseFrame({ event, data }: SseEvent): string {
  const payload = typeof data === 'string' ? data : JSON.stringify(data);
  return `${event ? `event: ${event}\n` : ''}data: ${payload}\n\n`;
}

function pause(ex: Exchange, ms: number): Promise<void> {
  if (ms <= 0) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    void ex.disconnected.then(() => {
      clearTimeout(timer);
      resolve();
    });
  });
}

/**
 * Writes the events one at a time with the token delay between them, so clients see a truly
 * incremental stream. Stops quietly when the client leaves; with `stallAfterFirst` it sends one
 * event and then holds the connection open until the client gives up.
 */
export async function writeSse(ex: Exchange, events: SseEvent[], stallAfterFirst: boolean): Promise<void> {
  ex.res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' });
  for (const [index, event] of events.entries()) {
    // Read the delay each time so setTokenDelay() also affects a stream already under way.
    if (index > 0) {
      await pause(
        ex,
        index === 1 ? (ex.state.firstTokenDelayMs ?? ex.state.tokenDelayMs) : ex.state.tokenDelayMs,
      );
    }
    if (ex.isClosed()) return;
    ex.res.write(sseFrame(event));
    if (stallAfterFirst) {
      await ex.disconnected;
      return;
    }
  }
  ex.res.end();
}
