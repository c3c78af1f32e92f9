import type { FlowRunEvent, NodeExecution } from '@atelier/schemas';
import { errorMessage, RunError, type RunErrorCode } from './errors';
import type { EngineServices } from './services';
import type { RunLimits } from './types';

export type Sleep = (ms: number, signal: AbortSignal) => Promise<void>;

/** Waits, or rejects as soon as the signal fires. */
export const abortableSleep: Sleep = (ms, signal) =>
  new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason as Error);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason as Error);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });

export interface RunEnd {
  ok: boolean;
  error?: RunError;
}

/** What every scope of one run shares: limits, records, events, and the switch that ends it. */
export class RunState {
  readonly records: NodeExecution[] = [];
  readonly controller = new AbortController();
  steps = 0;
  done = false;
  readonly finished: Promise<RunEnd>;
  private settle!: (end: RunEnd) => void;

  constructor(
    readonly services: EngineServices,
    readonly inputs: Readonly<Record<string, unknown>>,
    readonly limits: RunLimits,
    readonly sleep: Sleep,
    private readonly onEvent: ((event: FlowRunEvent) => void) | undefined,
  ) {
    this.finished = new Promise((resolve) => (this.settle = resolve));
  }

  /** Events go out synchronously; a listener that throws cannot break the run. */
  emit(event: FlowRunEvent): void {
    if (this.done && event.type !== 'execution_completed' && event.type !== 'execution_error') return;
    try {
      this.onEvent?.(event);
    } catch {
      // The listener's problem, not the run's.
    }
  }

  /** Counts one node execution against the step limit. */
  countStep(nodeId: string): void {
    if (++this.steps > this.limits.maxSteps) {
      throw this.fail(
        new RunError(
          'limit_exceeded',
          `The run went over its limit of ${this.limits.maxSteps} node executions.`,
          nodeId,
        ),
      );
    }
  }

  complete(outputs: Record<string, unknown>, text: string): void {
    if (this.done) return;
    this.emit({ type: 'execution_completed', outputs, text });
    this.done = true;
    this.settle({ ok: true });
  }

  /** Ends the run: running nodes are told through the signal and recorded as stopped. Returns the error. */
  fail(error: RunError): RunError {
    if (this.done) return error;
    this.emit({
      type: 'execution_error',
      error: error.message,
      code: error.code,
      ...(error.nodeId ? { nodeId: error.nodeId } : {}),
    });
    this.done = true;
    this.controller.abort(error);
    const now = Date.now();
    for (const record of this.records) {
      if (record.status !== 'running') continue;
      record.status = 'failed';
      record.error = `Stopped: ${error.message}`;
      record.durationSeconds = (now - Date.parse(record.startedAt)) / 1000;
    }
    this.settle({ ok: false, error });
    return error;
  }
}

export const asRunError = (error: unknown, code: RunErrorCode = 'node_failed'): RunError =>
  error instanceof RunError ? error : new RunError(code, errorMessage(error));
