import { useTranslation } from 'react-i18next';
import { useRunStore } from './run-store';
import { StatusBadge } from './status-badge';

/**
 * A canvas node's run status, for the editor to place on its nodes: nothing until the node has a
 * status; a click opens its execution in the panel. The click and the pointer press stay on the
 * badge (and `nodrag nopan` tells the canvas so), because selecting the node would clear the
 * execution just opened.
 */
export function NodeRunBadge({ nodeId, className }: { nodeId: string; className?: string }) {
  const { t } = useTranslation();
  const status = useRunStore((s) => s.nodeStatus[nodeId]);
  const select = useRunStore((s) => s.selectExecution);
  if (!status) return null;
  return (
    <button
      type="button"
      className={`nodrag nopan rounded-full focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring ${className ?? ''}`}
      aria-label={t('flowRuns.execution.open')}
      onPointerDown={(e) => e.stopPropagation()}
      onClick={(e) => {
        e.stopPropagation();
        select(nodeId);
      }}
    >
      <StatusBadge status={status} />
    </button>
  );
}
