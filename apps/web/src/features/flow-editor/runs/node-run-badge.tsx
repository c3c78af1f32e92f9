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

/** The error of a node that failed in the shown run (the first item's, for an iteration's child). */
export function useNodeError(nodeId: string): string | null {
  return useRunStore((s) =>
    s.nodeStatus[nodeId] === 'failed' ? (s.executions[nodeId]?.find((e) => e.error)?.error ?? null) : null,
  );
}

/**
 * A canvas node's run status: nothing until the node has one. The whole node opens its execution when
 * clicked (canvas.tsx), so this is only a sign, named for screen readers.
 */
export function NodeRunBadge({ nodeId, className }: { nodeId: string; className?: string }) {
  const { t } = useTranslation();
  const status = useRunStore((s) => s.nodeStatus[nodeId]);
  if (!status) return null;
  const { icon: Icon, className: look } = LOOK[status];
  return (
    <span
      role="img"
      data-testid={`node-status-${nodeId}`}
      className={cn('grid size-6 shrink-0 place-items-center', className)}
      title={t(`flowRuns.status.${status}`)}
      aria-label={t(`flowRuns.status.${status}`)}
    >
      <Icon data-status={status} className={cn('size-4', look)} />
    </span>
  );
}
