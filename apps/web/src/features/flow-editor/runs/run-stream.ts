import {
  flowStreamEvent,
  TERMINAL_EVENTS,
  type FlowStreamEvent,
  type Run,
  type RunDetail,
  type StartRunBody,
} from '@atelier/schemas';
import { FINISHED_RUN_STATUSES, type RunStatus } from '@atelier/schemas/constants';
import { StreamError } from '@/features/chat/errors';
import type { StreamClient, StreamEvent } from '@/features/chat/stream-client';
import { ApiError, type ApiClient } from '@/lib/api-client';
import { isRetryable, LOST_STREAM } from './run-errors';

/** Where a run's events go (the run store, or a chat turn that also writes its message). */
export interface RunSink {
  event(event: FlowStreamEvent, id?: string): void;
  load(detail: RunDetail): void;
}

type KeyStore = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

export interface RunClientOptions {
  stream: Pick<StreamClient, 'events'>;
  api: Pick<ApiClient, 'get' | 'post'>;
  /** Remembers the active run per chatbot across a reload (sessionStorage in the app). */
  storage?: KeyStore | null;
  /** Re-attach attempts in a row without receiving anything, before giving up. */
  retries?: number;
  retryDelayMs?: number;
  sleep?(ms: number): Promise<void>;
}

interface Cursor {
  runId: string | null;
  lastEventId: string | null;
  ended: boolean;
  /** Run events received so far (also counts those of a stream that broke afterwards). */
  received: number;
}

export const activeRunKey = (chatbotId: string) => `atelier.flowRun.${chatbotId}`;
const isFinished = (status: RunStatus) => FINISHED_RUN_STATUSES.includes(status);

/**
 * Test runs of a chatflow or workflow and the following of their events. A stream that breaks
 * before the run's end re-attaches to `/runs/:id/events` with the last event id it received, so the
 * sink sees every event once; after `retries` fruitless attempts the run row decides.
 */
export function createRunClient(options: RunClientOptions) {
  const { stream, api, storage = null } = options;
  const retries = options.retries ?? 3;
  const delay = options.retryDelayMs ?? 500;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));

  const remember = (chatbotId: string | null, runId: string) => {
    if (chatbotId) storage?.setItem(activeRunKey(chatbotId), runId);
  };
  const forget = (chatbotId: string | null) => {
    if (chatbotId) storage?.removeItem(activeRunKey(chatbotId));
  };

  const getRun = (runId: string) => api.get<RunDetail>(`/runs/${runId}`);

  /** Feeds a stream's run events to the sink. */
  async function consume(
    events: AsyncGenerator<StreamEvent>,
    cursor: Cursor,
    sink: RunSink,
    chatbotId: string | null,
  ): Promise<void> {
    for await (const { id, data } of events) {
      const parsed = flowStreamEvent.safeParse(data);
      if (!parsed.success) continue;
      const event = parsed.data;
      cursor.received += 1;
      if (id !== undefined) cursor.lastEventId = id;
      if (event.type === 'run_started') {
        cursor.runId = event.run_id;
        remember(chatbotId, event.run_id);
      }
      sink.event(event, id);
      if (TERMINAL_EVENTS.includes(event.type)) cursor.ended = true;
    }
  }

  /** Re-attaches until the run's end arrives, the user aborts, or the attempts run out. */
  async function reattach(
    runId: string,
    cursor: Cursor,
    sink: RunSink,
    chatbotId: string | null,
    signal: AbortSignal,
  ) {
    let fruitless = 0;
    while (!cursor.ended && !signal.aborted) {
      const before = cursor.received;
      try {
        const path = `/runs/${runId}/events`;
        await consume(
          stream.events(path, { method: 'GET', lastEventId: cursor.lastEventId }, signal),
          cursor,
          sink,
          chatbotId,
        );
      } catch (error) {
        if (!isRetryable(error)) throw error;
      }
      if (cursor.ended || signal.aborted) return;
      // Counted in a row: an attempt that brought events proves the way back works.
      fruitless = cursor.received > before ? 1 : fruitless + 1;
      if (fruitless > retries) {
        // The event log may be gone while the run row still knows how it ended.
        const detail = await getRun(runId);
        if (!isFinished(detail.status)) throw new StreamError(LOST_STREAM);
        cursor.ended = true;
        return;
      }
      await sleep(delay * fruitless);
    }
  }

  /** The run ended: forget it, and load its row for what events do not carry (parameters, times). */
  async function settle(cursor: Cursor, sink: RunSink, chatbotId: string | null) {
    forget(chatbotId);
    if (!cursor.runId) return;
    try {
      sink.load(await getRun(cursor.runId));
    } catch {
      // The streamed state stands; only the parameters are missing.
    }
  }

  /** Follows a run already started, from after `lastEventId` (from the beginning when null). */
  async function follow(
    runId: string,
    sink: RunSink,
    signal: AbortSignal,
    { chatbotId = null, lastEventId = null }: { chatbotId?: string | null; lastEventId?: string | null } = {},
  ): Promise<void> {
    const cursor: Cursor = { runId, lastEventId, ended: false, received: 0 };
    remember(chatbotId, runId);
    await reattach(runId, cursor, sink, chatbotId, signal);
    if (cursor.ended) await settle(cursor, sink, chatbotId);
  }

  /** Starts a test run as a stream; resolves with its id once it ended (or the user left). */
  async function start(
    chatbotId: string,
    body: StartRunBody,
    sink: RunSink,
    signal: AbortSignal,
  ): Promise<string | null> {
    const cursor: Cursor = { runId: null, lastEventId: null, ended: false, received: 0 };
    try {
      const events = stream.events(`/chatbots/${chatbotId}/runs`, { method: 'POST', body }, signal);
      await consume(events, cursor, sink, chatbotId);
    } catch (error) {
      // Before run_started there is nothing to re-attach to: the refusal is the answer.
      if (!cursor.runId || !isRetryable(error)) throw error;
    }
    if (signal.aborted) return cursor.runId;
    if (!cursor.runId) throw new StreamError(LOST_STREAM);
    if (!cursor.ended) await reattach(cursor.runId, cursor, sink, chatbotId, signal);
    if (!cursor.ended) return cursor.runId;
    await settle(cursor, sink, chatbotId);
    return cursor.runId;
  }

  /**
   * After a reload: the chatbot's remembered run, re-attached from its first event while it goes
   * on, or loaded when it has finished. Resolves with its id (null when there is none) once it ended.
   */
  async function resume(chatbotId: string, sink: RunSink, signal: AbortSignal): Promise<string | null> {
    const runId = storage?.getItem(activeRunKey(chatbotId)) ?? null;
    if (!runId) return null;
    let detail: RunDetail;
    try {
      detail = await getRun(runId);
    } catch (error) {
      // Gone or no longer ours: nothing to resume. Anything else (offline) may pass: keep it for later.
      if (error instanceof ApiError && (error.status === 404 || error.status === 403)) forget(chatbotId);
      throw error;
    }
    sink.load(detail);
    if (isFinished(detail.status)) {
      forget(chatbotId);
      return runId;
    }
    await follow(runId, sink, signal, { chatbotId });
    return runId;
  }

  return {
    start,
    follow,
    resume,
    getRun,
    activeRun: (chatbotId: string) => storage?.getItem(activeRunKey(chatbotId)) ?? null,
    cancel: (runId: string) => api.post<{ run_id: string; status: RunStatus }>(`/runs/${runId}/cancel`),
    list: async (chatbotId: string, query: { limit?: number; status?: RunStatus } = {}) => {
      const params = new URLSearchParams({ limit: String(query.limit ?? 50) });
      if (query.status) params.set('status', query.status);
      return (await api.get<{ runs: Run[] }>(`/chatbots/${chatbotId}/runs?${params}`)).runs;
    },
  };
}

export type RunClient = ReturnType<typeof createRunClient>;
