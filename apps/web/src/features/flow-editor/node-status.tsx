import { CheckCircle2, CircleSlash, Loader2, XCircle } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { cn } from '@/lib/utils';
import { useRunStore } from './runs/run-store';

const LOOK = {
  running: { icon: Loader2, className: 'text-sky-600 animate-spin', ring: 'ring-2 ring-sky-400' },
  succeeded: { icon: CheckCircle2, className: 'text-emerald-600', ring: 'ring-2 ring-emerald-500' },
  failed: { icon: XCircle, className: 'text-destructive', ring: 'ring-2 ring-destructive' },
  skipped: { icon: CircleSlash, className: 'text-muted-foreground', ring: 'opacity-60' },
} as const;

/** The ring of a node with a status in the shown run (subscribed per node, so only that node re-renders). */
export function useStatusRing(nodeId: string): string {
  const status = useRunStore((s) => s.nodeStatus[nodeId]);
  return status ? LOOK[status].ring : '';
}

/** The node's status in the shown run; a click opens its execution (not for a skipped node). */
export function NodeStatusBadge({ nodeId }: { nodeId: string }) {
  const { t } = useTranslation();
  const status = useRunStore((s) => s.nodeStatus[nodeId]);
  const select = useRunStore((s) => s.selectExecution);
  if (!status) return null;
  const { icon: Icon, className } = LOOK[status];
  return (
    <button
      type="button"
      data-testid={`node-status-${nodeId}`}
      data-status={status}
      title={t(`flow.status.${status}`)}
      aria-label={t(`flow.status.${status}`)}
      className="nodrag grid size-6 shrink-0 place-items-center rounded-md hover:bg-muted"
      onClick={(event) => {
        event.stopPropagation();
        if (status !== 'skipped') select(nodeId);
      }}
    >
      <Icon className={cn('size-4', className)} />
    </button>
  );
}
