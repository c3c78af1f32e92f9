import { nodeDefinition, TOOLS_HANDLE } from '@atelier/schemas';
import type { EditorNode } from './graph-ops';
import { AlertTriangle, MousePointerClick, Trash2, X } from 'lucide-react';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useShallow } from 'zustand/react/shallow';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import { Input } from '@/components/ui/input';
import { useTools } from '@/features/knowledge/queries';
import { toolItemsFor } from '@/features/knowledge/tool-pickers';
import { cn } from '@/lib/utils';
import { useAppStore } from '@/stores/app-store';
import { ConditionsEditor } from './conditions-editor';
import { CustomFieldsEditor } from './custom-fields-editor';
import { useEditorStore } from './editor-store';
import { type FieldContext, FieldEditor } from './field-editor';
import { isFieldVisible } from './field-rules';
import { problemText, useNodeTitle } from './node-text';
import { useNamedItems, useWorkspaceModels } from './queries';
import { upstreamOf } from './references';
import { useNodeError } from './runs/node-run-badge';

/** The flow's problems that concern no node (no input, no reachable output…), when nothing is selected. */
function FlowProblems() {
  const { t } = useTranslation();
  const problems = useEditorStore((s) => s.problems);
  const selectNode = useEditorStore((s) => s.selectNode);
  const nodes = useEditorStore((s) => s.nodes);
  const typeOf = (id: string | null) => nodes.find((n) => n.id === id)?.type;
  return (
    <div className="grid gap-3 p-4 text-sm">
      <p className="flex items-center gap-2 text-muted-foreground">
        <MousePointerClick className="size-4" /> {t('flow.inspector.empty')}
      </p>
      {problems.length > 0 && (
        <div className="grid gap-1.5" data-testid="flow-problems">
          <h3 className="text-xs font-semibold text-destructive">
            {t('flow.inspector.problems', { count: problems.length })}
          </h3>
          {problems.map((p, i) => (
            <button
              key={i}
              type="button"
              disabled={!p.node_id}
              onClick={() => p.node_id && selectNode(p.node_id)}
              className="rounded-md border border-destructive/30 bg-destructive/5 px-2 py-1 text-left text-xs enabled:hover:bg-destructive/10"
            >
              {p.node_id && <span className="font-mono">{p.node_id}: </span>}
              {problemText(t, p, typeOf(p.node_id))}
            </button>
          ))}
        </div>
      )}
    </div>
  );
}

/** An agent's tools: the flow's tool nodes, attached by an edge to its Tools handle. */
function ToolsField({ agent }: { agent: Pick<EditorNode, 'id'> }) {
  const { t } = useTranslation();
  const nodes = useEditorStore((s) => s.nodes);
  const edges = useEditorStore((s) => s.edges);
  const connect = useEditorStore((s) => s.connect);
  const onEdgesChange = useEditorStore((s) => s.onEdgesChange);
  const title = useNodeTitle();
  const tools = nodes.filter((n) => nodeDefinition(n.type)?.isTool);
  const attached = (id: string) =>
    edges.find((e) => e.source === id && e.target === agent.id && e.targetHandle === TOOLS_HANDLE);
  return (
    <div className="grid gap-1.5">
      <span className="text-xs font-medium">{t('flow.inspector.tools')}</span>
      {tools.length === 0 && <p className="text-xs text-muted-foreground">{t('flow.inspector.noTools')}</p>}
      {tools.map((tool) => (
        <label key={tool.id} className="flex items-center gap-2 text-xs">
          <Checkbox
            checked={!!attached(tool.id)}
            onCheckedChange={(on) => {
              if (on) connect({ source: tool.id, target: agent.id, targetHandle: TOOLS_HANDLE });
              else {
                const edge = attached(tool.id);
                if (edge) onEdgesChange([{ type: 'remove', id: edge.id }]);
              }
            }}
          />
          {title(tool.type, tool.data.label) || tool.id}{' '}
          <span className="font-mono text-[10px] text-muted-foreground">{tool.id}</span>
        </label>
      ))}
    </div>
  );
}

/** The node's error in the shown run, in full (the node's face shows its first lines). */
function RunError({ nodeId }: { nodeId: string }) {
  const { t } = useTranslation();
  const error = useNodeError(nodeId);
  if (!error) return null;
  return (
    <div
      role="alert"
      data-testid="inspector-run-error"
      className="grid gap-1 rounded-md border border-destructive/30 bg-destructive/5 p-2 text-xs text-destructive"
    >
      <p className="font-semibold">{t('canvas.execution.error')}</p>
      <p className="whitespace-pre-wrap break-words">{error}</p>
    </div>
  );
}

function NodeForm({ node }: { node: Pick<EditorNode, 'id' | 'type' | 'data'> }) {
  const { t } = useTranslation();
  const title = useNodeTitle();
  const def = nodeDefinition(node.type);
  // What the variable picker depends on: the edges and every node's data, not positions, so dragging
  // another node does not re-render the form.
  const edges = useEditorStore((s) => s.edges);
  const shapes = useEditorStore(
    useShallow((s) => s.nodes.flatMap((n) => [n.id, n.type, n.data, n.parentId])),
  );
  const problems = useEditorStore((s) => s.problems);
  const updateNode = useEditorStore((s) => s.updateNode);
  const deleteNodes = useEditorStore((s) => s.deleteNodes);
  const selectNode = useEditorStore((s) => s.selectNode);
  const workspaceId = useAppStore((s) => s.selectedWorkspaceId);
  const models = useWorkspaceModels(workspaceId);
  const collections = useNamedItems('collection', workspaceId);
  const connectors = useNamedItems('connector', workspaceId);
  const tools = useTools(workspaceId);
  // Only what runs before this node may be referenced (recomputed when the graph's shape changes).
  const sources = useMemo(
    () => upstreamOf({ nodes: useEditorStore.getState().nodes, edges }, node.id),
    // eslint-disable-next-line react-hooks/exhaustive-deps -- `shapes` stands for the nodes' data
    [shapes, edges, node.id],
  );
  const mine = problems.filter((p) => p.node_id === node.id);
  const fields = (Array.isArray(node.data.fields) ? {} : node.data.fields) as Record<string, unknown>;
  const setField = (name: string, value: unknown) =>
    updateNode(node.id, { fields: { ...fields, [name]: value } }, name);
  const problemOf = (name: string) => {
    const found = mine.find((p) => p.field === name);
    return found ? problemText(t, found, node.type) : undefined;
  };
  const context = (name: string): FieldContext => ({
    nodeId: node.id,
    sources,
    models: models.data,
    modelsFailed: models.isError,
    collections: collections.data,
    connectors: connectors.data,
    tools: toolItemsFor(node.type ?? '', tools.data),
    problem: problemOf(name),
  });

  return (
    <div className="grid gap-4 p-4" data-testid="inspector">
      <div className="flex items-start gap-2">
        <div className="min-w-0 flex-1">
          <p className="text-xs text-muted-foreground">{def ? t(def.label) : node.type}</p>
          <p className="truncate font-mono text-xs">{node.id}</p>
        </div>
        <Button
          variant="ghost"
          size="icon"
          className="size-8"
          aria-label={t('flow.inspector.delete')}
          onClick={() => deleteNodes([node.id])}
        >
          <Trash2 />
        </Button>
        <Button
          variant="ghost"
          size="icon"
          className="size-8"
          aria-label={t('flow.inspector.close')}
          onClick={() => selectNode(null)}
        >
          <X />
        </Button>
      </div>
      {mine.some((p) => !p.field || !def?.fieldMeta.some((m) => m.name === p.field)) && (
        <div
          className="grid gap-1 rounded-md border border-destructive/30 bg-destructive/5 p-2 text-xs text-destructive"
          role="alert"
        >
          {mine
            .filter((p) => !p.field || !def?.fieldMeta.some((m) => m.name === p.field))
            .map((p, i) => (
              <p key={i} className="flex gap-1">
                <AlertTriangle className="mt-0.5 size-3 shrink-0" /> {problemText(t, p, node.type)}
              </p>
            ))}
        </div>
      )}
      <RunError nodeId={node.id} />
      <div className="grid gap-1">
        <label htmlFor={`label-${node.id}`} className="text-xs font-medium">
          {t('flow.inspector.label')}
        </label>
        <Input
          id={`label-${node.id}`}
          value={title(node.type, node.data.label)}
          maxLength={200}
          onChange={(e) => updateNode(node.id, { label: e.target.value }, 'label')}
          className="h-8 text-sm"
        />
      </div>
      {def?.fieldMeta.map((meta) => {
        if (meta.kind === 'custom-fields') {
          return (
            <CustomFieldsEditor
              key={meta.name}
              nodeId={node.id}
              value={node.data.fields}
              onChange={(list) => updateNode(node.id, { fields: list }, 'fields')}
            />
          );
        }
        if (!isFieldVisible(meta, fields, def)) return null;
        if (meta.kind === 'conditions') {
          return (
            <ConditionsEditor
              key={meta.name}
              value={fields[meta.name]}
              sources={sources}
              onChange={(branches) => setField(meta.name, branches)}
            />
          );
        }
        if (meta.kind === 'tools') return <ToolsField key={meta.name} agent={node} />;
        return (
          <FieldEditor
            key={meta.name}
            meta={meta}
            value={fields[meta.name]}
            onChange={(v) => setField(meta.name, v)}
            context={context(meta.name)}
          />
        );
      })}
      {node.type !== 'input' && node.type !== 'output' && (
        <label className="flex items-center gap-2 border-t pt-3 text-xs">
          <Checkbox
            checked={node.data.continueOnError === true}
            onCheckedChange={(v) => updateNode(node.id, { continueOnError: v === true })}
          />
          {t('flow.inspector.continueOnError')}
        </label>
      )}
    </div>
  );
}

/**
 * The right-hand panel: the selected node's form, or the flow's problems. On a phone it is the body of
 * a bottom sheet (`className` then sets its size).
 */
export function Inspector({ className }: { className?: string }) {
  const node = useEditorStore(
    useShallow((s) => {
      const found = s.nodes.find((n) => n.id === s.selectedNodeId);
      return found ? { id: found.id, type: found.type, data: found.data } : undefined;
    }),
  );
  return (
    <aside
      className={cn('h-full w-80 shrink-0 overflow-y-auto border-l bg-background', className)}
      aria-label="inspector"
    >
      {node ? <NodeForm key={node.id} node={node} /> : <FlowProblems />}
    </aside>
  );
}
