import { captureJobContext, metrics, SpanKind, withSpan, type JobContext } from '@atelier/telemetry';

/** Where a new run goes: executed in this process (embedded mode) or by a worker (BullMQ on Redis). */
export interface RunQueue {
  readonly kind: 'in-process' | 'bullmq';
  enqueue(runId: string): Promise<void>;
  /**
   * Hands back a queued run the queue no longer holds (no waiting or running entry for it); answers
   * whether it did. Safe to call for a run held elsewhere: a run is claimed once (see lifecycle.ts).
   */
  requeue(runId: string): Promise<boolean>;
  close(): Promise<void>;
}

/** Executes one run; `job` is the request id and trace context it was queued with. */
export type ExecuteRun = (runId: string, job?: JobContext) => Promise<void>;

export const RUN_QUEUE_NAME = 'atelier-runs';

/** How long an enqueue may take before the call answers 503 (the queue's store is away). */
export const ENQUEUE_TIMEOUT_MS = 4_000;

/**
 * Every enqueue, whatever the queue: a producer span (the run's trace goes on from it in the runner),
 * the enqueue count, and the job context (request id, trace) handed to `send` for the job's data.
 */
export function enqueueTraced(
  kind: RunQueue['kind'],
  runId: string,
  send: (job: JobContext) => Promise<void>,
): Promise<void> {
  return withSpan(
    'run.enqueue',
    { kind: SpanKind.PRODUCER, attributes: { 'atelier.run_id': runId, 'atelier.queue': kind } },
    async () => {
      await send(captureJobContext());
      metrics.runsEnqueued.inc({ queue: kind });
    },
  );
}
