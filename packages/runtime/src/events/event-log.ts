import type { FlowStreamEvent } from '@atelier/schemas';
import { TERMINAL_EVENTS } from '@atelier/schemas';

/** One event of a run's log with the id a client resumes from (`Last-Event-ID`). */
export interface LoggedEvent {
  id: string;
  event: FlowStreamEvent;
}

/**
 * A run's events, in order, readable from any point: the runner appends, any number of readers follow.
 * In memory for the embedded mode, a Redis Stream when Redis is configured (runners and API processes
 * apart). Ids increase; reading after an id never repeats or skips an event.
 */
export interface EventLog {
  append(runId: string, event: FlowStreamEvent): Promise<string>;
  /** Several events in one go (one round trip), in order. */
  appendMany(runId: string, events: FlowStreamEvent[]): Promise<void>;
  /**
   * The events after `afterId` (all of them when null), then each new one as it comes, until the run's
   * terminal event or `signal` aborts. With `follow: false`, only what is there now.
   */
  read(
    runId: string,
    afterId: string | null,
    signal: AbortSignal,
    options?: { follow?: boolean },
  ): AsyncIterable<LoggedEvent>;
  /** Whether an append would be taken now (false while its store is out of reach). */
  reachable(): boolean;
  close(): Promise<void>;
}

export const isTerminal = (event: FlowStreamEvent) => TERMINAL_EVENTS.includes(event.type);

/** How long a finished run's events stay readable for a client that re-attaches late. */
export const EVENT_RETENTION_MS = 60 * 60_000;
