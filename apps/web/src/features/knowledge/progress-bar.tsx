import { cn } from '@/lib/utils';

/** A thin progress bar (an upload's bytes, a document's ingestion), `value` from 0 to 1. */
export function ProgressBar({
  label,
  value,
  failed = false,
}: {
  label: string;
  value: number;
  failed?: boolean;
}) {
  const percent = Math.round(value * 100);
  return (
    <div
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={percent}
      className="h-1.5 overflow-hidden rounded-full bg-muted"
    >
      <div
        className={cn('h-full transition-all', failed ? 'bg-destructive' : 'bg-primary')}
        style={{ width: `${percent}%` }}
      />
    </div>
  );
}
