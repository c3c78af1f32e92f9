import type { Run, RunNodeExecution } from '@atelier/schemas';

/** Durations in seconds as the spec's node execution gives them: "0.42 s", "12.3 s", "2 min 5 s". */
export function formatSeconds(seconds: number | null | undefined): string {
  if (seconds === null || seconds === undefined || !Number.isFinite(seconds)) return '–';
  if (seconds < 10) return `${seconds.toFixed(2)} s`;
  if (seconds < 60) return `${seconds.toFixed(1)} s`;
  const minutes = Math.floor(seconds / 60);
  return `${minutes} min ${Math.round(seconds - minutes * 60)} s`;
}

/** A run's wall time, when it has started and finished. */
export function runSeconds(run: Pick<Run, 'started_at' | 'finished_at' | 'created_at'>): number | null {
  const start = run.started_at ?? run.created_at;
  if (!run.finished_at) return null;
  return Math.max(0, (Date.parse(run.finished_at) - Date.parse(start)) / 1000);
}

/** A node's time over all its executions (an iteration's items add up). */
export const totalSeconds = (executions: readonly RunNodeExecution[] | undefined): number | null =>
  executions && executions.length > 0 ? executions.reduce((sum, e) => sum + e.duration_seconds, 0) : null;

/** A started time with hours and minutes, in the interface language. */
export function formatTime(value: string, language: string): string {
  return new Intl.DateTimeFormat(language.startsWith('fr') ? 'fr-FR' : 'en-US', {
    dateStyle: 'medium',
    timeStyle: 'short',
  }).format(new Date(value));
}
