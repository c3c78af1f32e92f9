import { useNodesInitialized, useReactFlow } from '@xyflow/react';
import { useCallback, useEffect, useMemo } from 'react';
import { useEditorStore } from './editor-store';
import type { EditorEdge, EditorNode } from './graph-ops';
import { boxOf } from './placement';
import { fitViewport } from './viewport-fit';

export const canvasElement = () => document.querySelector<HTMLElement>('[data-testid=flow-canvas]');

/** Shows the flow at a readable zoom, from its start (see `fitViewport`). */
export function useFitFlow() {
  const flow = useReactFlow<EditorNode, EditorEdge>();
  const fit = useCallback(
    (duration = 0) => {
      const top = flow.getNodes().filter((n) => !n.parentId);
      const rect = canvasElement()?.getBoundingClientRect();
      if (top.length === 0 || !rect || rect.width === 0) return;
      const input = top.find((n) => n.type === 'input');
      const viewport = fitViewport(flow.getNodesBounds(top), rect, input ? boxOf(input) : null);
      void flow.setViewport(viewport, { duration });
    },
    [flow],
  );
  /** The canvas holds the editor's nodes, each measured. */
  const ready = useCallback(() => {
    const shown = flow.getNodes();
    const wanted = useEditorStore.getState().nodes;
    return (
      shown.length === wanted.length &&
      wanted.every((n) => flow.getInternalNode(n.id)?.measured.width !== undefined)
    );
  }, [flow]);
  return useMemo(() => Object.assign(fit, { ready }), [fit, ready]);
}

/**
 * Fits the flow whenever a fit was asked for (the editor opening on a flow, a template applied, the
 * layout redone), as soon as every node has been measured.
 */
export function useFitWhenAsked() {
  const fit = useFitFlow();
  const initialized = useNodesInitialized();
  const request = useEditorStore((s) => s.fitRequest);
  const done = useEditorStore((s) => s.fitDone);
  useEffect(() => {
    if (request === done || !initialized) return;
    // Measured now; fitting on the next frame lets the canvas settle its size first.
    const frame = requestAnimationFrame(() => {
      if (!fit.ready()) return;
      fit(request > 1 ? 200 : 0);
      useEditorStore.setState({ fitDone: request });
    });
    return () => cancelAnimationFrame(frame);
  }, [request, done, initialized, fit]);
}
