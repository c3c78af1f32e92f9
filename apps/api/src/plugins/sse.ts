import { HEARTBEAT_MS, STREAM_DONE } from '@atelier/schemas';
import { EVENT_COALESCE_MS, type EventLog } from '@atelier/runtime';
import type { FlowStreamEvent } from '@atelier/schemas';
import type { Server } from 'node:http';
import { metrics } from '@atelier/telemetry';
import type { FastifyBaseLogger, FastifyReply } from 'fastify';

/** A run stream's client hears its place in the queue when nothing came for this long, then this often. */
const QUEUED_NOTICE_MS = 2_000;
const QUEUED_REPEAT_MS = 5_000;
/** A run stream that heard nothing for this long asks whether its run has ended (see relayRunEvents). */
export const ENDED_CHECK_MS = 5_000;
/**
 * Events of one stream within this long of its last write leave together (see openSse): the same
 * window as a run's events gathered before each append to its log.
 */
export const COALESCE_MS = EVENT_COALESCE_MS;
/** What a stream closed by a shutdown tells its client to wait before reconnecting (SSE `retry:`). */
export const RECONNECT_RETRY_MS = 1_000;

/** The run streams open on each server, told to reconnect when it closes (see closeEventStreams). */
const openStreams = new WeakMap<Server, Set<() => void>>();

/**
 * Shutdown: every run stream open on this server sends its client a last `reconnect` event (with the
 * run id, the last event id and an SSE `retry:` hint) and ends without `[DONE]`, so the client
 * re-attaches with Last-Event-ID to another API process; the run itself goes on.
 */
export function closeEventStreams(server: Server): void {
  for (const close of openStreams.get(server) ?? []) close();
}

export interface SseStream {
  /** Writes one event as a `data:` line (after an `id:` line when given) and a blank line. */
  send(data: unknown, id?: string): void;
  /** Aborted when the client leaves before the end. */
  signal: AbortSignal;
  /** Writes `data: [DONE]` and closes. */
  end(): void;
  /** Writes a last event with an SSE `retry:` hint and closes without `[DONE]` (the client comes back). */
  reconnect(data: unknown, retryMs: number): void;
}

/**
 * Takes the reply over for a server-sent-event stream: no buffering by proxies (X-Accel-Buffering),
 * no compression, a heartbeat every 15 seconds, and an abort signal that fires when the client leaves.
 */
export function openSse(
  reply: FastifyReply,
  heartbeatMs = HEARTBEAT_MS,
  /** The heartbeat's line: Atelier's clients ignore the heartbeat event; OpenAI's need an SSE comment. */
  heartbeat = `data: {"type":"heartbeat"}\n\n`,
): SseStream {
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
  // A stream's first event leaves at once (end of the tick: events of one tick share a packet, the
  // headers with them); after a write, what comes within COALESCE_MS waits to leave with it. A fast token
  // stream then costs the server one socket write per COALESCE_MS instead of one per token, and its
  // first token is not held.
  let pending = '';
  let lastWrite = 0;
  let timer: NodeJS.Timeout | undefined;
  let queued = true;
  const flush = () => {
    clearTimeout(timer);
    timer = undefined;
    queued = false;
    if (raw.destroyed) return;
    // Nothing to say by the end of the first tick: the headers leave alone, so the client knows the
    // stream is open while it waits.
    if (!pending) {
      if (!raw.headersSent) raw.flushHeaders();
      return;
    }
    lastWrite = performance.now();
    const out = pending;
    pending = '';
    raw.write(out);
  };
  const write = (line: string) => {
    if (ended || raw.destroyed) return;
    pending += line;
    if (queued) return;
    queued = true;
    const wait = COALESCE_MS - (performance.now() - lastWrite);
    if (wait <= 0) process.nextTick(flush);
    else timer = setTimeout(flush, wait);
  };
  /** Ends the stream with its last event: what is pending, the event and the end in one socket write. */
  const close = (last: string) => {
    if (ended) return;
    ended = true;
    clearTimeout(timer);
    clearInterval(beat);
    if (raw.destroyed) return;
    const out = pending + last;
    pending = '';
    raw.end(out);
  };
  process.nextTick(flush);
  const beat = setInterval(() => write(heartbeat), heartbeatMs);
  metrics.sseStreamsOpen.inc();
  metrics.sseStreamsTotal.inc();
  raw.once('close', () => metrics.sseStreamsOpen.dec());
  raw.on('close', () => {
    clearInterval(beat);
    clearTimeout(timer);
    if (!ended) controller.abort();
  });
  return {
    signal: controller.signal,
    send: (data, id) => write(`${id ? `id: ${id}\n` : ''}data: ${JSON.stringify(data)}\n\n`),
    end: () => close(`data: ${STREAM_DONE}\n\n`),
    reconnect: (data, retryMs) => close(`retry: ${retryMs}\ndata: ${JSON.stringify(data)}\n\n`),
  };
}

/**
 * Streams one simple-chat answer: `answer` sends its events; a failure it could not send itself is
 * logged and ends the stream with the spec's inference-error event. The one place the three chat
 * routes (app, public API, embed) share.
 */
export async function streamAnswer(
  reply: FastifyReply,
  options: { heartbeatMs: number; log: FastifyBaseLogger; what: string },
  answer: (send: SseStream['send'], signal: AbortSignal) => Promise<void>,
): Promise<void> {
  const sse = openSse(reply, options.heartbeatMs);
  try {
    await answer(sse.send, sse.signal);
  } catch (error) {
    options.log.error({ err: error }, `${options.what} stream failed`);
    sse.send({
      type: 'inference_error',
      message: 'An error occurred during inference',
      code: 'internal_error',
      status: 500,
    });
  } finally {
    sse.end();
  }
}

/**
 * What a website visitor's widget is shown of a chatflow's run: its answer and the answer's sources, not
 * the nodes' inputs and outputs (prompts, API responses, loaded pages), which are the organization's.
 */
export const EMBED_RUN_EVENTS: ReadonlySet<FlowStreamEvent['type']> = new Set([
  'run_started',
  'text',
  'sources',
  'execution_completed',
  'execution_error',
]);

/**
 * Streams a run's event log to the client, each event with its id, until the run ends or the client
 * leaves (the run goes on; the client can re-attach with Last-Event-ID). While the run waits in the
 * queue and nothing comes, the client hears a `queued` event with its place (no id: resuming is
 * unchanged). When the server shuts down, the client is told to reconnect (see closeEventStreams).
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
    /** The only event types this client is shown (all when absent): see EMBED_RUN_EVENTS. */
    shown?: ReadonlySet<FlowStreamEvent['type']>;
  },
): Promise<void> {
  const stream = openSse(reply, options.heartbeatMs);
  const closing = new AbortController();
  const streams = openStreams.get(reply.server.server) ?? new Set();
  openStreams.set(reply.server.server, streams);
  const close = () => closing.abort();
  streams.add(close);
  let lastId = options.after;
  let heard = false;
  let notice: NodeJS.Timeout | undefined;
  const position = reply.server.runtime.queuePosition;
  const tellPlace = () => {
    if (heard) return;
    position(options.runId)
      .then((place) => {
        if (place === null || heard || stream.signal.aborted || closing.signal.aborted) return;
        stream.send({ type: 'queued', run_id: options.runId, position: place });
        notice = setTimeout(tellPlace, QUEUED_REPEAT_MS);
      })
      .catch(() => undefined);
  };
  if (!options.ended) notice = setTimeout(tellPlace, QUEUED_NOTICE_MS);
  // A run whose runner died after storing its end but before logging it would leave its readers
  // waiting forever: after a silence, the run's row is asked, and an ended run's end is sent.
  const settled = new AbortController();
  let endedLater: FlowStreamEvent | null = null;
  let silence: NodeJS.Timeout | undefined;
  let lastHeard = performance.now();
  let over = false;
  const askEnd = () => {
    if (over) return;
    // Heard from meanwhile: asked again once the silence is long enough (one timer per stream).
    const quiet = performance.now() - lastHeard;
    if (quiet < ENDED_CHECK_MS) {
      silence = setTimeout(askEnd, ENDED_CHECK_MS - quiet);
      return;
    }
    reply.server.runtime
      .runEnd(options.runId)
      .then((end) => {
        if (end) {
          endedLater = end;
          settled.abort();
        } else if (!over) silence = setTimeout(askEnd, ENDED_CHECK_MS);
      })
      .catch(() => {
        if (!over) silence = setTimeout(askEnd, ENDED_CHECK_MS);
      });
  };
  if (!options.ended) silence = setTimeout(askEnd, ENDED_CHECK_MS);
  let reconnect = false;
  try {
    let sawEnd = false;
    const relay = async (follow: boolean, signal: AbortSignal) => {
      for await (const { id, event } of options.events.read(options.runId, lastId, signal, { follow })) {
        if (closing.signal.aborted) break;
        heard = true;
        lastHeard = performance.now();
        if (!options.shown || options.shown.has(event.type)) stream.send(event, id);
        lastId = id;
        if (event.type === 'execution_completed' || event.type === 'execution_error') sawEnd = true;
      }
    };
    await relay(!options.ended, AbortSignal.any([stream.signal, closing.signal, settled.signal]));
    // Ended by its row: what the log holds now, then the end if the log never got it.
    const ended = options.ended ?? endedLater;
    if (endedLater && !sawEnd && !stream.signal.aborted && !closing.signal.aborted) {
      await relay(false, AbortSignal.any([stream.signal, closing.signal]));
    }
    reconnect = closing.signal.aborted && !sawEnd && !stream.signal.aborted;
    if (!reconnect && !sawEnd && ended && !stream.signal.aborted) stream.send(ended);
  } catch (error) {
    options.log.error({ err: error, runId: options.runId }, 'run events relay failed');
  } finally {
    over = true;
    clearTimeout(silence);
    clearTimeout(notice);
    streams.delete(close);
    if (reconnect) {
      stream.reconnect(
        { type: 'reconnect', run_id: options.runId, last_event_id: lastId, retry_ms: RECONNECT_RETRY_MS },
        RECONNECT_RETRY_MS,
      );
    } else stream.end();
  }
}
