import { z } from 'zod';

const check = z.object({ status: z.enum(['ok', 'error']), kind: z.string(), detail: z.string().optional() });
/** The run queue as the health check sees it (from the database and the runners' heartbeats). */
const runsCheck = z.object({
  queued: z.number().int(),
  running: z.number().int(),
  /** How long the oldest queued run has waited, in seconds; null when none waits. */
  oldest_queued_seconds: z.number().int().nullable(),
  /** Processes executing runs now (workers, or the API itself), from their heartbeats (no host names). */
  live_workers: z.number().int(),
  workers: z.array(
    z.object({
      kind: z.enum(['api', 'worker']),
      active: z.number().int(),
      concurrency: z.number().int(),
      since: z.string(),
    }),
  ),
  /** Set when runs wait and no process executes them. */
  detail: z.string().optional(),
});

export const healthAnswer = z.object({
  status: z.enum(['ok', 'degraded']),
  db: check,
  queue: check,
  /** Absent when the database or Redis did not answer. */
  runs: runsCheck.optional(),
  version: z.string(),
});
