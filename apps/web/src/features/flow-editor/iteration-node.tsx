import type { EditorNode } from './graph-ops';
import { Handle, NodeResizer, type NodeProps, Position } from '@xyflow/react';
import { AlertTriangle, Repeat } from 'lucide-react';
import { memo } from 'react';
import { useTranslation } from 'react-i18next';
import { cn } from '@/lib/utils';
import { useProblemCount } from './editor-store';
import { HANDLE_CLASS } from './flow-node';
import { useNodeTitle } from './node-text';
import { NodeRunBadge, useNodeError, useStatusRing } from './runs/node-run-badge';

/** An iteration: a resizable frame whose children run once per item. */
export const IterationNode = memo(function IterationNode({ id, data, selected }: NodeProps<EditorNode>) {
  const { t } = useTranslation();
  const title = useNodeTitle()('iteration', data.label);
  const problems = useProblemCount(id);
  const ring = useStatusRing(id);
  const error = useNodeError(id);
  return (
    <div
      data-testid={`node-${id}`}
      data-node-type="iteration"
      className={cn(
        'size-full rounded-xl border-2 border-dashed border-indigo-400/70 bg-indigo-50/40 dark:bg-indigo-950/20',
        selected && 'border-solid border-primary',
        problems > 0 && 'border-destructive',
        ring,
      )}
    >
      <NodeResizer isVisible={selected} minWidth={320} minHeight={200} color="var(--color-primary)" />
      <Handle type="target" position={Position.Left} className={HANDLE_CLASS} />
      <div className="flex items-center gap-2 px-3 py-2">
        <span className="grid size-6 place-items-center rounded-md bg-indigo-500 text-white">
          <Repeat className="size-3.5" />
        </span>
        <span className="truncate text-sm font-medium">{title || id}</span>
        <span className="font-mono text-[10px] text-muted-foreground">{id}</span>
        <span className="flex-1" />
        {problems > 0 && <AlertTriangle className="size-4 text-destructive" />}
        <NodeRunBadge nodeId={id} />
      </div>
      <p className="px-3 text-xs text-muted-foreground">{t('flow.node.iterationHint')}</p>
      {error && (
        <p
          className="mx-3 mt-1 truncate rounded bg-destructive/10 px-1.5 py-0.5 text-xs text-destructive"
          title={error}
          data-testid={`node-error-${id}`}
        >
          {error}
        </p>
      )}
      <Handle type="source" position={Position.Right} className={HANDLE_CLASS} />
    </div>
  );
});
