import type { FlowStreamEvent } from '@atelier/schemas';
import { EVENT_RETENTION_MS, isTerminal, type EventLog, type LoggedEvent } from './event-log';

interface RunLog {
  events: LoggedEvent[];
  waiters: Set<() => void>;
  finished: boolean;
}

/** The embedded mode's event log: one process runs and relays. Ids are sequence numbers. */
export function createMemoryEventLog(retentionMs = EVENT_RETENTION_MS): EventLog {
  const logs = new Map<string, RunLog>();
  const timers = new Set<NodeJS.Timeout>();
  const logOf = (runId: string) => {
    let log = logs.get(runId);
    if (!log) {
      log = { events: [], waiters: new Set(), finished: false };
      logs.set(runId, log);
    }
    return log;
  };

  /** Adds an event and wakes the run's readers: the whole of an append (nothing here waits). */
  function push(runId: string, event: FlowStreamEvent): string {
    const log = logOf(runId);
    const id = String(log.events.length + 1);
    log.events.push({ id, event });
    if (isTerminal(event)) {
      log.finished = true;
      const timer = setTimeout(() => {
        timers.delete(timer);
        logs.delete(runId);
      }, retentionMs);
      timer.unref();
      timers.add(timer);
    }
    for (const wake of log.waiters) wake();
    log.waiters.clear();
    return id;
  }

  const log: EventLog = {
    async appendMany(runId, events) {
      for (const event of events) push(runId, event);
    },

    async append(runId, event: FlowStreamEvent) {
      return push(runId, event);
    },

    async *read(runId, afterId, signal, options) {
      const follow = options?.follow ?? true;
      const log = logs.get(runId) ?? (follow ? logOf(runId) : undefined);
      if (!log) return;
      let next = afterId ? Number(afterId) : 0;
      if (!Number.isInteger(next) || next < 0) next = 0;
      while (!signal.aborted) {
        while (next < log.events.length) {
          const entry = log.events[next++]!;
          yield entry;
          if (isTerminal(entry.event)) return;
        }
        if (log.finished || !follow) return;
        await new Promise<void>((resolve) => {
          const wake = () => {
            signal.removeEventListener('abort', wake);
            log.waiters.delete(wake);
            resolve();
          };
          log.waiters.add(wake);
          signal.addEventListener('abort', wake, { once: true });
        });
      }
    },

    reachable: () => true,
    async close() {
      for (const timer of timers) clearTimeout(timer);
      for (const log of logs.values()) for (const wake of log.waiters) wake();
      logs.clear();
    },
  };
  return log;
}
