import { templateById } from '@atelier/schemas';
import { beforeEach, describe, expect, it } from 'vitest';
import { useEditorStore } from '../src/features/flow-editor/editor-store';
import { connect, createNode, type EditorNode, type Graph } from '../src/features/flow-editor/graph-ops';
import { autoLayout } from '../src/features/flow-editor/layout';
import {
  boxOf,
  type Box,
  DEFAULT_NODE_SIZE,
  freeSpot,
  GAP,
  linkFor,
  placeNewNode,
} from '../src/features/flow-editor/placement';
import { fromConfiguration } from '../src/features/flow-editor/serialize';
import { fitViewport, MIN_FIT_ZOOM } from '../src/features/flow-editor/viewport-fit';

/** Nodes at the positions given (type and top-left corner), linked as given. */
function graphOf(spec: [string, number, number][], links: [number, number][] = []): Graph {
  const nodes: EditorNode[] = [];
  for (const [type, x, y] of spec) nodes.push(createNode(type, { x, y }, new Set(nodes.map((n) => n.id))));
  let graph: Graph = { nodes, edges: [] };
  for (const [s, t] of links) graph = connect(graph, { source: nodes[s]!.id, target: nodes[t]!.id });
  return graph;
}

const overlap = (a: Box, b: Box) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

function expectNoOverlap(nodes: readonly EditorNode[]) {
  const top = nodes.filter((n) => !n.parentId);
  for (const [i, a] of top.entries())
    for (const b of top.slice(i + 1)) expect(overlap(boxOf(a), boxOf(b)), `${a.id} / ${b.id}`).toBe(false);
}

const view = { x: 500, y: 300 };

describe('placing a node added by a click', () => {
  it('goes to the right of the selected node, linked from its free output', () => {
    const graph = graphOf([['input', 0, 0]]);
    const input = graph.nodes[0]!;
    const placement = placeNewNode(graph, 'llm', input.id, view);
    expect(placement.position).toEqual({ x: DEFAULT_NODE_SIZE.width + GAP.x, y: 0 });
    expect(placement.connectFrom).toBe(input.id);
  });

  it('goes lower when the place beside is taken, and never links from an output already used', () => {
    const graph = graphOf(
      [
        ['input', 0, 0],
        ['llm', 320, 0],
      ],
      [[0, 1]],
    );
    const placement = placeNewNode(graph, 'llm', graph.nodes[0]!.id, view);
    expect(placement.position.x).toBe(320);
    expect(placement.position.y).toBeGreaterThanOrEqual(DEFAULT_NODE_SIZE.height);
    expect(placement.connectFrom).toBeUndefined();
  });

  it('three clicks in a row make three separate nodes, each linked from the one before', () => {
    useEditorStore.getState().reset();
    useEditorStore.setState({ loaded: true, ...graphOf([['input', 0, 0]]) });
    const input = useEditorStore.getState().nodes[0]!.id;
    useEditorStore.getState().selectNode(input);
    for (let i = 0; i < 3; i++) {
      const s = useEditorStore.getState();
      s.placeNode('llm', placeNewNode(s, 'llm', s.selectedNodeId, view));
    }
    const { nodes, edges } = useEditorStore.getState();
    expect(nodes).toHaveLength(4);
    expectNoOverlap(nodes);
    // Each new node is selected in turn: a chain input → llm → llm → llm.
    expect(edges.map((e) => [e.source, e.target])).toEqual(
      nodes.slice(1).map((n, i) => [nodes[i]!.id, n.id]),
    );
    // The node and its link are one step: one undo removes both.
    useEditorStore.getState().undo();
    expect(useEditorStore.getState().nodes).toHaveLength(3);
    expect(useEditorStore.getState().edges).toHaveLength(2);
  });

  it('does not link when it would be ambiguous or refused', () => {
    const graph = graphOf([
      ['conditional', 0, 0],
      ['output', 0, 200],
      ['llm', 0, 400],
      ['calculator_tool', 0, 600],
    ]);
    const [conditional, output, llm] = graph.nodes;
    // A conditional has one output per branch.
    expect(placeNewNode(graph, 'llm', conditional!.id, view).connectFrom).toBeUndefined();
    // An output node ends the flow.
    expect(placeNewNode(graph, 'llm', output!.id, view).connectFrom).toBeUndefined();
    // An input starts a flow; a tool attaches to an agent's tools, not to the data flow.
    expect(placeNewNode(graph, 'input', llm!.id, view).connectFrom).toBeUndefined();
    expect(placeNewNode(graph, 'calculator_tool', llm!.id, view).connectFrom).toBeUndefined();
    expect(placeNewNode(graph, 'llm', graph.nodes[3]!.id, view).connectFrom).toBeUndefined();
    // The canvas's rules still decide once the node exists.
    expect(linkFor(graph, { position: { x: 0, y: 0 }, connectFrom: llm!.id }, 'missing')).toBeNull();
  });

  it('with nothing selected, lands at the centre of the view, beside what is already there', () => {
    const empty = placeNewNode({ nodes: [], edges: [] }, 'llm', null, view);
    expect(empty.position).toEqual({
      x: view.x - DEFAULT_NODE_SIZE.width / 2,
      y: view.y - DEFAULT_NODE_SIZE.height / 2,
    });
    expect(empty.connectFrom).toBeUndefined();
    const taken = graphOf([['llm', empty.position.x, empty.position.y]]);
    const next = placeNewNode(taken, 'llm', null, view);
    expect(overlap({ ...next.position, ...DEFAULT_NODE_SIZE }, boxOf(taken.nodes[0]!))).toBe(false);
  });

  it('goes inside a selected iteration, beside its last child', () => {
    const graph = graphOf([['iteration', 0, 0]]);
    const frame = graph.nodes[0]!;
    const first = placeNewNode(graph, 'llm', frame.id, view);
    expect(first).toMatchObject({ parentId: frame.id, position: { x: 24, y: 64 } });
    const child = createNode('llm', first.position, new Set([frame.id]), frame.id);
    const second = placeNewNode({ nodes: [frame, child], edges: [] }, 'llm', frame.id, view);
    expect(second.parentId).toBe(frame.id);
    expect(second.position.x).toBe(24 + DEFAULT_NODE_SIZE.width + GAP.x);
  });

  it('freeSpot skips every taken box', () => {
    const size = { width: 100, height: 50 };
    const taken = [
      { x: 0, y: 0, width: 100, height: 50 },
      { x: 0, y: 82, width: 100, height: 50 },
    ];
    const spot = freeSpot({ x: 0, y: 0 }, size, taken);
    for (const box of taken) expect(overlap({ ...spot, ...size }, box)).toBe(false);
    expect(spot.x).toBe(0);
  });
});

describe('auto-layout', () => {
  it('lays a stacked flow out left to right in running order, nothing on top of anything', () => {
    // Five nodes dropped on one spot: input → scraper → splitter → insert → output.
    const graph = graphOf(
      [
        ['output', 0, 0],
        ['input', 0, 0],
        ['web_scraper', 0, 0],
        ['recursive_splitter', 0, 0],
        ['vector_store_insert', 0, 0],
      ],
      [
        [1, 2],
        [2, 3],
        [3, 4],
        [4, 0],
      ],
    );
    const laid = autoLayout(graph);
    expectNoOverlap(laid.nodes);
    const x = (type: string) => laid.nodes.find((n) => n.type === type)!.position.x;
    expect(x('input')).toBeLessThan(x('web_scraper'));
    expect(x('web_scraper')).toBeLessThan(x('recursive_splitter'));
    expect(x('recursive_splitter')).toBeLessThan(x('vector_store_insert'));
    expect(x('vector_store_insert')).toBeLessThan(x('output'));
    // The flow stays where it was: its top-left corner is kept.
    expect(Math.min(...laid.nodes.map((n) => n.position.x))).toBe(0);
    expect(Math.min(...laid.nodes.map((n) => n.position.y))).toBe(0);
    expect(laid.edges).toBe(graph.edges);
  });

  it('puts branches one under the other, and grows an iteration around its children', () => {
    const graph = graphOf(
      [
        ['input', 0, 0],
        ['conditional', 0, 0],
        ['llm', 0, 0],
        ['llm', 0, 0],
        ['iteration', 0, 0],
      ],
      [[0, 1]],
    );
    const [input, cond, a, b, frame] = graph.nodes as [
      EditorNode,
      EditorNode,
      EditorNode,
      EditorNode,
      EditorNode,
    ];
    let g = connect(graph, { source: cond.id, target: a.id, sourceHandle: 'if' });
    g = connect(g, { source: cond.id, target: b.id, sourceHandle: 'else' });
    const children = [0, 1, 2].map((i) => ({
      ...createNode('llm', { x: 0, y: 0 }, new Set(g.nodes.map((n) => n.id).concat(`x${i}`)), frame.id),
      id: `child_${i}`,
    }));
    g = { nodes: [...g.nodes, ...children], edges: g.edges };
    g = connect(g, { source: 'child_0', target: 'child_1' });
    g = connect(g, { source: 'child_1', target: 'child_2' });
    const laid = autoLayout(g);
    expectNoOverlap(laid.nodes);
    const pos = (id: string) => laid.nodes.find((n) => n.id === id)!.position;
    expect(pos(input.id).x).toBeLessThan(pos(cond.id).x);
    expect(pos(a.id).x).toBe(pos(b.id).x);
    expect(pos(a.id).y).not.toBe(pos(b.id).y);
    // Three children in a row, inside the frame, which is now wide enough for them.
    const frameAfter = laid.nodes.find((n) => n.id === frame.id)!;
    const right = Math.max(...children.map((c) => pos(c.id).x + DEFAULT_NODE_SIZE.width));
    expect(pos('child_0').x).toBeLessThan(pos('child_1').x);
    expect(pos('child_0').y).toBeGreaterThanOrEqual(64);
    expect(frameAfter.width).toBeGreaterThanOrEqual(right);
  });

  it('is one undo step in the editor', () => {
    useEditorStore.getState().reset();
    const template = fromConfiguration(templateById('document-indexing')!.configuration).graph;
    const stacked = template.nodes.map((n) => ({ ...n, position: { x: 10, y: 10 } }));
    useEditorStore.setState({ loaded: true, nodes: stacked, edges: template.edges });
    useEditorStore.getState().autoLayout();
    expectNoOverlap(useEditorStore.getState().nodes);
    expect(useEditorStore.getState().dirty).toBe(true);
    expect(useEditorStore.getState().fitRequest).toBeGreaterThan(0);
    useEditorStore.getState().undo();
    expect(useEditorStore.getState().nodes.map((n) => n.position)).toEqual(stacked.map((n) => n.position));
  });
});

describe('fitting the view', () => {
  const screen = { width: 800, height: 600 };

  it('shows a small flow whole, centred, never zoomed in past 100 %', () => {
    const v = fitViewport({ x: 0, y: 0, width: 400, height: 200 }, screen);
    expect(v.zoom).toBe(1);
    expect(v.x).toBe(200);
    expect(v.y).toBe(200);
  });

  it('never zooms a long flow out past the readable minimum, and starts from its input', () => {
    // A five-node template in a row: 1600 px wide.
    const bounds = { x: 80, y: 120, width: 1520, height: 100 };
    const v = fitViewport(bounds, screen, { x: 80, y: 120, width: 240, height: 100 });
    expect(v.zoom).toBe(MIN_FIT_ZOOM);
    // The input's left edge is on screen, near the left.
    const inputLeft = 80 * v.zoom + v.x;
    expect(inputLeft).toBeGreaterThanOrEqual(0);
    expect(inputLeft).toBeLessThan(100);
    // It fits in height, so it is centred vertically.
    const middle = (120 + 50) * v.zoom + v.y;
    expect(Math.abs(middle - 300)).toBeLessThan(2);
  });

  it('on a phone, the start of a tall flow is on screen', () => {
    const phone = { width: 390, height: 700 };
    const bounds = { x: 0, y: 0, width: 1300, height: 2000 };
    const start = { x: 0, y: 1500, width: 240, height: 100 };
    const v = fitViewport(bounds, phone, start);
    expect(v.zoom).toBe(MIN_FIT_ZOOM);
    const top = start.y * v.zoom + v.y;
    expect(top).toBeGreaterThanOrEqual(0);
    expect(top + start.height * v.zoom).toBeLessThanOrEqual(phone.height);
    expect(start.x * v.zoom + v.x).toBeGreaterThanOrEqual(0);
  });
});

beforeEach(() => useEditorStore.getState().reset());
