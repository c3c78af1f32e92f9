import { HEARTBEAT_MS, STREAM_DONE } from '@atelier/schemas';
import type { FastifyReply } from 'fastify';

export interface SseStream {
  /** Writes one event as a `data:` line and a blank line. */
  send(data: unknown): void;
  /** Aborted when the client leaves before the end. */
  signal: AbortSignal;
  /** Writes `data: [DONE]` and closes. */
  end(): void;
}

/**
 * Takes the reply over for a server-sent-event stream: no buffering by proxies (X-Accel-Buffering),
 * no compression, a heartbeat every 15 seconds, and an abort signal that fires when the client leaves.
 */
export function openSse(reply: FastifyReply, heartbeatMs = HEARTBEAT_MS): SseStream {
  reply.hijack();
  const raw = reply.raw;
  const controller = new AbortController();
  let ended = false;
  raw.writeHead(200, {
    // Headers set by hooks (CORS) live on the reply, which a hijacked stream bypasses: copy them.
    ...(reply.getHeaders() as Record<string, string>),
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache, no-transform',
    connection: 'keep-alive',
    'x-accel-buffering': 'no',
  });
  raw.flushHeaders();
  // Events written in the same tick leave in one packet (cork until the next tick).
  let corked = false;
  const write = (line: string) => {
    if (ended || raw.destroyed) return;
    if (!corked) {
      corked = true;
      raw.cork();
      process.nextTick(() => {
        corked = false;
        raw.uncork();
      });
    }
    raw.write(line);
  };
  const heartbeat = setInterval(() => write(`data: {"type":"heartbeat"}\n\n`), heartbeatMs);
  raw.on('close', () => {
    clearInterval(heartbeat);
    if (!ended) controller.abort();
  });
  return {
    signal: controller.signal,
    send: (data) => write(`data: ${JSON.stringify(data)}\n\n`),
    end: () => {
      write(`data: ${STREAM_DONE}\n\n`);
      ended = true;
      clearInterval(heartbeat);
      raw.end();
    },
  };
}
