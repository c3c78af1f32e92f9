import { useReactFlow } from '@xyflow/react';
import { useCallback } from 'react';
import { useEditorStore } from './editor-store';
import type { EditorEdge, EditorNode } from './graph-ops';
import { placeNewNode, sizeOf } from './placement';
import { canvasElement } from './use-fit-flow';

/**
 * Adds a node by a click: beside the selected node and linked from it when that is unambiguous, inside
 * the selected iteration, or at the centre of the view; never on top of another node. The view follows
 * the new node when it lands out of sight.
 */
export function useAddInView() {
  const flow = useReactFlow<EditorNode, EditorEdge>();
  return useCallback(
    (type: string) => {
      const store = useEditorStore.getState();
      const rect = canvasElement()?.getBoundingClientRect();
      const centre = rect
        ? flow.screenToFlowPosition({ x: rect.left + rect.width / 2, y: rect.top + rect.height / 2 })
        : { x: 0, y: 0 };
      const placement = placeNewNode(store, type, store.selectedNodeId, centre);
      const id = store.placeNode(type, placement);
      if (!rect) return;
      const parent = placement.parentId ? flow.getInternalNode(placement.parentId) : undefined;
      const origin = parent?.internals.positionAbsolute ?? { x: 0, y: 0 };
      const at = { x: origin.x + placement.position.x, y: origin.y + placement.position.y };
      const size = sizeOf(useEditorStore.getState().nodes.find((n) => n.id === id) ?? {});
      const topLeft = flow.flowToScreenPosition(at);
      const bottomRight = flow.flowToScreenPosition({ x: at.x + size.width, y: at.y + size.height });
      const seen =
        topLeft.x >= rect.left &&
        topLeft.y >= rect.top &&
        bottomRight.x <= rect.right &&
        bottomRight.y <= rect.bottom;
      if (!seen)
        void flow.setCenter(at.x + size.width / 2, at.y + size.height / 2, {
          zoom: flow.getZoom(),
          duration: 200,
        });
    },
    [flow],
  );
}
