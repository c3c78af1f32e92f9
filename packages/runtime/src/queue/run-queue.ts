/** Where a new run goes: executed in this process (embedded mode) or by a worker (BullMQ on Redis). */
export interface RunQueue {
  readonly kind: 'in-process' | 'bullmq';
  enqueue(runId: string): Promise<void>;
  close(): Promise<void>;
}

export type ExecuteRun = (runId: string) => Promise<void>;

export const RUN_QUEUE_NAME = 'atelier-runs';
