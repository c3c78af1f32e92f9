import { CheckCircle2, CircleSlash, Loader2, XCircle } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { cn } from '@/lib/utils';
import type { NodeRunStatus } from './run-reducer';
import { useRunStore } from './run-store';

const LOOK = {
  running: { icon: Loader2, className: 'text-sky-600 animate-spin', ring: 'ring-2 ring-sky-400' },
  succeeded: { icon: CheckCircle2, className: 'text-emerald-600', ring: 'ring-2 ring-emerald-500' },
  failed: { icon: XCircle, className: 'text-destructive', ring: 'ring-2 ring-destructive' },
  skipped: { icon: CircleSlash, className: 'text-muted-foreground', ring: 'opacity-60' },
} as const satisfies Record<NodeRunStatus, unknown>;

/** The ring of a node with a status in the shown run (subscribed per node, so only that node re-renders). */
export function useStatusRing(nodeId: string): string {
  const status = useRunStore((s) => s.nodeStatus[nodeId]);
  return status ? LOOK[status].ring : '';
}

/**
 * A canvas node's run status: nothing until the node has one; a click opens its execution in the panel.
 * The click and the pointer press stay on the badge (and `nodrag nopan` tells the canvas so), because
 * selecting the node would clear the execution just opened.
 */
export function NodeRunBadge({ nodeId, className }: { nodeId: string; className?: string }) {
  const { t } = useTranslation();
  const status = useRunStore((s) => s.nodeStatus[nodeId]);
  const select = useRunStore((s) => s.selectExecution);
  if (!status) return null;
  const { icon: Icon, className: look } = LOOK[status];
  return (
    <button
      type="button"
      data-testid={`node-status-${nodeId}`}
      className={cn(
        'nodrag nopan grid size-6 shrink-0 place-items-center rounded-md hover:bg-muted focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring',
        className,
      )}
      title={`${t(`flowRuns.status.${status}`)} · ${t('flowRuns.execution.open')}`}
      aria-label={`${t(`flowRuns.status.${status}`)} · ${t('flowRuns.execution.open')}`}
      onPointerDown={(e) => e.stopPropagation()}
      onClick={(e) => {
        e.stopPropagation();
        select(nodeId);
      }}
    >
      <Icon data-status={status} className={cn('size-4', look)} />
    </button>
  );
}
