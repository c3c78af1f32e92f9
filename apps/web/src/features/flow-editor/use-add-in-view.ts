import { nodeDefinition } from '@atelier/schemas';
import type { EditorNode, EditorEdge } from './graph-ops';
import { useReactFlow } from '@xyflow/react';
import { useCallback, useRef } from 'react';
import { useEditorStore } from './editor-store';

/**
 * Adds a node where the user is looking: the middle of the canvas, each next one a little lower right so
 * they do not stack; inside the selected iteration when one is selected.
 */
export function useAddInView() {
  const flow = useReactFlow<EditorNode, EditorEdge>();
  const cascade = useRef(0);
  return useCallback(
    (type: string) => {
      const store = useEditorStore.getState();
      const selected = store.nodes.find((n) => n.id === store.selectedNodeId);
      const io = type === 'input' || type === 'output';
      if (selected && nodeDefinition(selected.type)?.isContainer && !io) {
        const inside = store.nodes.filter((n) => n.parentId === selected.id).length;
        store.addNode(type, { x: 24 + inside * 32, y: 64 + inside * 32 }, selected.id);
        return;
      }
      const rect = document.querySelector('[data-testid=flow-canvas]')?.getBoundingClientRect();
      const center = rect
        ? flow.screenToFlowPosition({ x: rect.left + rect.width / 2, y: rect.top + rect.height / 3 })
        : { x: 0, y: 0 };
      const step = (cascade.current++ % 8) * 24;
      store.addNode(type, { x: center.x - 120 + step, y: center.y + step });
    },
    [flow],
  );
}
