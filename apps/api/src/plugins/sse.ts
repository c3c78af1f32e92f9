import { HEARTBEAT_MS, STREAM_DONE } from '@atelier/schemas';
import type { EventLog } from '@atelier/runtime';
import type { FlowStreamEvent } from '@atelier/schemas';
import type { FastifyBaseLogger, FastifyReply } from 'fastify';

export interface SseStream {
  /** Writes one event as a `data:` line (after an `id:` line when given) and a blank line. */
  send(data: unknown, id?: string): void;
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
    send: (data, id) => write(`${id ? `id: ${id}\n` : ''}data: ${JSON.stringify(data)}\n\n`),
    end: () => {
      write(`data: ${STREAM_DONE}\n\n`);
      ended = true;
      clearInterval(heartbeat);
      raw.end();
    },
  };
}

/**
 * Streams a run's event log to the client, each event with its id, until the run ends or the client
 * leaves (the run goes on; the client can re-attach with Last-Event-ID).
 */
export async function relayRunEvents(
  reply: FastifyReply,
  options: {
    events: EventLog;
    heartbeatMs: number;
    runId: string;
    after: string | null;
    log: FastifyBaseLogger;
    /** For a run that has ended: its end, sent if the log (kept an hour) no longer has it. */
    ended?: FlowStreamEvent | null;
  },
): Promise<void> {
  const stream = openSse(reply, options.heartbeatMs);
  try {
    let sawEnd = false;
    const events = options.events.read(options.runId, options.after, stream.signal, {
      follow: !options.ended,
    });
    for await (const { id, event } of events) {
      stream.send(event, id);
      if (event.type === 'execution_completed' || event.type === 'execution_error') sawEnd = true;
    }
    if (!sawEnd && options.ended && !stream.signal.aborted) stream.send(options.ended);
  } catch (error) {
    options.log.error({ err: error, runId: options.runId }, 'run events relay failed');
  } finally {
    stream.end();
  }
}
