import { logContextFields } from '@atelier/telemetry';
import { pino } from 'pino';

/**
 * The worker's structured log: pino JSON lines like the API's (`level`, `time`, `msg`, fields). Lines
 * written while a run executes carry its `runId` and the `reqId` of the request that started it.
 */
export function createWorkerLogger(level: string) {
  return pino({ level, base: { service: 'worker' }, mixin: logContextFields });
}
