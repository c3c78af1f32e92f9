import { CheckCircle2, CircleSlash, Loader2, XCircle } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { cn } from '@/lib/utils';
import type { NodeRunStatus, RunViewStatus } from './run-reducer';

/** One colour per status, shared by the run, the node list, the runs list and the canvas badges. */
export const STATUS_CLASSES: Record<RunViewStatus | NodeRunStatus, string> = {
  idle: 'bg-muted text-muted-foreground',
  queued: 'bg-muted text-muted-foreground',
  running: 'bg-sky-500/15 text-sky-700 dark:text-sky-300',
  succeeded: 'bg-emerald-500/15 text-emerald-700 dark:text-emerald-300',
  failed: 'bg-destructive/15 text-destructive',
  cancelled: 'bg-amber-500/15 text-amber-700 dark:text-amber-300',
  skipped: 'bg-muted text-muted-foreground',
};

function StatusIcon({ status }: { status: RunViewStatus | NodeRunStatus }) {
  const icon = 'size-3';
  if (status === 'running' || status === 'queued') return <Loader2 className={cn(icon, 'animate-spin')} />;
  if (status === 'succeeded') return <CheckCircle2 className={icon} />;
  if (status === 'failed') return <XCircle className={icon} />;
  if (status === 'cancelled' || status === 'skipped') return <CircleSlash className={icon} />;
  return null;
}

/** A run's or a node's status as a small coloured pill with an icon (never colour alone). */
export function StatusBadge({
  status,
  className,
}: {
  status: RunViewStatus | NodeRunStatus;
  className?: string;
}) {
  const { t } = useTranslation();
  return (
    <span
      data-status={status}
      className={cn(
        'inline-flex items-center gap-1 rounded-full px-2 py-0.5 text-[10px] font-semibold uppercase tracking-wide',
        STATUS_CLASSES[status],
        className,
      )}
    >
      <StatusIcon status={status} />
      {t(`flowRuns.status.${status}`)}
    </span>
  );
}
