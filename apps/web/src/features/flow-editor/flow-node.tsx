import {
  type ConditionBranch,
  ELSE_HANDLE,
  nodeDefinition,
  sourceHandlesOf,
  TOOLS_HANDLE,
} from '@atelier/schemas';
import type { EditorNode } from './graph-ops';
import { Handle, type NodeProps, Position } from '@xyflow/react';
import { AlertTriangle } from 'lucide-react';
import { memo } from 'react';
import { useTranslation } from 'react-i18next';
import { cn } from '@/lib/utils';
import { useProblemCount } from './editor-store';
import { CATEGORY_LOOK, nodeSummary, UNKNOWN_LOOK } from './node-look';
import { useNodeTitle } from './node-text';
import { NodeRunBadge, useNodeError, useStatusRing } from './runs/node-run-badge';

/** The look of every handle on the canvas. */
export const HANDLE_CLASS = '!size-3 !border-2 !border-background !bg-muted-foreground';

function branchLabel(fields: EditorNode['data']['fields'], handle: string, index: number): string {
  if (handle === ELSE_HANDLE) return 'else';
  const branches = Array.isArray(fields) ? [] : (fields.branches as ConditionBranch[] | undefined);
  const label = branches?.[index]?.label;
  return label || (index === 0 ? 'if' : `elif ${index}`);
}

/** One node on the canvas. Memoized: dragging a node re-renders that node only. */
export const FlowNodeCard = memo(function FlowNodeCard({ id, type, data, selected }: NodeProps<EditorNode>) {
  const { t } = useTranslation();
  const title = useNodeTitle()(type, data.label) || id;
  const def = nodeDefinition(type);
  const look = def ? CATEGORY_LOOK[def.category] : UNKNOWN_LOOK;
  const Icon = look.icon;
  const problems = useProblemCount(id);
  const branches = sourceHandlesOf({ type, data });
  const summary = nodeSummary(data.fields);
  const ring = useStatusRing(id);
  const error = useNodeError(id);

  return (
    <div
      data-testid={`node-${id}`}
      data-node-type={type}
      className={cn(
        'w-60 rounded-xl border bg-card text-card-foreground',
        selected && 'ring-2 ring-primary',
        problems > 0 && 'border-destructive ring-1 ring-destructive',
        ring,
      )}
    >
      {type !== 'input' && <Handle type="target" position={Position.Left} className={HANDLE_CLASS} />}
      <div className="flex items-center gap-2 px-3 pt-2.5">
        <span className={cn('grid size-6 shrink-0 place-items-center rounded-md text-white', look.accent)}>
          <Icon className="size-3.5" />
        </span>
        <span className="min-w-0 flex-1 truncate text-sm font-medium" title={title}>
          {title}
        </span>
        <NodeRunBadge nodeId={id} />
      </div>
      <div className="px-3 pb-2.5 pt-1">
        <p className="truncate font-mono text-[10px] text-muted-foreground">{id}</p>
        {summary && <p className="mt-1 line-clamp-2 text-xs text-muted-foreground">{summary}</p>}
        {error && (
          <p
            className="mt-1 line-clamp-2 break-words rounded bg-destructive/10 px-1.5 py-0.5 text-xs text-destructive"
            title={error}
            data-testid={`node-error-${id}`}
          >
            {error}
          </p>
        )}
        {problems > 0 && (
          <p className="mt-1 flex items-center gap-1 text-xs font-medium text-destructive">
            <AlertTriangle className="size-3" /> {t('flow.node.problems', { count: problems })}
          </p>
        )}
      </div>
      {branches ? (
        <div className="grid gap-1 border-t px-3 py-1.5">
          {branches.map((handle, index) => (
            <div key={handle} className="relative text-right text-[11px] text-muted-foreground">
              {branchLabel(data.fields, handle, index)}
              <Handle
                id={handle}
                type="source"
                position={Position.Right}
                className={cn(HANDLE_CLASS, '!-right-4')}
                data-testid={`handle-${id}-${handle}`}
              />
            </div>
          ))}
        </div>
      ) : (
        type !== 'output' && <Handle type="source" position={Position.Right} className={HANDLE_CLASS} />
      )}
      {type === 'agent' && (
        <Handle
          id={TOOLS_HANDLE}
          type="target"
          position={Position.Bottom}
          className={cn(HANDLE_CLASS, '!bg-orange-500')}
          title={t('flow.node.tools')}
        />
      )}
    </div>
  );
});
