import { nodeDefinition, nodeTypes as catalogTypes } from '@atelier/schemas';
import {
  Background,
  BackgroundVariant,
  Controls,
  type FinalConnectionState,
  MiniMap,
  type NodeTypes,
  ReactFlow,
  useReactFlow,
} from '@xyflow/react';
import '@xyflow/react/dist/style.css';
import './canvas.css';
import { type DragEvent, useCallback, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from '@/stores/toasts';
import { useEditorStore } from './editor-store';
import { FlowNodeCard } from './flow-node';
import { checkConnection, type Connection, type EditorNode, type EditorEdge } from './graph-ops';
import { IterationNode } from './iteration-node';
import { NODE_DRAG_TYPE } from './palette';
import { useRunStore } from './runs/run-store';
import { useFitWhenAsked } from './use-fit-flow';
import { useDarkMode } from './use-dark-mode';

/** Every catalog type drawn by the card, iterations by their frame; built once. */
const NODE_TYPES: NodeTypes = Object.fromEntries(
  catalogTypes.map((type) => [type, type === 'iteration' ? IterationNode : FlowNodeCard]),
);

const DEFAULT_EDGE = { type: 'smoothstep', interactionWidth: 16 } as const;

/** The iteration under a point of the flow, the innermost one, if any. */
function useContainerAt() {
  const flow = useReactFlow<EditorNode, EditorEdge>();
  return useCallback(
    (point: { x: number; y: number }) => {
      const hits = flow
        .getIntersectingNodes({ x: point.x, y: point.y, width: 1, height: 1 })
        .filter((n) => nodeDefinition(n.type ?? '')?.isContainer);
      const inner = hits.at(-1);
      if (!inner) return null;
      const at = flow.getInternalNode(inner.id)?.internals.positionAbsolute ?? inner.position;
      return { id: inner.id, position: { x: point.x - at.x, y: point.y - at.y } };
    },
    [flow],
  );
}

/** The canvas: pan, zoom, minimap, snap; nodes dropped from the palette; edges only where allowed. */
export function Canvas() {
  const { t } = useTranslation();
  const flow = useReactFlow<EditorNode, EditorEdge>();
  const nodes = useEditorStore((s) => s.nodes);
  const edges = useEditorStore((s) => s.edges);
  const onNodesChange = useEditorStore((s) => s.onNodesChange);
  const onEdgesChange = useEditorStore((s) => s.onEdgesChange);
  const connect = useEditorStore((s) => s.connect);
  const addNode = useEditorStore((s) => s.addNode);
  const selectNode = useEditorStore((s) => s.selectNode);
  const containerAt = useContainerAt();
  const wrapper = useRef<HTMLDivElement>(null);
  const dark = useDarkMode();
  useFitWhenAsked();

  const isValidConnection = useCallback(
    (c: Connection | EditorEdge) => checkConnection(useEditorStore.getState(), c) === null,
    [],
  );

  /** A refused edge says why, rather than silently snapping back. */
  const onConnectEnd = useCallback(
    (_: MouseEvent | TouchEvent, state: FinalConnectionState) => {
      if (state.isValid || !state.fromNode || !state.toNode || !state.fromHandle || !state.toHandle) return;
      const fromSource = state.fromHandle.type === 'source';
      const [source, target] = fromSource
        ? [state.fromHandle, state.toHandle]
        : [state.toHandle, state.fromHandle];
      const refusal = checkConnection(useEditorStore.getState(), {
        source: source.nodeId,
        target: target.nodeId,
        sourceHandle: source.id ?? null,
        targetHandle: target.id ?? null,
      });
      if (refusal && refusal !== 'unknown_node')
        toast.error(t('flow.connect.refused'), t(`flow.connect.${refusal}`));
    },
    [t],
  );

  /**
   * A click on a node selects it; when the shown run has a result for it, its execution opens too (the
   * selection first clears the execution shown before, as spec section 4 says).
   */
  const openNode = useCallback(
    (id: string) => {
      selectNode(id);
      const run = useRunStore.getState();
      // A skipped node has no result to show: its branch was not taken.
      const ran = run.executions[id]?.some((e) => e.status !== 'skipped') ?? false;
      if (ran || run.nodeStatus[id] === 'running') run.selectExecution(id);
    },
    [selectNode],
  );

  const onDrop = useCallback(
    (event: DragEvent) => {
      const type = event.dataTransfer.getData(NODE_DRAG_TYPE);
      if (!type) return;
      event.preventDefault();
      const point = flow.screenToFlowPosition({ x: event.clientX, y: event.clientY });
      const container = type === 'input' || type === 'output' ? null : containerAt(point);
      addNode(type, container?.position ?? point, container?.id);
    },
    [flow, containerAt, addNode],
  );

  return (
    <div ref={wrapper} className="atelier-canvas relative h-full min-w-0 flex-1" data-testid="flow-canvas">
      <ReactFlow<EditorNode, EditorEdge>
        nodes={nodes}
        edges={edges}
        nodeTypes={NODE_TYPES}
        defaultEdgeOptions={DEFAULT_EDGE}
        onNodesChange={onNodesChange}
        onEdgesChange={onEdgesChange}
        onConnect={connect}
        onConnectEnd={onConnectEnd}
        isValidConnection={isValidConnection}
        onNodeClick={(_, node) => openNode(node.id)}
        onPaneClick={() => selectNode(null)}
        onDragOver={(event) => {
          event.preventDefault();
          event.dataTransfer.dropEffect = 'move';
        }}
        onDrop={onDrop}
        snapToGrid
        snapGrid={[16, 16]}
        minZoom={0.1}
        maxZoom={2}
        // Deleting is the editor's shortcut: nodes, their edges and children in one undo step.
        deleteKeyCode={null}
        multiSelectionKeyCode={['Meta', 'Control', 'Shift']}
        onlyRenderVisibleElements
        proOptions={{ hideAttribution: true }}
        colorMode={dark ? 'dark' : 'light'}
      >
        <Background variant={BackgroundVariant.Dots} gap={16} size={1} />
        <MiniMap pannable zoomable className="!bg-background max-md:!hidden" nodeStrokeWidth={3} />
        <Controls />
      </ReactFlow>
    </div>
  );
}
